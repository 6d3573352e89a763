import type { Db } from '../../db/client'
import { notFound } from '../../errors'
import { messages } from '../../../shared/i18n-messages'
import { companiesRepository } from './companies.repository'
import { hasAgreementWith } from '../users'
import type { Actor } from '../../access/actor'
import { isSuperAdmin, roleIn } from '../../access/policy'

/**
 * The `companyId` filter of a list (docs/decisions/0033-privacy-between-associations.md): a company the caller may not see answers 404 with
 * the same body as `GET /company/{id}` would give them, never `200 []`. The super admin sees every
 * company that exists (deleted ones too); anyone else sees a company as its staff or through a
 * link of their own to it: an agreement in any status (a resident, or a former one), or what
 * `related` says for the list (e.g. a message of the company they can read). For them an id that
 * does not exist answers exactly like another association's.
 */
export async function assertCompanyInScope(db: Db, actor: Actor, companyId: string, related?: () => Promise<boolean>): Promise<void> {
  if (isSuperAdmin(actor)) {
    if (!(await companiesRepository.byId(db, companyId))) throw notFound(messages.companyNotFound.id)
    return
  }
  // The actor's roles already leave deleted companies out; a resident keeps their own records.
  const sees = roleIn(actor, companyId) !== undefined || (await hasAgreementWith(db, actor.userId, companyId)) || (await related?.()) === true
  if (!sees) throw notFound()
}
