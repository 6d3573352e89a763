/** Who moderates the forum on this device's session: the association's staff (every role, the board included). */
import { useSession } from '../auth/session'

/** Whether the signed-in user moderates the forum of `companyId` (or of their current association when none is given). */
export function useModerates(companyId?: string): boolean {
  const user = useSession().user
  if (!user) return false
  const id = companyId ?? user.currentCompany?.id
  return !!id && user.companies.some((c) => c.id === id)
}
