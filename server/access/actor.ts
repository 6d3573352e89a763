import { unauthenticated } from '../errors'
import type { CompanyMembership, SystemRole } from '../../shared/domain/roles'
import type { Language } from '../../shared/contract/common'

/** Who is calling: the signed-in user, their session and their company roles. */
export interface Actor {
  userId: string
  sessionId: string
  fullName: string
  emailAddress: string
  language: Language
  systemRole: SystemRole
  currentCompanyId: string | null
  companies: CompanyMembership[]
}

/** The actor of a route that needs a signed-in user. */
export const requireActor = (actor: Actor | undefined): Actor => {
  if (!actor) throw unauthenticated()
  return actor
}
