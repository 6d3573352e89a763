import { createFileRoute } from '@tanstack/react-router'
import { AccountPlanPage } from '../../../features/bookkeeping/AccountPlanPage'

/** The account plan of bookkeeping (docs/BOOKKEEPING.md); company admin staff. */
export const Route = createFileRoute('/_auth/bookkeeping/accounts')({ component: AccountPlanPage })
