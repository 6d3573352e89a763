import { createFileRoute, notFound } from '@tanstack/react-router'
import { agreementStatuses, type AgreementStatus } from '../../../../shared/domain/agreement-status'
import { AgreementsPage } from '../../../features/agreements/AgreementsPage'

/** The agreement list filtered by one status (docs/PRODUCT.md §2 `/agreements/status/{status}`); any case is read, anything else is "Page not found". */
export const Route = createFileRoute('/_auth/agreements/status/$status')({
  params: {
    parse: ({ status }) => {
      const upper = status.toUpperCase()
      if (!(agreementStatuses as readonly string[]).includes(upper)) throw notFound()
      return { status: upper as AgreementStatus }
    },
    stringify: ({ status }) => ({ status }),
  },
  component: StatusPage,
})

function StatusPage() {
  const { status } = Route.useParams()
  return <AgreementsPage status={status} />
}
