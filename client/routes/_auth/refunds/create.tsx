import { createFileRoute } from '@tanstack/react-router'
import { searchOf, text } from '../../../lib/search-params'
import { RefundPage } from '../../../features/billing/RefundPage'

/** docs/PRODUCT.md §2: the refund form takes the charge and its agreement from the query. */
export const Route = createFileRoute('/_auth/refunds/create')({
  validateSearch: searchOf({ chargeId: text(100), agreementId: text(100) }),
  component: RefundPage,
})
