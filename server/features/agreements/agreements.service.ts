import { snapshot, transaction, type Db } from '../../db/client'
import { conflict, DomainError, forbidden, invalidState, notFound, validation, versionConflict, type Issue } from '../../errors'
import { todayInCopenhagen, type Clock } from '../../lib/clock'
import { newId } from '../../lib/ids'
import type { WriteLock } from '../../lib/write-lock'
import { translate } from '../../i18n/i18n'
import { decodeCursor, pageOf } from '../../http/paging'
import { VippsRejected } from '../../integrations/vipps/vipps.errors'
import { vippsKeys } from '../../integrations/vipps/idempotency-key'
import type {
  Agreement,
  AgreementListQuery,
  CancelAgreementRequest,
  Charge,
  CreateAgreementRequest,
  UpdateAgreementRequest,
} from '../../../shared/contract/agreements'
import { localeOf } from '../../../shared/contract/common'
import type { PageQuery } from '../../../shared/contract/paging'
import { initialsOf, priceOfParts } from '../../../shared/domain/agreement-parts'
import { lastPaymentOf, terminationProblem } from '../../../shared/domain/termination'
import { nextPaymentDateProblem, startPaymentDateProblem } from '../../../shared/domain/agreement-dates'
import { canEdit } from '../../../shared/domain/agreement-status'
import { messages } from '../../../shared/i18n-messages'
import type { Actor } from '../../access/actor'
import { assertAgreementAdmin, canReadAgreement, isSuperAdmin } from '../../access/policy'
import { assertCompanyInScope } from '../companies'
import type { AuthService } from '../auth'
import type { ChargesService } from '../billing'
import type { CompaniesService } from '../companies'
import type { NoticesService } from '../notifications'
import type { ProvidersService } from '../payment-providers'
import { recordChange } from '../sync'
import type { SyncedEntity } from '../sync'
import type { UsersService } from '../users'
import { createAgreementLifecycle, notAllowed, transition } from './agreements.lifecycle'
import { createAgreementNotices } from './agreements.notices'
import { agreementsRepository as repo, type AgreementRow, type AgreementScope } from './agreements.repository'
import { agreementPage, agreementSyncPage } from './agreements.reads'
import { createAgreementViews } from './agreements.views'

export type AgreementsService = ReturnType<typeof createAgreementsService>

/**
 * Agreements (docs/PRODUCT.md §2–§7, docs/decisions/0024-agreements.md): staff create, edit and terminate them; the member accepts
 * (through Vipps MobilePay) or rejects. Every change is logged for sync in its transaction, with
 * the company's staff and the member as its audience. Vipps is called outside the write lock:
 * accepting calls it directly (the member waits for the confirmation URL); stopping, price
 * updates and final charges go through the provider outbox, sent by a job with the row id as
 * Idempotency-Key (server/jobs/provider-outbox.ts). Vipps' state comes back through webhooks and
 * a poll (vipps-observer.ts), and only moves an agreement forward (shared/domain/agreement-status.ts).
 * Charges are the billing feature's (charges.service.ts). The views, the notices and the life at
 * Vipps are modules of their own (agreements.views.ts, agreements.notices.ts, agreements.lifecycle.ts).
 */
export function createAgreementsService(deps: {
  db: Db
  clock: Clock
  lock: WriteLock
  publicUrl: string
  companies: CompaniesService
  providers: ProvidersService
  auth: AuthService
  users: UsersService
  charges: ChargesService
  notices: NoticesService
}) {
  const { db, clock, lock, companies, providers, auth, users, charges } = deps
  const nowIso = () => clock.now().toISOString()
  const { view, viewsOf, scheduleOf } = createAgreementViews(deps)
  const notices = createAgreementNotices(deps)
  const lifecycle = createAgreementLifecycle({ ...deps, notices })
  const { changed, enqueue, draftFor } = lifecycle

  // ---- access

  /** The agreement if the actor may read it (staff of its company, its member, the super admin); 404 otherwise. */
  async function visible(actor: Actor, id: string): Promise<AgreementRow> {
    const row = await repo.byId(db, id)
    if (!row || !canReadAgreement(actor, row)) throw notFound(messages.agreementNotFound.id)
    return row
  }

  /** An agreement the actor may change as staff, of a company whose data may change. */
  async function manageable(actor: Actor, id: string): Promise<AgreementRow> {
    const row = await visible(actor, id)
    assertAgreementAdmin(actor, row.companyId, { ownAgreement: row.memberUserId === actor.userId })
    await companies.assertWritable(row.companyId)
    return row
  }

  /** Only the member answers their agreement (docs/PRODUCT.md §6: accept or reject is the user role's). */
  async function asMember(actor: Actor, id: string): Promise<AgreementRow> {
    const row = await visible(actor, id)
    if (row.memberUserId !== actor.userId) throw forbidden(messages.agreementMemberOnly.id)
    return row
  }

  /** Scope of the agreements (and their charges) the actor sees. */
  const scopeOf = (actor: Actor): AgreementScope => (isSuperAdmin(actor) ? 'all' : { companyIds: actor.companies.map((c) => c.id), memberUserId: actor.userId })

  const service = {
    view,
    viewsOf,
    scopeOf,
    rowOf: async (id: string) => await repo.byId(db, id),
    ...lifecycle,

    /** The overdue steps (billing): the agreement is flagged for debt collection. */
    async flagDebtCollection(row: AgreementRow) {
      await repo.update(db, row.id, { debtCollectionSince: nowIso(), version: row.version + 1, updatedAt: nowIso() })
      await changed(row)
    },

    /** For the companies feature: agreement counts and addresses in use. */
    agreementsCount: (companyId: string) => repo.countOfCompany(db, companyId),
    addressInUse: (addressId: string) => repo.addressInUse(db, addressId),

    /**
     * Staff (and the super admin) of a company see its agreements; everyone sees their own.
     * `companyId` narrows the list; a company where the caller is not staff gives only their own,
     * and one they have nothing to do with (or that does not exist) answers 404 (decision 0033).
     */
    async list(actor: Actor, query: AgreementListQuery): Promise<{ items: Agreement[]; next: string | null }> {
      // Keyset paging (docs/API.md "Lists"): one statement for the page, a constant number for its views.
      const after = decodeCursor(query.cursor, ['string', 'number', 'string'])
      if (query.companyId !== undefined) await assertCompanyInScope(db, actor, query.companyId)
      // One read transaction: the rows and their members, parts and charges from the same snapshot.
      return snapshot(db, async () => {
        const rows = await agreementPage(db, scopeOf(actor), {
          companyId: query.companyId,
          status: query.status,
          search: query.search,
          after,
          limit: query.limit + 1,
        })
        const page = pageOf(rows, query.limit, (r) => [r.companyId, r.externalSeq, r.id])
        return { items: await viewsOf(page.rows), next: page.next }
      })
    },

    get: async (actor: Actor, id: string): Promise<Agreement> => await view(await visible(actor, id)),

    /** A page of the agreement's charges by due date (docs/API.md "Lists"): one statement for the rows, two for their views. */
    async charges(actor: Actor, id: string, query: PageQuery): Promise<{ items: Charge[]; next: string | null }> {
      const after = decodeCursor(query.cursor, ['string', 'string', 'string'])
      return await snapshot(db, async () => {
        const row = await visible(actor, id)
        const page = pageOf(await charges.pageOf(row.id, after, query.limit + 1), query.limit, (c) => [c.due, c.createdAt, c.id])
        return { items: await charges.views(page.rows), next: page.next }
      })
    },

    /** Creates an agreement in CREATED; the member (found or invited by e-mail) is asked to accept it. */
    async create(actor: Actor, input: CreateAgreementRequest): Promise<Agreement> {
      assertAgreementAdmin(actor, input.companyId)
      const company = await companies.byId(input.companyId)
      if (!company) throw notFound(messages.companyNotFound.id)
      await companies.assertWritable(input.companyId)
      const price = priceOfParts(input.parts)
      const addressIds = [...new Set(input.linkedAddress)]
      if (input.id) {
        const existing = await repo.byId(db, input.id)
        if (existing) {
          // A retried offline create: the same agreement answers as before; other data is a conflict.
          const member = await repo.member(db, existing.memberUserId)
          const same =
            existing.companyId === input.companyId &&
            existing.paymentProviderId === input.paymentProviderId &&
            existing.startPaymentDate === input.startPaymentDate &&
            existing.paymentPeriod === input.paymentPeriod &&
            existing.priceOre === price &&
            member?.emailAddress === input.emailAddress &&
            (await repo.addressIds(db, existing.id)).join() === addressIds.join()
          if (same && canReadAgreement(actor, existing)) return await view(existing)
          throw conflict(messages.agreementExists.id)
        }
      }
      const issues: Issue[] = []
      // Today or later, at most 5 years ahead (decision 0034): billing never catches up a backdated start.
      const startProblem = startPaymentDateProblem(input.startPaymentDate, todayInCopenhagen(clock))
      if (startProblem) issues.push(startProblem)
      const provider = await providers.byId(input.paymentProviderId)
      if (!provider || provider.companyId !== input.companyId) issues.push({ path: 'paymentProviderId', message: messages.paymentProviderRequired.id })
      else if (!provider.isActive) issues.push({ path: 'paymentProviderId', message: messages.providerInactive.id })
      const ofCompany = new Set(await repo.companyAddressIds(db, input.companyId, addressIds))
      input.linkedAddress.forEach((a, i) => {
        if (!ofCompany.has(a)) issues.push({ path: `linkedAddress.${i}`, message: messages.addressNotOfCompany.id })
      })
      if (issues.length) throw validation(issues)

      const now = nowIso()
      let member = await users.byEmail(input.emailAddress)
      const invite = !member
      // Privacy between associations (decisions 0033 and 0037): someone the caller does not know (not staff
      // of the caller's companies, no agreement here yet) keeps their own data, and the answer is
      // made of what the caller typed, exactly as for a new user.
      const outsider =
        member !== undefined &&
        !isSuperAdmin(actor) &&
        !(await users.isStaffOfAny(
          member.id,
          actor.companies.map((c) => c.id),
        )) &&
        !(await users.hasAgreementWith(member.id, input.companyId))
      if (!member) {
        await users.insert({
          id: newId(),
          fullName: input.memberName,
          emailAddress: input.emailAddress,
          // The resident's language is unknown: the staff member's is the best guess; they can change it.
          language: actor.language,
          systemRole: 'USER',
          currentCompanyId: null,
          createdAt: now,
          updatedAt: now,
        })
        member = (await users.byEmail(input.emailAddress))!
      }
      const id = input.id ?? newId()
      await repo.insert(db, {
        id,
        companyId: input.companyId,
        externalSeq: await repo.nextSeq(db, input.companyId),
        memberUserId: member.id,
        paymentProviderId: input.paymentProviderId,
        status: 'CREATED',
        priceOre: price,
        paymentPeriod: input.paymentPeriod,
        startPaymentDate: input.startPaymentDate,
        nextRegularPaymentDate: input.startPaymentDate,
        createdByUserId: actor.userId,
        createdAt: now,
        updatedAt: now,
      })
      await repo.replaceParts(db, id, partsOf(input.parts))
      await repo.linkAddresses(db, id, addressIds)
      const row = (await repo.byId(db, id))!
      await changed(row)
      // The company's agreement count changed.
      await recordChange(db, clock, 'company', input.companyId, 'upsert', { companyId: input.companyId })
      if (invite) await auth.invite(member.id, { companyName: company.name, inviterName: actor.fullName })
      await notices.memberAwaiting(row)
      const created = await view(row)
      if (!outsider) return created
      return {
        ...created,
        member: {
          userId: created.member.userId,
          title: initialsOf(input.memberName),
          fullName: input.memberName,
          emailAddress: input.emailAddress,
          isVerified: false,
        },
      }
    },

    /** Next payment date, period and parts (docs/PRODUCT.md §2 edit). A new price of an ACCEPTED agreement is sent to Vipps. */
    async update(actor: Actor, id: string, input: UpdateAgreementRequest, ifMatch?: number): Promise<Agreement> {
      const row = await manageable(actor, id)
      if (ifMatch !== undefined && ifMatch !== row.version) throw versionConflict(await view(row))
      if (row.terminationDate) throw invalidState(messages.agreementTerminating.id)
      if (!canEdit(row)) throw notAllowed(row)
      if (input.nextRegularPaymentDate !== undefined) {
        const problem = nextPaymentDateProblem(input.nextRegularPaymentDate, row.nextRegularPaymentDate, todayInCopenhagen(clock))
        if (problem) throw validation([problem])
      }
      const price = input.parts ? priceOfParts(input.parts) : row.priceOre
      if (input.parts) await repo.replaceParts(db, id, partsOf(input.parts))
      await repo.update(db, id, {
        ...(input.nextRegularPaymentDate !== undefined && { nextRegularPaymentDate: input.nextRegularPaymentDate }),
        ...(input.paymentPeriod !== undefined && { paymentPeriod: input.paymentPeriod }),
        priceOre: price,
        version: row.version + 1,
        updatedAt: nowIso(),
      })
      if (row.status === 'ACCEPTED' && row.vippsAgreementId && price !== row.priceOre) await enqueue(row, 'UPDATE_AGREEMENT', { pricing: { amount: price } })
      await changed(row)
      return await view((await repo.byId(db, id))!)
    },

    /**
     * The member accepts: the Vipps agreement is created (outside the write lock; the
     * Idempotency-Key is the agreement id and version, so a retry after a lost answer gets the
     * same Vipps agreement), then the agreement moves to PENDING. Accepting again while PENDING
     * answers the same confirmation URL. If Vipps cannot be reached nothing changes (503).
     */
    async accept(actor: Actor, id: string): Promise<{ confirmationUrl: string }> {
      const prep = await lock.run(async () => {
        const row = await asMember(actor, id)
        if (row.status === 'PENDING' && row.vippsConfirmationUrl) return { ready: row.vippsConfirmationUrl }
        transition(row, 'accept')
        await companies.assertWritable(row.companyId)
        const provider = await providers.byId(row.paymentProviderId)
        if (!provider?.isActive) throw invalidState(messages.providerInactive.id)
        return { row, provider, draft: await draftFor(row) }
      })
      if (prep.ready !== undefined) return { confirmationUrl: prep.ready }
      const { row, provider, draft } = prep
      let created: { agreementId: string; vippsConfirmationUrl: string }
      try {
        created = await providers.vippsClient(provider).createAgreement(draft, vippsKeys.agreementDraft(row.id, row.version))
      } catch (err) {
        // The error mapper writes the cause to the system log with the request id.
        if (err instanceof VippsRejected) throw new DomainError('BUSINESS_RULE', messages.providerRefused.id, { values: { detail: err.message }, cause: err })
        throw new DomainError('PROVIDER_UNAVAILABLE', messages.providerUnavailable.id, { cause: err })
      }
      return lock.run(() =>
        transaction(db, async () => {
          const current = (await repo.byId(db, id))!
          if (current.status === 'PENDING' && current.vippsConfirmationUrl) return { confirmationUrl: current.vippsConfirmationUrl }
          const to = transition(current, 'accept')
          await repo.update(db, id, {
            status: to,
            vippsAgreementId: created.agreementId,
            vippsConfirmationUrl: created.vippsConfirmationUrl,
            pendingSince: nowIso(),
            version: current.version + 1,
            updatedAt: nowIso(),
          })
          await changed(current)
          return { confirmationUrl: created.vippsConfirmationUrl }
        }),
      )
    },

    async reject(actor: Actor, id: string): Promise<Agreement> {
      // Its own transaction too: the GET form is not wrapped in one by the HTTP layer.
      return await transaction(db, async () => {
        const row = await asMember(actor, id)
        await repo.update(db, id, { status: transition(row, 'reject'), version: row.version + 1, updatedAt: nowIso() })
        await changed(row)
        await notices.staff(row, 'REJECTED')
        return await view((await repo.byId(db, id))!)
      })
    },

    /**
     * Termination (docs/PRODUCT.md §2/§4): sets the termination date. Without a final payment the agreement
     * is CANCELED at once and stopped at Vipps; with one, a FINAL charge is due 3 days before the
     * termination date and the agreement is stopped and CANCELED once that charge settles.
     */
    async cancel(actor: Actor, id: string, input: CancelAgreementRequest): Promise<Agreement> {
      const row = await manageable(actor, id)
      if (row.terminationDate) throw invalidState(messages.agreementTerminating.id)
      const to = transition(row, 'terminate')
      // The same rules as the terminate dialog (shared), so an offline termination fails only when the server's state differs.
      const problem = terminationProblem(input, todayInCopenhagen(clock), row.status, scheduleOf(row))
      if (problem?.message === messages.finalPaymentNeedsAccepted.id) throw invalidState(problem.message)
      if (problem) throw validation([problem])
      const now = nowIso()
      if (input.finalPaymentRequired) {
        // Agreements brought over without a Vipps agreement cannot be charged a last time.
        if (!row.vippsAgreementId) throw invalidState(messages.finalPaymentNeedsAccepted.id)
        // It takes the place of the last period's regular charge (docs/decisions/0035-the-last-payment-of-a-termination-charges-each-day-once.md):
        // billing makes no regular charge for the days it covers.
        const last = lastPaymentOf(scheduleOf(row), input.terminationDate)!
        const member = (await repo.member(db, row.memberUserId))!
        await charges.create(row, {
          kind: 'FINAL',
          type: 'RECURRING',
          amountOre: last.amount,
          description: translate(
            localeOf(member.language),
            /*i18n*/ { id: 'Last payment {externalId}: {from}–{through}' },
            { externalId: String(row.externalSeq), from: last.from, through: last.through },
          ).slice(0, 45),
          due: last.due,
          now,
        })
        await repo.update(db, id, { terminationDate: input.terminationDate, finalPaymentRequired: true, version: row.version + 1, updatedAt: now })
      } else {
        if (row.vippsAgreementId && (row.status === 'ACCEPTED' || row.status === 'PENDING')) await enqueue(row, 'STOP_AGREEMENT', {})
        await repo.update(db, id, { status: to, terminationDate: input.terminationDate, finalPaymentRequired: false, version: row.version + 1, updatedAt: now })
      }
      await changed(row)
      return await view((await repo.byId(db, id))!)
    },
  }
  return service

  function partsOf(parts: CreateAgreementRequest['parts']) {
    const seen = new Set<string>()
    return parts.map((p, position) => {
      // The client's part id is kept; a missing or repeated one gets a server id.
      const id = p.id && !seen.has(p.id) ? p.id : newId()
      seen.add(id)
      return { id, position, type: p.type, description: p.description, priceOre: p.price, vatRate: p.vatRate }
    })
  }
}

// ---- sync ----------------------------------------------------------------------------------

/** Agreements in the offline store: staff get their companies', a member their own (docs/API.md "Sync"); each page's views set-based. */
export const agreementSync = (agreements: AgreementsService): SyncedEntity => {
  const synced = async (db: Db, rows: AgreementRow[]) => {
    const views = await agreements.viewsOf(rows, db)
    return rows.map((r, i) => ({ id: r.id, version: r.version, data: views[i] as unknown as Record<string, unknown> }))
  }
  return {
    name: 'agreement',
    snapshot: async (db, actor, afterId, limit) => await synced(db, await agreementSyncPage(db, agreements.scopeOf(actor), afterId, limit)),
    load: async (db, actor, ids) =>
      await synced(
        db,
        (await repo.byIds(db, ids)).filter((r) => canReadAgreement(actor, r)),
      ),
  }
}
