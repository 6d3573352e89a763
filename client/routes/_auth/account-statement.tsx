import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod'
import { AccountStatementPage } from '../../features/account-statement/AccountStatementPage'

const Search = z.object({
  year: z.coerce.number().int().min(2000).max(2100).optional().catch(undefined),
  companyId: z.uuid().optional().catch(undefined),
  /** Staff: the member whose statement it is. */
  userId: z.uuid().optional().catch(undefined),
})

/** A member's account statement (kontokort, issue #23): a resident's own, or a member's for the association's staff. */
export const Route = createFileRoute('/_auth/account-statement')({
  validateSearch: Search,
  component: function AccountStatementRoute() {
    return <AccountStatementPage search={Route.useSearch()} />
  },
})
