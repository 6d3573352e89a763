import { isCompanyAdminStaff, isCompanyStaff } from '../../../shared/domain/roles'
import { useSession } from '../auth/session'

/**
 * What the signed-in user may do with the documents of their current company: staff (every
 * company role) and the super admin manage them; only the administration (and the super admin)
 * share a document with the administration alone. Residents read.
 */
export function useDocumentRights(companyId: string | null | undefined) {
  const user = useSession().user
  const superAdmin = user?.userRole === 'SUPERADMIN'
  const role = user?.companies.find((c) => c.id === companyId)?.role
  return {
    manage: superAdmin || (role !== undefined && isCompanyStaff(role)),
    staffAudience: superAdmin || (role !== undefined && isCompanyAdminStaff(role)),
  }
}
