import { createFileRoute } from '@tanstack/react-router'
import { AccountPlanPage } from '../../../features/bookkeeping/AccountPlanPage'

/** The account plan of bookkeeping (issue #23 part A); company admin staff. */
export const Route = createFileRoute('/_auth/bookkeeping/accounts')({ component: AccountPlanPage })
