import { effectiveRole, isAgreementAdmin } from '../../../shared/domain/roles'
import { useSession } from '../auth/session'

/**
 * Who may create and edit agreements for the current company: every company role and the super
 * admin (README "Decisions", 2026-11-23 — a board member edits at the board meeting).
 */
export function useAgreementAdmin(): { companyId: string | null; allowed: boolean } {
  const { user } = useSession()
  const companyId = user?.currentCompany?.id ?? null
  if (!user) return { companyId, allowed: false }
  const role = effectiveRole(user.userRole, user.companies, companyId)
  return { companyId, allowed: role === 'SUPERADMIN' || isAgreementAdmin(role) }
}
