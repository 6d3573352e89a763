import type { Db } from '../../db/client'
import { snapshot } from '../../db/client'
import { conflict, forbidden, notFound, validation, versionConflict, type Issue } from '../../errors'
import { isoNow, todayInCopenhagen, type Clock } from '../../lib/clock'
import { newId } from '../../lib/ids'
import { translate } from '../../i18n/i18n'
import { decodeCursor, pageOf } from '../../http/paging'
import type {
  AddResidentRequest,
  Household,
  HouseholdListQuery,
  Move,
  MoveSettlement,
  RegisterMoveRequest,
  Resident,
  UpdateHouseholdRequest,
  UpdateResidentRequest,
} from '../../../shared/contract/households'
import { localeOf } from '../../../shared/contract/common'
import { ALLOCATION_PLACES, AREA_PLACES, decimalToScaled, livesThereOn, scaledToDecimal, stayProblem } from '../../../shared/domain/household'
import { settlementOf } from '../../../shared/domain/household-settlement'
import { openBalance } from '../../../shared/domain/invoice'
import { startPaymentDateProblem } from '../../../shared/domain/agreement-dates'
import { companyAdminStaffRoles } from '../../../shared/domain/roles'
import { messages as m } from '../../../shared/i18n-messages'
import type { Actor } from '../../access/actor'
import { isSuperAdmin, roleIn } from '../../access/policy'
import { assertCompanyInScope, type CompaniesService } from '../companies'
import type { AgreementsService } from '../agreements'
import type { AuthService } from '../auth'
import type { BillingService, ChargesService, InvoicesService } from '../billing'
import type { ProvidersService } from '../payment-providers'
import type { UsersService } from '../users'
import { recordChange, type SyncedEntity } from '../sync'
import { householdsRepository as repo, type HouseholdRow, type ResidentRow } from './households.repository'

export interface HouseholdsServiceDeps {
  db: Db
  clock: Clock
  companies: CompaniesService
  agreements: AgreementsService
  billing: BillingService
  charges: ChargesService
  invoices: InvoicesService
  providers: ProvidersService
  users: UsersService
  auth: AuthService
}

type AgreementRow = NonNullable<Awaited<ReturnType<AgreementsService['rowOf']>>>

/** Agreements that still run for a household: not ended, not refused, not already terminating. */
const running = (a: AgreementRow) => (a.status === 'CREATED' || a.status === 'PENDING' || a.status === 'ACCEPTED') && a.terminationDate === null

const residentView = (r: ResidentRow, staff: boolean): Resident => ({
  id: r.id,
  householdId: r.householdId,
  userId: r.userId,
  fullName: r.fullName,
  emailAddress: staff ? r.emailAddress : null,
  moveInDate: r.moveInDate,
  moveOutDate: r.moveOutDate,
  kind: r.kind,
  isPayer: r.isPayer,
})

const isStaffOf = (actor: Actor, companyId: string) => isSuperAdmin(actor) || roleIn(actor, companyId) !== undefined
const isAdminStaffOf = (actor: Actor, companyId: string) =>
  isSuperAdmin(actor) || (companyAdminStaffRoles as readonly string[]).includes(roleIn(actor, companyId) ?? '')

/**
 * Households (docs/PRODUCT.md "Households", docs/decisions/0090): the association's addresses with
 * their type, figures and residents over time, and the moves that end one payer's agreement with a
 * final settlement and start the next one's. Every staff role reads them; the chairman,
 * administrator and accountant change them (they keep the agreements, docs/decisions/0024); a
 * resident reads the households they live in, with their current residents. Another association's
 * household is 404.
 */
export class HouseholdsService {
  constructor(private readonly deps: HouseholdsServiceDeps) {}

  private today() {
    return todayInCopenhagen(this.deps.clock)
  }

  // ---- views

  /** The views of `rows` in their order, with their residents in one statement. */
  private async views(actor: Actor, rows: HouseholdRow[]): Promise<Household[]> {
    const residents = await repo.residentsOf(
      this.deps.db,
      rows.map((r) => r.id),
    )
    const today = this.today()
    return rows.map((r) => {
      const staff = isStaffOf(actor, r.companyId)
      const own = residents.filter((x) => x.householdId === r.id && (staff || livesThereOn(x, today)))
      return {
        id: r.id,
        companyId: r.companyId,
        street: r.street,
        number: r.number,
        floor: r.floor,
        side: r.side,
        zip: r.zip,
        city: r.city,
        type: r.type ?? 'APARTMENT',
        area: r.areaCentiM2 === null ? null : scaledToDecimal(r.areaCentiM2, AREA_PLACES),
        allocation: r.allocationMilli === null ? null : scaledToDecimal(r.allocationMilli, ALLOCATION_PLACES),
        share: r.shareOre,
        externalId: r.externalId,
        residents: own.map((x) => residentView(x, staff)),
        version: r.version ?? 1,
        updatedAt: r.updatedAt,
      }
    })
  }

  private async viewOf(actor: Actor, id: string): Promise<Household> {
    return (await this.views(actor, [(await repo.byId(this.deps.db, id))!]))[0]!
  }

  // ---- access

  /** Whether the actor lives in the household today. */
  private async livesIn(actor: Actor, householdId: string): Promise<boolean> {
    const today = this.today()
    return (await repo.residentsOf(this.deps.db, [householdId])).some((r) => r.userId === actor.userId && livesThereOn(r, today))
  }

  /** The household if the actor may read it (its association's staff, the super admin, a current resident); 404 otherwise. */
  private async readable(actor: Actor, id: string): Promise<HouseholdRow> {
    const row = await repo.byId(this.deps.db, id)
    if (!row || !(isStaffOf(actor, row.companyId) || (await this.livesIn(actor, id)))) throw notFound(m.householdNotFound.id)
    return row
  }

  /** A household the actor may change: its association's admin staff (403 for other readers), in an association whose data may change. */
  private async manageable(actor: Actor, id: string): Promise<HouseholdRow> {
    const row = await this.readable(actor, id)
    if (!isAdminStaffOf(actor, row.companyId)) throw forbidden(m.householdNotStaff.id)
    await this.deps.companies.assertWritable(row.companyId)
    return row
  }

  /** The change for sync: the association's staff, and everyone who lives or lived there (their own copy drops it when they no longer may read it). */
  private async changed(row: Pick<HouseholdRow, 'id' | 'companyId'>, residentUserIds: readonly string[] = []) {
    const { db, clock } = this.deps
    await recordChange(db, clock, 'household', row.id, 'upsert', { companyId: row.companyId })
    const lived = (await repo.residentsOf(db, [row.id])).map((r) => r.userId)
    for (const userId of new Set([...lived, ...residentUserIds])) await recordChange(db, clock, 'household', row.id, 'upsert', { userId })
  }

  // ---- reads

  async list(actor: Actor, query: HouseholdListQuery): Promise<{ items: Household[]; next: string | null }> {
    const after = decodeCursor(query.cursor, ['string', 'string'])
    return await snapshot(this.deps.db, async () => {
      await assertCompanyInScope(this.deps.db, actor, query.companyId)
      if (!isStaffOf(actor, query.companyId)) throw forbidden(m.householdNotStaff.id)
      const rows = await repo.page(this.deps.db, query.companyId, query.search || undefined, after as [string, string] | undefined, query.limit + 1)
      const page = pageOf(rows, query.limit, (r) => [r.addressKey ?? '', r.id])
      return { items: await this.views(actor, page.rows), next: page.next }
    })
  }

  async get(actor: Actor, id: string): Promise<Household> {
    return (await this.views(actor, [await this.readable(actor, id)]))[0]!
  }

  /** Whether anyone ever lived in the household (its address then stays: the companies module asks). */
  async hasResidents(householdId: string): Promise<boolean> {
    return (await repo.residentsOf(this.deps.db, [householdId])).length > 0
  }

  // ---- changes

  async update(actor: Actor, id: string, input: UpdateHouseholdRequest, ifMatch?: number): Promise<Household> {
    const row = await this.manageable(actor, id)
    if (ifMatch !== undefined && ifMatch !== (row.version ?? 1)) throw versionConflict(await this.viewOf(actor, id))
    const company = (await this.deps.companies.byId(row.companyId))!
    const issues: Issue[] = []
    if (input.share !== undefined && input.share !== null && company.unionType !== 'COOP') issues.push({ path: 'share', message: m.householdShareOnlyCoop.id })
    if (input.externalId) {
      const taken = await repo.byExternalId(this.deps.db, row.companyId, input.externalId)
      if (taken && taken.addressId !== id) issues.push({ path: 'externalId', message: m.householdExternalIdTaken.id })
    }
    if (issues.length) throw validation(issues)
    const fields = {
      ...(input.type !== undefined && { type: input.type }),
      ...(input.area !== undefined && { areaCentiM2: input.area === null ? null : decimalToScaled(input.area, AREA_PLACES) }),
      ...(input.allocation !== undefined && { allocationMilli: input.allocation === null ? null : decimalToScaled(input.allocation, ALLOCATION_PLACES) }),
      ...(input.share !== undefined && { shareOre: input.share }),
      ...(input.externalId !== undefined && { externalId: input.externalId }),
    }
    await repo.touch(this.deps.db, id, row.companyId, isoNow(this.deps.clock), fields)
    await this.changed(row)
    return await this.viewOf(actor, id)
  }

  /** The person of a resident to add: one the caller may name by id, or found by e-mail, or a new user to invite. */
  private async personOf(
    actor: Actor,
    companyId: string,
    p: { userId?: string; fullName?: string; emailAddress?: string },
  ): Promise<{ userId: string; fullName: string; emailAddress: string; invite: boolean }> {
    const { users } = this.deps
    if (p.userId) {
      const user = await users.byId(p.userId)
      // Someone the caller knows: staff of the association, or who has (had) an agreement or a home here.
      const known = user && (isSuperAdmin(actor) || (await users.isStaffOfAny(user.id, [companyId])) || (await users.hasAgreementWith(user.id, companyId)))
      if (!user || !known) throw validation([{ path: 'userId', message: m.residentPersonRequired.id }])
      return { userId: user.id, fullName: user.fullName, emailAddress: user.emailAddress, invite: false }
    }
    const found = await users.byEmail(p.emailAddress!)
    // The name the staff typed: someone from outside keeps their own data (docs/decisions/0037).
    if (found) return { userId: found.id, fullName: p.fullName!, emailAddress: found.emailAddress, invite: false }
    const now = isoNow(this.deps.clock)
    await users.insert({
      id: newId(),
      fullName: p.fullName!,
      emailAddress: p.emailAddress!,
      // Their language is not known: the staff member's is the best guess; they can change it.
      language: actor.language,
      systemRole: 'USER',
      currentCompanyId: null,
      createdAt: now,
      updatedAt: now,
    })
    return { userId: (await users.byEmail(p.emailAddress!))!.id, fullName: p.fullName!, emailAddress: p.emailAddress!, invite: true }
  }

  /** A resident row for `person` from `moveInDate`; a payer takes the payer's place from the others living there. */
  private async insertResident(
    actor: Actor,
    row: HouseholdRow,
    person: { userId?: string; fullName?: string; emailAddress?: string; kind: 'OWNER' | 'TENANT'; isPayer: boolean },
    stay: { id?: string; moveInDate: string; moveOutDate: string | null },
  ) {
    const who = await this.personOf(actor, row.companyId, person)
    const now = isoNow(this.deps.clock)
    const id = stay.id ?? newId()
    await repo.insertResident(this.deps.db, {
      id,
      companyId: row.companyId,
      householdId: row.id,
      userId: who.userId,
      fullName: who.fullName,
      moveInDate: stay.moveInDate,
      moveOutDate: stay.moveOutDate,
      kind: person.kind,
      isPayer: person.isPayer,
      createdAt: now,
      updatedAt: now,
    })
    if (person.isPayer) await repo.clearPayer(this.deps.db, row.id, id)
    if (who.invite) {
      const company = (await this.deps.companies.byId(row.companyId))!
      await this.deps.auth.invite(who.userId, { companyName: company.name, inviterName: actor.fullName })
    }
    return { id, ...who }
  }

  async addResident(actor: Actor, id: string, input: AddResidentRequest): Promise<Household> {
    const row = await this.manageable(actor, id)
    if (input.id) {
      const existing = await repo.resident(this.deps.db, input.id)
      if (existing) {
        if (existing.householdId === id && existing.moveInDate === input.moveInDate) return await this.viewOf(actor, id)
        throw conflict(m.billingRecordExists.id, 'id')
      }
    }
    const stay = { id: input.id, moveInDate: input.moveInDate, moveOutDate: input.moveOutDate ?? null }
    if (stayProblem(stay)) throw validation([{ path: 'moveOutDate', message: m.residentMoveOutBeforeMoveIn.id }])
    const added = await this.insertResident(actor, row, input, stay)
    await repo.touch(this.deps.db, id, row.companyId, isoNow(this.deps.clock))
    await this.changed(row, [added.userId])
    return await this.viewOf(actor, id)
  }

  async updateResident(actor: Actor, id: string, residentId: string, input: UpdateResidentRequest): Promise<Household> {
    const row = await this.manageable(actor, id)
    const resident = await repo.resident(this.deps.db, residentId)
    if (!resident || resident.householdId !== id) throw notFound(m.residentNotFound.id)
    const stay = {
      moveInDate: input.moveInDate ?? resident.moveInDate,
      moveOutDate: input.moveOutDate === undefined ? resident.moveOutDate : input.moveOutDate,
    }
    if (stayProblem(stay)) throw validation([{ path: 'moveOutDate', message: m.residentMoveOutBeforeMoveIn.id }])
    const now = isoNow(this.deps.clock)
    await repo.updateResident(this.deps.db, residentId, {
      ...stay,
      ...(input.kind && { kind: input.kind }),
      ...(input.isPayer !== undefined && { isPayer: input.isPayer }),
      updatedAt: now,
    })
    if (input.isPayer) await repo.clearPayer(this.deps.db, id, residentId)
    await repo.touch(this.deps.db, id, row.companyId, now)
    await this.changed(row, [resident.userId])
    return await this.viewOf(actor, id)
  }

  // ---- moves

  /** The agreement a move ends: the running agreement of the household whose member is the leaving payer (else a leaving resident). */
  private async leavingAgreement(householdId: string, leaving: ResidentRow[]): Promise<AgreementRow | undefined> {
    const agreements = (await this.deps.agreements.atAddresses([householdId])).filter(running)
    const payer = leaving.find((r) => r.isPayer)
    return agreements.find((a) => a.memberUserId === payer?.userId) ?? agreements.find((a) => leaving.some((r) => r.userId === a.memberUserId))
  }

  /** The final settlement of `agreement` for a move on `moveDate` (docs/DOMAIN.md "Moves and the final settlement"). */
  private async settlement(agreement: AgreementRow | undefined, moveDate: string): Promise<MoveSettlement> {
    if (!agreement)
      return {
        moveDate,
        agreementId: null,
        agreementNumber: null,
        payerName: null,
        lastPaymentPossible: false,
        regularToCome: 0,
        lastPayment: null,
        paidAhead: [],
        openBalance: 0,
        total: 0,
      }
    const [charges, invoices, member] = await Promise.all([
      this.deps.charges.rowsOf(agreement.id),
      this.deps.invoices.ofAgreement(agreement.id),
      this.deps.users.byId(agreement.memberUserId),
    ])
    const open = openBalance(
      invoices.map((i) => ({
        id: i.id,
        kind: i.kind,
        status: i.status,
        dueDate: i.dueDate,
        totalAmount: i.totalOre,
        settlement: i.settlement ? { kind: i.settlement } : null,
        creditedInvoiceId: i.creditedInvoiceId,
      })),
      this.today(),
    )
    const s = settlementOf({
      schedule: {
        price: agreement.priceOre,
        paymentPeriod: agreement.paymentPeriod,
        startPaymentDate: agreement.startPaymentDate,
        nextRegularPaymentDate: agreement.nextRegularPaymentDate,
      },
      moveDate,
      charges: charges.map((c) => ({
        id: c.id,
        kind: c.kind,
        due: c.due,
        amount: c.amountOre,
        status: c.status,
        captured: c.capturedOre,
        refunded: c.refundedOre,
      })),
      openBalance: open,
    })
    return {
      ...s,
      agreementId: agreement.id,
      agreementNumber: String(agreement.externalSeq),
      payerName: member?.fullName ?? null,
      lastPaymentPossible: agreement.status === 'ACCEPTED' && agreement.vippsAgreementId !== null,
    }
  }

  /** The settlement a move on `date` would make, shown before it is confirmed. */
  async preview(actor: Actor, id: string, date: string): Promise<MoveSettlement> {
    await this.manageable(actor, id)
    const today = this.today()
    const leaving = (await repo.residentsOf(this.deps.db, [id])).filter((r) => livesThereOn(r, today) || r.moveInDate > today)
    return await this.settlement(await this.leavingAgreement(id, leaving), date)
  }

  /**
   * A move (docs/PRODUCT.md "Households"): the leaving residents move out on the move date; the
   * leaving payer's agreement is terminated on that date with the termination machinery — a last
   * payment for the days not yet charged (docs/decisions/0035), refunds of days paid ahead
   * (docs/decisions/0044); the people moving in become residents, and the payer among them gets a
   * new agreement from that date with the household's parts (invited when new). One transaction;
   * the client's `id` makes a retried move one move.
   */
  async registerMove(actor: Actor, id: string, input: RegisterMoveRequest): Promise<Move> {
    const { db } = this.deps
    const row = await this.manageable(actor, id)
    const moveId = input.id ?? newId()
    const stored = await repo.move(db, moveId)
    if (stored) {
      if (stored.householdId === id && stored.moveDate === input.moveDate) return await this.moveView(actor, stored.id)
      throw conflict(m.moveExists.id, 'id')
    }
    const today = this.today()
    if (input.moveDate < today) throw validation([{ path: 'moveDate', message: m.moveDateInPast.id }])
    const horizon = startPaymentDateProblem(input.moveDate, today)
    if (horizon) throw validation([{ path: 'moveDate', message: horizon.message }])
    const residents = await repo.residentsOf(db, [id])
    const leaving = input.leaving.map((rid, i) => {
      const r = residents.find((x) => x.id === rid)
      if (!r) throw validation([{ path: `leaving.${i}`, message: m.residentNotOfHousehold.id }])
      if (r.moveOutDate !== null && r.moveOutDate <= input.moveDate) throw validation([{ path: `leaving.${i}`, message: m.residentAlreadyMovedOut.id }])
      if (r.moveInDate >= input.moveDate) throw validation([{ path: `leaving.${i}`, message: m.residentMoveOutBeforeMoveIn.id }])
      return r
    })
    const ended = leaving.length ? await this.leavingAgreement(id, leaving) : undefined
    const settlement = ended ? await this.settlement(ended, input.moveDate) : null
    const last = ended ?? (await this.deps.agreements.atAddresses([id]))[0]
    const payer = input.arriving.find((a) => a.isPayer)
    const providerId = payer && last ? await this.providerFor(row.companyId, last.paymentProviderId) : undefined

    if (ended && settlement) await this.endAgreement(actor, ended, settlement, input.moveDate)
    const now = isoNow(this.deps.clock)
    for (const r of leaving) await repo.updateResident(db, r.id, { moveOutDate: input.moveDate, updatedAt: now })
    const arrived = []
    for (const a of input.arriving) arrived.push(await this.insertResident(actor, row, a, { moveInDate: input.moveDate, moveOutDate: null }))
    let newAgreementId: string | null = null
    if (payer && last && providerId) {
      const who = arrived[input.arriving.indexOf(payer)]!
      const parts = (await this.deps.agreements.get(actor, last.id)).parts
      const created = await this.deps.agreements.create(actor, {
        companyId: row.companyId,
        paymentProviderId: providerId,
        memberName: who.fullName,
        emailAddress: who.emailAddress,
        linkedAddress: [id],
        startPaymentDate: input.moveDate,
        paymentPeriod: last.paymentPeriod,
        parts: parts.map((p) => ({ type: p.type, description: p.description, price: p.price, vatRate: p.vatRate })),
      })
      newAgreementId = created.id
    }
    await repo.insertMove(db, {
      id: moveId,
      companyId: row.companyId,
      householdId: id,
      moveDate: input.moveDate,
      endedAgreementId: ended?.id ?? null,
      newAgreementId,
      settlement: settlement as unknown as Record<string, unknown> | null,
      createdByUserId: actor.userId,
      createdAt: now,
    })
    await repo.touch(db, id, row.companyId, now)
    await this.changed(
      row,
      arrived.map((a) => a.userId),
    )
    return await this.moveView(actor, moveId)
  }

  /** The payment provider of the new agreement: the last one's if still active, else none (refused). */
  private async providerFor(companyId: string, lastProviderId: string): Promise<string> {
    const provider = await this.deps.providers.byId(lastProviderId)
    if (provider?.isActive && provider.companyId === companyId) return provider.id
    throw validation([{ path: 'arriving', message: m.moveNoProvider.id }])
  }

  /** Ends the leaving payer's agreement on the move date: terminated with a last payment when one is due and possible, paid-ahead days refunded. */
  private async endAgreement(actor: Actor, agreement: AgreementRow, settlement: MoveSettlement, moveDate: string) {
    const finalPaymentRequired = settlement.lastPayment !== null && settlement.lastPaymentPossible
    await this.deps.agreements.cancel(actor, agreement.id, { terminationDate: moveDate, finalPaymentRequired })
    const row = (await this.deps.agreements.rowOf(agreement.id))!
    // The credit note speaks the member's language, as the last payment's invoice does.
    const member = await this.deps.users.byId(row.memberUserId)
    const memberLocale = localeOf(member?.language ?? actor.language)
    for (const p of settlement.paidAhead)
      await this.deps.billing.issueRefund(
        row,
        {
          chargeId: p.chargeId,
          amount: p.amount,
          description: translate(memberLocale, /*i18n*/ { id: 'Moved out: {from}–{through}' }, { from: p.from, through: p.through }).slice(0, 45),
        },
        localeOf(actor.language),
      )
  }

  private async moveView(actor: Actor, moveId: string): Promise<Move> {
    const move = (await repo.move(this.deps.db, moveId))!
    return {
      id: move.id,
      householdId: move.householdId,
      moveDate: move.moveDate,
      endedAgreementId: move.endedAgreementId,
      newAgreementId: move.newAgreementId,
      settlement: (move.settlement as MoveSettlement | null) ?? null,
      household: await this.viewOf(actor, move.householdId),
    }
  }

  // ---- sync

  /** The households the actor sees (their associations' as staff, every one as the super admin, and those they live or lived in). */
  syncEntity(): SyncedEntity {
    const scope = (actor: Actor): string[] | 'all' => (isSuperAdmin(actor) ? 'all' : actor.companies.map((c) => c.id))
    const visible = async (actor: Actor, rows: HouseholdRow[]) => {
      const today = this.today()
      const residents = await repo.residentsOf(
        this.deps.db,
        rows.filter((r) => !isStaffOf(actor, r.companyId)).map((r) => r.id),
      )
      return rows.filter(
        (r) => isStaffOf(actor, r.companyId) || residents.some((x) => x.householdId === r.id && x.userId === actor.userId && livesThereOn(x, today)),
      )
    }
    const synced = async (actor: Actor, rows: HouseholdRow[]) =>
      (await this.views(actor, await visible(actor, rows))).map((h) => ({ id: h.id, version: h.version, data: h as unknown as Record<string, unknown> }))
    return {
      name: 'household',
      snapshot: async (db, actor, afterId, limit) => {
        const rows = await repo.syncPage(db, scope(actor), actor.userId, this.today(), afterId, limit)
        return (await this.views(actor, rows)).map((h) => ({ id: h.id, version: h.version, data: h as unknown as Record<string, unknown> }))
      },
      load: async (db, actor, ids) => await synced(actor, await repo.byIds(db, ids)),
    }
  }
}

export const createHouseholdsService = (deps: HouseholdsServiceDeps) => new HouseholdsService(deps)
