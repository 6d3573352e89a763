import { createFileRoute } from '@tanstack/react-router'
import { LoanPage } from '../../../../features/lending/LoanPage'

export const Route = createFileRoute('/_auth/lending/loans/$id')({
  component: function Loan() {
    return <LoanPage id={Route.useParams().id} />
  },
})
