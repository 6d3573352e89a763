import { transaction, type Db } from '../../db/client'
import { conflict, forbidden, invalidState, notFound, ruleViolation, validation, versionConflict, type Issue } from '../../errors'
import type { Clock } from '../../lib/clock'
import { decodeCursor, pageOf } from '../../http/paging'
import { groupBy } from '../../lib/group-by'
import { newId } from '../../lib/ids'
import {
  type Assembly,
  type AssemblyListQuery,
  type CreateAssemblyRequest,
  type CreateProposalRequest,
  type Proposal,
  type UpdateAssemblyRequest,
  timingIssues,
} from '../../../shared/contract/assemblies'
import {
  copenhagenLocalToInstant,
  DEFAULT_REMINDER_DAYS,
  daysOfKey,
  nextReading,
  plannedSendouts,
  proposalsOpen,
  readingDueIn,
  yearOfReadingKey,
  type ReadingKind,
} from '../../../shared/domain/assembly'
import { messages as m } from '../../../shared/i18n-messages'
import type { Actor } from '../../access/actor'
import { isSuperAdmin, mayManageAssemblies, roleIn, seesAllOfAssemblies } from '../../access/policy'
import { assertCompanyInScope } from '../companies'
import type { CompaniesService } from '../companies'
import type { Addressee, NoticesService } from '../notifications'
import { recordChange } from '../sync'
import type { SyncedEntity } from '../sync'
import { assemblyDetails, assemblyNotice, readingNotice } from './assembly-email'
import {
  assembliesRepository as repo,
  type AssemblyRow,
  type AssemblyScope,
  type ProposalRow,
  type ProposalScope,
  type SendoutRow,
} from './assemblies.repository'

/**
 * Who belongs to an association (the agreements module's residency, the same "all members" a
 * message reaches), so the sendouts reach exactly who a message to all members reaches.
 */
export interface Membership {
  /** The company's staff and its residents with a living agreement, each once, in one statement. */
  members(companyId: string): Promise<Addressee[]>
  isResident(userId: string, companyId: string): Promise<boolean>
  /** The companies the actor is staff or a resident of. */
  memberCompanyIds(actor: Actor): Promise<string[]>
}

export interface AssembliesDeps {
  db: Db
  clock: Clock
  companies: CompaniesService
  notices: NoticesService
  membership: Membership
}

/** A notice time this far in the past still counts as "now" (a form holds whole minutes). */
const NOTICE_GRACE_MS = 60_000
/** How often the job makes sure every active company has its next reading reminders (the send checks them again). */
export const READING_CHECK_MS = 10 * 60_000
/** A reading reminder later than this is dropped instead of sent. */
const READING_LATE_MS = 24 * 3_600_000
/** Sendouts delivered per job turn. */
const DUE_BATCH = 50

const noticeSentAt = (sendouts: readonly SendoutRow[]) => sendouts.find((s) => s.kind === 'ASSEMBLY_NOTICE')?.sentAt ?? null

const proposalView = (row: ProposalRow): Proposal => ({
  id: row.id,
  assemblyId: row.assemblyId,
  companyId: row.companyId,
  authorUserId: row.authorUserId,
  authorName: row.authorName,
  title: row.title,
  body: row.body,
  status: row.status,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
  version: row.version,
})

const instant = (local: string) => copenhagenLocalToInstant(local)!

/**
 * General assemblies (docs/PRODUCT.md "General assembly", docs/decisions/0061): company
 * admin staff call one (date, place, agenda, deadline for proposals, when the notice goes out and
 * the reminders before the meeting), members submit proposals before the deadline, and the job
 * sends the notice and the reminders — and the water and heat reading reminders — to every member,
 * in-app and by e-mail in their own language.
 */
export class AssembliesService {
  private readingsCheckedAt: number | undefined

  constructor(private readonly deps: AssembliesDeps) {}

  private now() {
    return this.deps.clock.now().toISOString()
  }

  private async scopeOf(actor: Actor): Promise<AssemblyScope> {
    return {
      staffOf: isSuperAdmin(actor) ? 'all' : actor.companies.map((c) => c.id),
      memberOf: await this.deps.membership.memberCompanyIds(actor),
    }
  }

  private async proposalScopeOf(actor: Actor): Promise<ProposalScope> {
    return { ...(await this.scopeOf(actor)), userId: actor.userId, now: this.now() }
  }

  /** The assemblies as `actor` sees them: company names and sendouts in one statement each for the whole set. */
  private async views(actor: Actor | null, rows: AssemblyRow[]): Promise<Assembly[]> {
    if (!rows.length) return []
    const names = await repo.companyNames(this.deps.db, [...new Set(rows.map((r) => r.companyId))])
    const sendoutsOf = groupBy(
      await repo.sendoutsOf(
        this.deps.db,
        rows.map((r) => r.id),
      ),
      (s) => s.assemblyId ?? '',
    )
    return rows.map((row) => {
      const sendouts = sendoutsOf.get(row.id) ?? []
      const staff = actor === null || seesAllOfAssemblies(actor, row.companyId)
      return {
        id: row.id,
        companyId: row.companyId,
        companyName: names.get(row.companyId) ?? '',
        title: row.title,
        heldAt: row.heldAt,
        place: row.place,
        agenda: row.agenda,
        proposalDeadline: row.proposalDeadline,
        noticeAt: row.noticeAt,
        reminderDays: row.reminderDays,
        status: row.status,
        sendouts: sendouts.map((s) => ({
          kind: s.kind as 'ASSEMBLY_NOTICE' | 'ASSEMBLY_REMINDER',
          days: daysOfKey(s.key),
          dueAt: s.dueAt,
          sentAt: s.sentAt,
          recipients: staff ? s.recipients : null,
        })),
        noticeSentAt: noticeSentAt(sendouts),
        createdAt: row.createdAt,
        updatedAt: row.updatedAt,
        version: row.version,
      }
    })
  }

  private async viewOf(actor: Actor | null, row: AssemblyRow): Promise<Assembly> {
    return (await this.views(actor, [row]))[0]!
  }

  /** The assembly if the actor may see it; 404 otherwise (another association's is never revealed). */
  private async readable(actor: Actor, id: string): Promise<AssemblyRow> {
    const row = await repo.byId(this.deps.db, id)
    if (!row || !(await repo.visible(this.deps.db, await this.scopeOf(actor), id))) throw notFound(m.assemblyNotFound.id)
    return row
  }

  /** A planned assembly the actor may change, at the version they saw (If-Match → 412). */
  private async manageable(actor: Actor, id: string, version: number | undefined): Promise<AssemblyRow> {
    const row = await this.readable(actor, id)
    if (!mayManageAssemblies(actor, row.companyId)) throw forbidden()
    if (version !== undefined && version !== row.version) throw versionConflict(await this.viewOf(actor, row))
    if (row.status !== 'PLANNED') throw invalidState(m.assemblyNotPlanned.id)
    await this.deps.companies.assertWritable(row.companyId)
    return row
  }

  /** 404 for a company the actor has nothing to do with; 403 for its members who may not call a meeting. */
  private async assertMayCreate(actor: Actor, companyId: string): Promise<void> {
    if (mayManageAssemblies(actor, companyId)) return
    if (roleIn(actor, companyId) || (await this.deps.membership.isResident(actor.userId, companyId))) throw forbidden()
    throw notFound()
  }

  /** When the notice goes out: the time chosen (not in the past), or now. */
  private noticeInstant(local: string | null | undefined): string {
    if (!local) return this.now()
    const at = instant(local)
    if (new Date(at).getTime() < this.deps.clock.now().getTime() - NOTICE_GRACE_MS) throw validation([{ path: 'noticeAt', message: m.assemblyNoticeInPast.id }])
    return at
  }

  /**
   * The times in order (`timingIssues`, the same rule the form shows) and a new meeting time or
   * deadline ahead of the clock; `checkNotice` false for a notice already out or going out at once.
   */
  private assertTiming(
    a: { heldAt: string; proposalDeadline: string; noticeAt: string },
    checkNotice: boolean,
    changed: { heldAt: boolean; proposalDeadline: boolean },
  ) {
    const at = this.now()
    const issues: Issue[] = []
    if (changed.heldAt && a.heldAt <= at) issues.push({ path: 'heldAt', message: m.assemblyMeetingInPast.id })
    const order = timingIssues(checkNotice ? a : { ...a, noticeAt: null })
    const deadline = order.find((i) => i.path === 'proposalDeadline')
    if (deadline) issues.push(deadline)
    else if (changed.proposalDeadline && a.proposalDeadline <= at) issues.push({ path: 'proposalDeadline', message: m.assemblyDeadlineInPast.id })
    issues.push(...order.filter((i) => i.path === 'noticeAt'))
    if (issues.length) throw validation(issues)
  }

  /**
   * Makes the unsent sendouts follow the assembly: the notice at its time, a reminder for each
   * number of days that still lies ahead and after the notice; unsent ones no longer wanted are
   * removed, sent ones stay as they are.
   */
  private async scheduleSendouts(row: AssemblyRow): Promise<void> {
    const at = this.now()
    const plan = plannedSendouts(row, at)
    const existing = await repo.sendoutsOf(this.deps.db, [row.id])
    const byKey = new Map(existing.map((s) => [s.key, s]))
    const wanted = new Set(plan.map((p) => p.key))
    await repo.deleteUnsent(
      this.deps.db,
      existing.filter((s) => !s.sentAt && !wanted.has(s.key)).map((s) => s.id),
    )
    const fresh = []
    for (const p of plan) {
      const current = byKey.get(p.key)
      if (!current) fresh.push({ id: newId(), companyId: row.companyId, kind: p.kind, assemblyId: row.id, key: p.key, dueAt: p.dueAt, createdAt: at })
      else if (!current.sentAt && current.dueAt !== p.dueAt) await repo.retime(this.deps.db, current.id, p.dueAt)
    }
    await repo.insertSendouts(this.deps.db, fresh)
  }

  /**
   * The change log for an assembly: its company's staff always; once its notice is out, its
   * residents too (one row for the company's members, decision 0073). The first change after the
   * deadline for proposals also hands the members the submitted proposals (`before`: the row before
   * it) — a withdrawn one they never see (the pull reads each proposal through its own visibility).
   * Cost: one row per change, and at the deadline once one per submitted proposal.
   */
  private async changed(row: AssemblyRow, before?: AssemblyRow): Promise<void> {
    const sent = noticeSentAt(await repo.sendoutsOf(this.deps.db, [row.id])) !== null
    await recordChange(this.deps.db, this.deps.clock, 'assembly', row.id, 'upsert', { companyId: row.companyId, ...(sent && { members: true as const }) })
    if (!sent) return
    const deadlineJustPassed = row.proposalDeadline <= this.now() && (before === undefined || before.updatedAt < row.proposalDeadline)
    if (!before || !deadlineJustPassed) return
    for (const proposal of await repo.submitted(this.deps.db, row.id))
      await recordChange(this.deps.db, this.deps.clock, 'proposal', proposal.id, 'upsert', { companyId: row.companyId, members: true })
  }

  private async proposalChanged(row: ProposalRow): Promise<void> {
    await recordChange(this.deps.db, this.deps.clock, 'proposal', row.id, 'upsert', { companyId: row.companyId })
    if (row.authorUserId) await recordChange(this.deps.db, this.deps.clock, 'proposal', row.id, 'upsert', { userId: row.authorUserId })
  }

  // ---- the job

  /** Every active company with a heating-and-water period has its next start and end reminder (one statement each way). */
  private async ensureReadings(at: Date): Promise<number> {
    const rows = []
    for (const c of await repo.readingCompanies(this.deps.db)) {
      for (const [kind, day] of [
        ['READING_START', c.start],
        ['READING_END', c.end],
      ] as const) {
        const next = day ? nextReading(kind, day, at) : undefined
        if (next) rows.push({ id: newId(), companyId: c.id, kind, assemblyId: null, key: next.key, dueAt: next.dueAt, createdAt: at.toISOString() })
      }
    }
    await repo.upsertReadings(this.deps.db, rows)
    return rows.length
  }

  /**
   * Delivers one due sendout inside the caller's transaction. The conditional claim makes it go
   * out once even with several instances; one whose occasion is gone (a company no longer active,
   * a reading day moved, an assembly no longer planned) is removed instead.
   */
  private async deliver(due: SendoutRow): Promise<boolean> {
    const at = this.now()
    if (!(await repo.claim(this.deps.db, due.id, at))) return false
    const company = await repo.company(this.deps.db, due.companyId)
    if (due.kind === 'ASSEMBLY_NOTICE' || due.kind === 'ASSEMBLY_REMINDER') {
      const assembly = due.assemblyId ? await repo.byId(this.deps.db, due.assemblyId) : undefined
      // Nothing goes out for an assembly cancelled, held or already begun (a job that was down for long).
      if (!assembly || !company || assembly.status !== 'PLANNED' || assembly.heldAt <= at) {
        await repo.deleteSendout(this.deps.db, due.id)
        return false
      }
      const notice = due.kind === 'ASSEMBLY_NOTICE'
      const told = await this.deps.notices.tellMany(
        await this.deps.membership.members(assembly.companyId),
        assemblyNotice(notice ? 'notice' : 'reminder', assembly, company.name, notice ? null : daysOfKey(due.key)),
        (locale) => assemblyDetails(locale, assembly, true),
      )
      await repo.setRecipients(this.deps.db, due.id, told)
      await this.changed(assembly)
      return true
    }
    const kind = due.kind as ReadingKind
    const year = yearOfReadingKey(due.key)
    const day = kind === 'READING_START' ? company?.start : company?.end
    // A reading reminder more than a day late (the job was down) is no longer worth sending.
    const stale = new Date(at).getTime() - new Date(due.dueAt).getTime() > READING_LATE_MS
    if (!company || company.status !== 'ACTIVE' || !day || year === undefined || readingDueIn(day, year) !== due.dueAt || stale) {
      await repo.deleteSendout(this.deps.db, due.id)
      return false
    }
    await repo.setRecipients(
      this.deps.db,
      due.id,
      await this.deps.notices.tellMany(await this.deps.membership.members(company.id), readingNotice(kind, company.name)),
    )
    return true
  }

  async view(actor: Actor, id: string): Promise<Assembly> {
    return await this.viewOf(actor, await this.readable(actor, id))
  }

  /** The association an assembly belongs to (a document filed under it must be of the same one). */
  async companyOf(id: string): Promise<string | undefined> {
    return (await repo.byId(this.deps.db, id))?.companyId
  }

  /**
   * A page of the assemblies the actor sees, latest meeting first by (heldAt, id) (docs/API.md
   * "Lists"); `companyId` of a company the caller has nothing to do with is 404, with or without a
   * cursor, which only says where to start.
   */
  async list(actor: Actor, query: AssemblyListQuery): Promise<{ items: Assembly[]; next: string | null }> {
    const after = decodeCursor(query.cursor, ['string', 'string'])
    if (query.companyId)
      await assertCompanyInScope(this.deps.db, actor, query.companyId, async () => await this.deps.membership.isResident(actor.userId, query.companyId!))
    const rows = await repo.listPage(this.deps.db, await this.scopeOf(actor), query.companyId, after, query.limit + 1)
    const page = pageOf(rows, query.limit, (r) => [r.heldAt, r.id])
    return { items: await this.views(actor, page.rows), next: page.next }
  }

  async create(actor: Actor, input: CreateAssemblyRequest): Promise<Assembly> {
    if (input.id) {
      const existing = await repo.byId(this.deps.db, input.id)
      if (existing) {
        // A row the caller may not read is as absent as any other (never "it exists"); a replay
        // too is answered only while the caller still reads it.
        if (!(await repo.visible(this.deps.db, await this.scopeOf(actor), existing.id))) throw notFound(m.assemblyNotFound.id)
        // The same create sent again (a retry from the outbox) answers the stored one.
        if (existing.createdByUserId === actor.userId && existing.companyId === input.companyId && existing.title === input.title.trim())
          return await this.viewOf(actor, existing)
        throw conflict(m.billingRecordExists.id, 'id')
      }
    }
    await this.assertMayCreate(actor, input.companyId)
    await this.deps.companies.assertWritable(input.companyId)
    const times = { heldAt: instant(input.heldAt), proposalDeadline: instant(input.proposalDeadline), noticeAt: this.noticeInstant(input.noticeAt) }
    this.assertTiming(times, !!input.noticeAt, { heldAt: true, proposalDeadline: true })
    const at = this.now()
    const id = input.id ?? newId()
    await repo.insert(this.deps.db, {
      id,
      companyId: input.companyId,
      title: input.title,
      place: input.place,
      agenda: input.agenda,
      reminderDays: input.reminderDays ?? [...DEFAULT_REMINDER_DAYS],
      ...times,
      createdByUserId: actor.userId,
      createdAt: at,
      updatedAt: at,
    })
    const row = (await repo.byId(this.deps.db, id))!
    await this.scheduleSendouts(row)
    await this.changed(row)
    return await this.viewOf(actor, row)
  }

  async update(actor: Actor, id: string, input: UpdateAssemblyRequest, version?: number): Promise<Assembly> {
    const row = await this.manageable(actor, id, version)
    const noticeOut = noticeSentAt(await repo.sendoutsOf(this.deps.db, [id])) !== null
    let noticeAt = row.noticeAt
    if (input.noticeAt !== undefined) {
      const wanted = input.noticeAt === null ? null : instant(input.noticeAt)
      if (noticeOut) {
        if (wanted !== row.noticeAt) throw ruleViolation(m.assemblyNoticeAlreadySent.id, 'noticeAt')
      } else noticeAt = this.noticeInstant(input.noticeAt)
    }
    const times = {
      heldAt: input.heldAt !== undefined ? instant(input.heldAt) : row.heldAt,
      proposalDeadline: input.proposalDeadline !== undefined ? instant(input.proposalDeadline) : row.proposalDeadline,
      noticeAt,
    }
    // Once the deadline has passed, members have read the proposals (the job handed them out):
    // a later deadline would take them back and reopen submitting, so it stays where it is.
    if (times.proposalDeadline !== row.proposalDeadline && row.proposalDeadline <= this.now())
      throw ruleViolation(m.assemblyDeadlineFixed.id, 'proposalDeadline')
    this.assertTiming(times, !noticeOut && input.noticeAt !== null, {
      heldAt: times.heldAt !== row.heldAt,
      proposalDeadline: times.proposalDeadline !== row.proposalDeadline,
    })
    await repo.update(this.deps.db, id, {
      ...times,
      ...(input.title !== undefined ? { title: input.title } : {}),
      ...(input.place !== undefined ? { place: input.place } : {}),
      ...(input.agenda !== undefined ? { agenda: input.agenda } : {}),
      ...(input.reminderDays !== undefined ? { reminderDays: input.reminderDays } : {}),
      updatedAt: this.now(),
    })
    const after = (await repo.byId(this.deps.db, id))!
    await this.scheduleSendouts(after)
    await this.changed(after, row)
    return await this.viewOf(actor, after)
  }

  /** Cancels a planned assembly: what has not gone out is removed; members who had the notice are told. */
  async cancel(actor: Actor, id: string, version?: number): Promise<Assembly> {
    const row = await this.manageable(actor, id, version)
    const noticeOut = noticeSentAt(await repo.sendoutsOf(this.deps.db, [id])) !== null
    await repo.deleteUnsentOf(this.deps.db, id)
    await repo.update(this.deps.db, id, { status: 'CANCELLED', updatedAt: this.now() })
    const after = (await repo.byId(this.deps.db, id))!
    if (noticeOut) {
      const company = await repo.company(this.deps.db, row.companyId)
      await this.deps.notices.tellMany(
        await this.deps.membership.members(row.companyId),
        assemblyNotice('cancelled', row, company?.name ?? '', null),
        (locale) => assemblyDetails(locale, row, false),
      )
    }
    await this.changed(after, row)
    return await this.viewOf(actor, after)
  }

  /** Marks a planned assembly held, once its time has come; nothing more goes out for it. */
  async markHeld(actor: Actor, id: string, version?: number): Promise<Assembly> {
    const row = await this.manageable(actor, id, version)
    if (row.heldAt > this.now()) throw ruleViolation(m.assemblyNotYetHeld.id)
    await repo.deleteUnsentOf(this.deps.db, id)
    await repo.update(this.deps.db, id, { status: 'HELD', updatedAt: this.now() })
    const after = (await repo.byId(this.deps.db, id))!
    await this.changed(after, row)
    return await this.viewOf(actor, after)
  }

  // ---- proposals

  async proposals(actor: Actor, assemblyId: string): Promise<Proposal[]> {
    await this.readable(actor, assemblyId)
    return (await repo.proposalsOf(this.deps.db, await this.proposalScopeOf(actor), assemblyId)).map(proposalView)
  }

  /** Throws 403 unless the actor is a member of the association (its staff or a resident): who proposes (the route's `act` too). */
  async assertMayPropose(actor: Actor, companyId: string): Promise<void> {
    const member = roleIn(actor, companyId) !== undefined || (await this.deps.membership.isResident(actor.userId, companyId))
    if (!member) throw forbidden(m.proposalMembersOnly.id)
  }

  /** A member (resident or staff of the association) proposes something before the deadline. */
  async submitProposal(actor: Actor, assemblyId: string, input: CreateProposalRequest): Promise<Proposal> {
    const assembly = await this.readable(actor, assemblyId)
    if (input.id) {
      const existing = await repo.proposalById(this.deps.db, input.id)
      if (existing) {
        // As for an assembly: a proposal the caller may not read is not found (another member's
        // before the deadline, another association's), and a replay is re-checked.
        const [seen] = await repo.proposalsByIds(this.deps.db, await this.proposalScopeOf(actor), [existing.id])
        if (!seen) throw notFound(m.proposalNotFound.id)
        if (seen.authorUserId === actor.userId && seen.assemblyId === assemblyId && seen.title === input.title.trim()) return proposalView(seen)
        throw conflict(m.billingRecordExists.id, 'id')
      }
    }
    await this.assertMayPropose(actor, assembly.companyId)
    if (assembly.status !== 'PLANNED') throw ruleViolation(m.proposalAssemblyClosed.id)
    if (!proposalsOpen(assembly, this.now())) throw ruleViolation(m.proposalDeadlinePassed.id)
    await this.deps.companies.assertWritable(assembly.companyId)
    const at = this.now()
    const id = input.id ?? newId()
    await repo.insertProposal(this.deps.db, {
      id,
      assemblyId,
      companyId: assembly.companyId,
      authorUserId: actor.userId,
      authorName: actor.fullName,
      title: input.title,
      body: input.body,
      createdAt: at,
      updatedAt: at,
    })
    const row = (await repo.proposalById(this.deps.db, id))!
    await this.proposalChanged(row)
    return proposalView(row)
  }

  /** The author takes their proposal back before the deadline (repeating it changes nothing). */
  async withdrawProposal(actor: Actor, assemblyId: string, proposalId: string, version?: number): Promise<Proposal> {
    const assembly = await this.readable(actor, assemblyId)
    const [row] = await repo.proposalsByIds(this.deps.db, await this.proposalScopeOf(actor), [proposalId])
    if (!row || row.assemblyId !== assembly.id) throw notFound(m.proposalNotFound.id)
    if (row.authorUserId !== actor.userId) throw forbidden()
    if (version !== undefined && version !== row.version) throw versionConflict(proposalView(row))
    if (row.status === 'WITHDRAWN') return proposalView(row)
    if (assembly.status !== 'PLANNED') throw ruleViolation(m.proposalAssemblyClosed.id)
    if (!proposalsOpen(assembly, this.now())) throw ruleViolation(m.proposalDeadlinePassed.id)
    await repo.updateProposal(this.deps.db, proposalId, { status: 'WITHDRAWN', updatedAt: this.now() })
    const after = (await repo.proposalById(this.deps.db, proposalId))!
    await this.proposalChanged(after)
    return proposalView(after)
  }

  // ---- the job

  /**
   * The `assemblies` job (server/main.ts): makes sure every active company has its next reading
   * reminders (every 10 minutes), sends every due sendout (each in its own transaction, claimed
   * there, so it goes out once), and hands members the proposals of assemblies whose deadline
   * just passed. Safe at any time and on several instances.
   */
  async tick(): Promise<{ readings: number; sent: number; published: number }> {
    const at = this.deps.clock.now()
    let readings = 0
    if (this.readingsCheckedAt === undefined || at.getTime() - this.readingsCheckedAt >= READING_CHECK_MS || at.getTime() < this.readingsCheckedAt) {
      readings = await transaction(this.deps.db, () => this.ensureReadings(at))
      this.readingsCheckedAt = at.getTime()
    }
    let sent = 0
    for (const due of await repo.due(this.deps.db, at.toISOString(), DUE_BATCH)) if (await transaction(this.deps.db, () => this.deliver(due))) sent += 1
    let published = 0
    for (const row of await repo.deadlinePassed(this.deps.db, at.toISOString())) {
      await transaction(this.deps.db, async () => {
        await repo.update(this.deps.db, row.id, { updatedAt: this.now() }, false)
        await this.changed((await repo.byId(this.deps.db, row.id))!, row)
      })
      published += 1
    }
    return { readings, sent, published }
  }

  /** The rows as the sync sends them to this actor (a page's views in a constant number of statements). */
  async syncPage(actor: Actor, afterId: string | null, limit: number) {
    return await this.views(actor, await repo.page(this.deps.db, await this.scopeOf(actor), afterId, limit))
  }

  async syncLoad(actor: Actor, ids: string[]) {
    return await this.views(actor, await repo.byIds(this.deps.db, await this.scopeOf(actor), ids))
  }

  async syncProposalPage(actor: Actor, afterId: string | null, limit: number) {
    return (await repo.proposalPage(this.deps.db, await this.proposalScopeOf(actor), afterId, limit)).map(proposalView)
  }

  async syncProposalLoad(actor: Actor, ids: string[]) {
    return (await repo.proposalsByIds(this.deps.db, await this.proposalScopeOf(actor), ids)).map(proposalView)
  }
}

export const createAssembliesService = (deps: AssembliesDeps) => new AssembliesService(deps)

const synced = (row: { id: string; version: number }) => ({ id: row.id, version: row.version, data: row as unknown as Record<string, unknown> })

/** Assemblies in the offline store: staff's of their companies, members' once the notice went out; `load` checks again (a row left out is a delete). */
export const assemblySync = (assemblies: Pick<AssembliesService, 'syncPage' | 'syncLoad'>): SyncedEntity => ({
  name: 'assembly',
  snapshot: async (_db, actor, afterId, limit) => (await assemblies.syncPage(actor, afterId, limit)).map(synced),
  load: async (_db, actor, ids) => (await assemblies.syncLoad(actor, ids)).map(synced),
})

/** Proposals in the offline store: staff's all, the author's own, members' every submitted one after the deadline. */
export const proposalSync = (assemblies: Pick<AssembliesService, 'syncProposalPage' | 'syncProposalLoad'>): SyncedEntity => ({
  name: 'proposal',
  snapshot: async (_db, actor, afterId, limit) => (await assemblies.syncProposalPage(actor, afterId, limit)).map(synced),
  load: async (_db, actor, ids) => (await assemblies.syncProposalLoad(actor, ids)).map(synced),
})
