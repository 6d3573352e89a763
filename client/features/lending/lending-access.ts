/** Who the user is in lending, from the session and the local copy (the server decides again). */
import type { AccountInfo } from '../../../shared/contract/account'
import { isCompanyAdminStaff } from '../../../shared/domain/roles'
import type { Row } from '../../sync/local-db'

type User = Pick<AccountInfo, 'id' | 'companies' | 'currentCompany'> | null | undefined

/** Whether the user lends on behalf of the association (its chairman, administrator or accountant). */
export const lendsForAssociation = (user: User, companyId: string | undefined): boolean =>
  !!user && !!companyId && user.companies.some((c) => c.id === companyId && isCompanyAdminStaff(c.role))

/** Whether the user can pay a deposit in the association: an agreement accepted in Vipps MobilePay. */
export const canPayDeposit = (user: User, agreements: readonly Row[], companyId: string | undefined): boolean =>
  !!user &&
  agreements.some(
    (a) => a.companyId === companyId && a.status === 'ACCEPTED' && (a.member as { userId?: unknown } | undefined)?.userId === user.id && !a.terminationDate,
  )

/**
 * Whether the user sees a loan's contract (message, conditions, the deposit): its parties, the
 * association's staff and the super admin, as the server's view (others get those fields empty).
 */
export const seesContract = (
  user: Pick<AccountInfo, 'userRole' | 'companies'> | null | undefined,
  loan: { mine?: string | null; companyId?: string },
): boolean => !!loan.mine || (!!user && (user.userRole === 'SUPERADMIN' || user.companies.some((c) => c.id === loan.companyId)))
