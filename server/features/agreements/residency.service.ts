import { and, asc, eq, gt, inArray, isNull, lte, notInArray, or } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { agreementAddresses, agreements } from '../../db/schema/agreements'
import { companies, companyMembers } from '../../db/schema/companies'
import { householdResidents } from '../../db/schema/households'
import { todayInCopenhagen, type Clock } from '../../lib/clock'
import { users } from '../../db/schema/users'
import type { Actor } from '../../access/actor'
import type { Addressee } from '../notifications'

/**
 * Agreements that make someone a resident of the company: an offer not yet answered, a running
 * agreement, one terminated but not yet ended. A rejected or expired offer does not, nor a closed
 * agreement (its termination date has passed: the member moved out).
 */
const livingAgreement = notInArray(agreements.status, ['REJECTED', 'EXPIRED', 'CLOSED'])
/** A household's resident on `today` (docs/decisions/0090; shared/domain/household.ts `livesThereOn`). */
const livesThere = (today: string) =>
  and(lte(householdResidents.moveInDate, today), or(isNull(householdResidents.moveOutDate), gt(householdResidents.moveOutDate, today)))
const addressee = { id: users.id, fullName: users.fullName, emailAddress: users.emailAddress, language: users.language }

/**
 * Who lives where (docs/ARCHITECTURE.md "Modules"): a resident of an association is a member with
 * a living agreement there, or someone who lives in one of its households today (their residents
 * over time, docs/decisions/0090; read in the same statement), so the agreements module answers it for every feature — which
 * documents, forum threads, articles, loans and assemblies a resident reads, whom a message to all
 * members reaches, and which change-log rows a resident's sync pulls.
 */
export class ResidencyService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  private today() {
    return todayInCopenhagen(this.clock)
  }

  /** Companies where the user is a resident. */
  async residentCompanyIds(userId: string): Promise<string[]> {
    const members = this.db
      .select({ id: agreements.companyId })
      .from(agreements)
      .where(and(eq(agreements.memberUserId, userId), livingAgreement))
    const living = this.db
      .select({ id: householdResidents.companyId })
      .from(householdResidents)
      .where(and(eq(householdResidents.userId, userId), livesThere(this.today())))
    const rows = await this.db
      .select({ id: companies.id })
      .from(companies)
      .where(or(inArray(companies.id, members), inArray(companies.id, living)))
      .orderBy(asc(companies.id))
      .all()
    return rows.map((r) => r.id)
  }

  /** The company's residents, each once. */
  async residentIds(companyId: string): Promise<string[]> {
    const members = this.db
      .select({ id: agreements.memberUserId })
      .from(agreements)
      .where(and(eq(agreements.companyId, companyId), livingAgreement))
    const living = this.db
      .select({ id: householdResidents.userId })
      .from(householdResidents)
      .where(and(eq(householdResidents.companyId, companyId), livesThere(this.today())))
    const rows = await this.db
      .select({ id: users.id })
      .from(users)
      .where(or(inArray(users.id, members), inArray(users.id, living)))
      .orderBy(asc(users.id))
      .all()
    return rows.map((r) => r.id)
  }

  /** Whether the user is a resident of the company. */
  async isResident(userId: string, companyId: string): Promise<boolean> {
    return (await this.residentCompanyIds(userId)).includes(companyId)
  }

  /** The companies the actor is staff (any company role) or a resident of. */
  async memberCompanyIds(actor: Actor): Promise<string[]> {
    return [...new Set([...actor.companies.map((c) => c.id), ...(await this.residentCompanyIds(actor.userId))])]
  }

  /** The residents of one address (its living agreements' members and the household's current residents), each once. */
  async residentsAt(addressId: string): Promise<Addressee[]> {
    const members = this.db
      .select({ id: agreements.memberUserId })
      .from(agreementAddresses)
      .innerJoin(agreements, eq(agreements.id, agreementAddresses.agreementId))
      .where(and(eq(agreementAddresses.addressId, addressId), livingAgreement))
    const living = this.db
      .select({ id: householdResidents.userId })
      .from(householdResidents)
      .where(and(eq(householdResidents.householdId, addressId), livesThere(this.today())))
    return await this.db
      .select(addressee)
      .from(users)
      .where(or(inArray(users.id, members), inArray(users.id, living)))
      .orderBy(asc(users.id))
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
    const living = this.db
      .select({ id: householdResidents.userId })
      .from(householdResidents)
      .where(and(eq(householdResidents.companyId, companyId), livesThere(this.today())))
    return await this.db
      .select(addressee)
      .from(users)
      .where(or(inArray(users.id, staff), inArray(users.id, residents), inArray(users.id, living)))
      .orderBy(asc(users.id))
      .all()
  }
}

/** What features that show things to residents need of it. */
export type Residency = Pick<ResidencyService, 'residentCompanyIds' | 'residentIds' | 'memberCompanyIds'>

export const createResidencyService = (db: Db, clock: Clock) => new ResidencyService(db, clock)
