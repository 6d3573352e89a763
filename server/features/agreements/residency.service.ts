import { and, asc, eq, inArray, notInArray, or } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { agreementAddresses, agreements } from '../../db/schema/agreements'
import { companyMembers } from '../../db/schema/companies'
import { users } from '../../db/schema/users'
import type { Actor } from '../../access/actor'
import type { Addressee } from '../notifications'

/**
 * Agreements that make someone a resident of the company: an offer not yet answered, a running
 * agreement, one terminated but not yet ended. A rejected or expired offer does not, nor a closed
 * agreement (its termination date has passed: the member moved out).
 */
const livingAgreement = notInArray(agreements.status, ['REJECTED', 'EXPIRED', 'CLOSED'])
const addressee = { id: users.id, fullName: users.fullName, emailAddress: users.emailAddress, language: users.language }

/**
 * Who lives where (docs/ARCHITECTURE.md "Modules"): a resident of an association is a member with
 * a living agreement there, so the agreements module answers it for every feature — which
 * documents, forum threads, articles, loans and assemblies a resident reads, whom a message to all
 * members reaches, and which change-log rows a resident's sync pulls.
 */
export class ResidencyService {
  constructor(private readonly db: Db) {}

  /** Companies where the user is a resident. */
  async residentCompanyIds(userId: string): Promise<string[]> {
    const rows = await this.db
      .selectDistinct({ id: agreements.companyId })
      .from(agreements)
      .where(and(eq(agreements.memberUserId, userId), livingAgreement))
      .all()
    return rows.map((r) => r.id)
  }

  /** The company's residents, each once. */
  async residentIds(companyId: string): Promise<string[]> {
    const rows = await this.db
      .selectDistinct({ id: agreements.memberUserId })
      .from(agreements)
      .where(and(eq(agreements.companyId, companyId), livingAgreement))
      .all()
    return rows.map((r) => r.id)
  }

  /** Whether the user is a resident of the company. */
  async isResident(userId: string, companyId: string): Promise<boolean> {
    const row = await this.db
      .select({ id: agreements.id })
      .from(agreements)
      .where(and(eq(agreements.memberUserId, userId), eq(agreements.companyId, companyId), livingAgreement))
      .get()
    return row !== undefined
  }

  /** The companies the actor is staff (any company role) or a resident of. */
  async memberCompanyIds(actor: Actor): Promise<string[]> {
    return [...new Set([...actor.companies.map((c) => c.id), ...(await this.residentCompanyIds(actor.userId))])]
  }

  /** The residents of one address (its living agreements' members), each once. */
  async residentsAt(addressId: string): Promise<Addressee[]> {
    return await this.db
      .selectDistinct(addressee)
      .from(agreementAddresses)
      .innerJoin(agreements, eq(agreements.id, agreementAddresses.agreementId))
      .innerJoin(users, eq(users.id, agreements.memberUserId))
      .where(and(eq(agreementAddresses.addressId, addressId), livingAgreement))
      .all()
  }

  /**
   * Every member of the association in one statement: its staff (any company role) and its
   * residents, each once. A message to all members and the general assembly's sendouts
   * (decision 0061) go to them.
   */
  async members(companyId: string): Promise<Addressee[]> {
    const staff = this.db.select({ id: companyMembers.userId }).from(companyMembers).where(eq(companyMembers.companyId, companyId))
    const residents = this.db
      .select({ id: agreements.memberUserId })
      .from(agreements)
      .where(and(eq(agreements.companyId, companyId), livingAgreement))
    return await this.db
      .select(addressee)
      .from(users)
      .where(or(inArray(users.id, staff), inArray(users.id, residents)))
      .orderBy(asc(users.id))
      .all()
  }
}

/** What features that show things to residents need of it. */
export type Residency = Pick<ResidencyService, 'residentCompanyIds' | 'residentIds' | 'memberCompanyIds'>

export const createResidencyService = (db: Db) => new ResidencyService(db)
