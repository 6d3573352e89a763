import { createFileRoute } from '@tanstack/react-router'
import { isoDay, recordId, searchOf, wholeNumber } from '../../lib/search-params'
import { AccountStatementPage } from '../../features/account-statement/AccountStatementPage'

const Search = searchOf({
  year: wholeNumber(2000, 2100),
  companyId: recordId,
  /** Staff: the member whose statement it is. */
  userId: recordId,
  /** An interim statement's last day (the link of an interim sendout, decision 0081). */
  through: isoDay,
})

/** A member's account statement (kontokort, docs/PRODUCT.md §2 "Account statement"): a resident's own, or a member's for the association's staff. */
export const Route = createFileRoute('/_auth/account-statement')({
  validateSearch: Search,
  component: function AccountStatementRoute() {
    return <AccountStatementPage search={Route.useSearch()} />
  },
})
