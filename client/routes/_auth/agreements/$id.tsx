import { createFileRoute } from '@tanstack/react-router'
import { searchOf, text } from '../../../lib/search-params'
import { AgreementPage } from '../../../features/agreements/AgreementPage'

/** `?vipps=return` marks the member's return from approving in Vipps MobilePay. */
export const Route = createFileRoute('/_auth/agreements/$id')({
  validateSearch: searchOf({ vipps: text(40) }),
  component: AgreementPage,
})
