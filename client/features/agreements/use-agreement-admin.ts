import { effectiveRole, isAgreementAdmin } from '../../../shared/domain/roles'
import { useSession } from '../auth/session'

/**
 * Who may create, edit and terminate agreements for the current company: company admin staff
 * (administrator, accountant, chairman) and the super admin; a board member only reads them
 * (docs/decisions/0024-agreements.md).
 */
export function useAgreementAdmin(): { companyId: string | null; allowed: boolean } {
  const { user } = useSession()
  const companyId = user?.currentCompany?.id ?? null
  if (!user) return { companyId, allowed: false }
  const role = effectiveRole(user.userRole, user.companies, companyId)
  return { companyId, allowed: role === 'SUPERADMIN' || isAgreementAdmin(role) }
}
