import { snapshot, type Db } from '../../db/client'
import { conflict, forbidden, notFound, ruleViolation, versionConflict } from '../../errors'
import { decodeCursor, encodeCursor } from '../../http/paging'
import { isoNow, todayInCopenhagen, type Clock } from '../../lib/clock'
import type {
  AccountPlanInput,
  AccountPlanView,
  ClosedMonth,
  ExportRequest,
  JournalExport,
  JournalPage,
  JournalQuery,
} from '../../../shared/contract/bookkeeping'
import {
  accountOf,
  contraOf,
  journalOf,
  monthHasEnded,
  planOf,
  signOfEvent,
  totalsOf,
  type AccountPlan,
  type JournalEntry,
  type VoucherLines,
} from '../../../shared/domain/bookkeeping'
import { isCompanyAdminStaff } from '../../../shared/domain/roles'
import { messages as m } from '../../../shared/i18n-messages'
import type { Actor } from '../../access/actor'
import { isSuperAdmin, roleIn } from '../../access/policy'
import type { CompaniesService } from '../companies'
import { bookkeepingRepository as repo, type ClosedMonthRow, type ExportRow } from './bookkeeping.repository'
import { journalFile } from './journal-file'
import { plansByMonth, type PlansByMonth } from './plans-by-month'

/** Vouchers per read while an export's file is written. */
const FILE_PAGE = 1000

const exportView = (r: ExportRow): JournalExport => ({
  id: r.id,
  companyId: r.company_id,
  from: r.from_date,
  to: r.to_date,
  format: r.format,
  onlyNew: r.only_new === true || Number(r.only_new) === 1,
  entries: Number(r.entries),
  exportedAt: r.exported_at,
  exportedByName: r.exported_by_name,
})

export interface BookkeepingServiceDeps {
  db: Db
  clock: Clock
  companies: CompaniesService
}

/**
 * Bookkeeping (docs/BOOKKEEPING.md, decision 0067): a company's account plan, the
 * journal of a period (paged, with the period's totals per account), its exports as CSV or xlsx
 * with marks of what was exported, and closing months. Company admin staff (chairman,
 * administrator, accountant) and the super admin; a board member gets 403 with the reason, anyone
 * else 404 for the company.
 */
export class BookkeepingService {
  constructor(private readonly deps: BookkeepingServiceDeps) {}

  private async staff(actor: Actor, companyId: string, write = false): Promise<void> {
    const { companies } = this.deps
    if (isSuperAdmin(actor)) {
      if (!(await companies.byId(companyId))) throw notFound(m.companyNotFound.id)
    } else {
      const role = roleIn(actor, companyId)
      if (!role) throw notFound(m.companyNotFound.id)
      // A board member knows the association: they hear why, not that it does not exist.
      if (!isCompanyAdminStaff(role)) throw forbidden(m.bookkeepingStaffOnly.id)
    }
    if (write) await companies.assertWritable(companyId)
  }

  private async storedPlan(companyId: string): Promise<AccountPlanView> {
    const row = await repo.plan(this.deps.db, companyId)
    return {
      companyId,
      plan: planOf(row ? JSON.parse(row.plan) : null),
      version: row?.version ?? 1,
      updatedAt: row?.updated_at ?? null,
      updatedByName: row?.updated_by_name ?? null,
    }
  }

  /**
   * The account plan of each month (decision 0079): the closed period's with the plan kept on its
   * close, the rest with `open`; `asOf` an export's time (only the closes made by then).
   */
  private async plans(companyId: string, open: AccountPlan, asOf?: string): Promise<PlansByMonth> {
    return plansByMonth(await repo.closedMonths(this.deps.db, companyId), open, asOf)
  }

  /**
   * The period's totals per account from its money per part type: one pass per piece of the
   * period with one plan (the whole period when no close falls in it).
   */
  private async periodTotals(plans: PlansByMonth, companyId: string, from: string, to: string) {
    const entries = []
    for (const piece of plans.pieces(from, to)) {
      const { plan } = piece
      for (const s of await repo.totals(this.deps.db, companyId, piece.from, piece.to))
        entries.push({
          ...accountOf(plan, s.event, s.type, s.vatRate),
          contraAccount: contraOf(plan, s.event),
          amount: signOfEvent(s.event) * s.amount,
        })
    }
    return totalsOf(entries)
  }

  /** Every entry of an export's file, a page of vouchers at a time. */
  private async fileEntries(plans: PlansByMonth, e: JournalExport, format: string): Promise<JournalEntry[]> {
    const { db } = this.deps
    const entries: JournalEntry[] = []
    let after: readonly [string, number, string] | undefined
    for (;;) {
      const page = await repo.page(
        db,
        { companyId: e.companyId, from: e.from, to: e.to, after, limit: FILE_PAGE },
        { exportId: e.id, onlyNew: e.onlyNew, exportedAt: e.exportedAt, format },
      )
      entries.push(...entriesOf(plans, page))
      if (page.length < FILE_PAGE) return entries
      const last = page.at(-1)!
      after = [last.date, last.number, last.event]
    }
  }

  async plan(actor: Actor, companyId: string): Promise<AccountPlanView> {
    await this.staff(actor, companyId)
    return await this.storedPlan(companyId)
  }

  /** Replaces the plan; `If-Match` (when sent) must name the current version (412 otherwise). */
  async savePlan(actor: Actor, companyId: string, input: AccountPlanInput, ifMatch: number | undefined): Promise<AccountPlanView> {
    await this.staff(actor, companyId, true)
    const current = await this.storedPlan(companyId)
    if (ifMatch !== undefined && ifMatch !== current.version) throw versionConflict(current)
    const plan = planOf(input)
    if (JSON.stringify(plan) === JSON.stringify(current.plan)) return current
    const saved = await repo.savePlan(
      this.deps.db,
      companyId,
      JSON.stringify(plan),
      current.version + 1,
      isoNow(this.deps.clock),
      actor.fullName,
      current.version,
    )
    if (!saved) throw versionConflict(await this.storedPlan(companyId))
    return await this.storedPlan(companyId)
  }

  /**
   * A page of the journal. The period's totals and counts (a pass over the whole period) come
   * only with the first page (no cursor); a later page is only its vouchers, so it costs the same
   * early or late in a year, and the client keeps the first page's totals.
   */
  async journal(actor: Actor, companyId: string, q: JournalQuery): Promise<JournalPage> {
    await this.staff(actor, companyId)
    const after = decodeCursor(q.cursor, ['string', 'number', 'string'])
    return await snapshot(this.deps.db, async () => {
      const plans = await this.plans(companyId, (await this.storedPlan(companyId)).plan)
      const page = await repo.page(this.deps.db, { companyId, from: q.from, to: q.to, after, limit: q.limit + 1 }, { onlyNew: q.onlyNew })
      const shown = page.slice(0, q.limit)
      const last = shown.at(-1)
      const first = q.cursor === undefined
      return {
        entries: entriesOf(plans, shown),
        nextCursor: page.length > q.limit && last ? encodeCursor([last.date, last.number, last.event]) : null,
        totals: first ? await this.periodTotals(plans, companyId, q.from, q.to) : null,
        ...(first ? await repo.counts(this.deps.db, companyId, q.from, q.to) : { vouchers: null, unexported: null, unexportedByFormat: null }),
      }
    })
  }

  async exports(actor: Actor, companyId: string): Promise<JournalExport[]> {
    await this.staff(actor, companyId)
    return (await repo.recentExports(this.deps.db, companyId, 20)).map(exportView)
  }

  /**
   * Records an export of the period: every event in it that no earlier export included is marked
   * as this one's (set-based, in the request's transaction), and the account plan it was made
   * with is kept on its row. The same `id` again answers the same export (a retry after a lost
   * answer, or the same request twice at once: the row is claimed first, so only one marks);
   * with another company, period or format it is 409 (another company's id is never shown).
   */
  async exportJournal(actor: Actor, companyId: string, input: ExportRequest): Promise<{ created: boolean; export: JournalExport }> {
    await this.staff(actor, companyId, true)
    const same = (e: JournalExport) =>
      e.companyId === companyId && e.from === input.from && e.to === input.to && e.format === input.format && e.onlyNew === input.onlyNew
    const existing = await repo.exportById(this.deps.db, input.id)
    if (existing) {
      const e = exportView(existing)
      if (!same(e)) throw conflict(m.bookkeepingExportExists.id)
      return { created: false, export: e }
    }
    const at = isoNow(this.deps.clock)
    const { plan } = await this.storedPlan(companyId)
    const row = [
      input.id,
      companyId,
      input.from,
      input.to,
      input.format,
      input.onlyNew ? 1 : 0,
      0,
      at,
      actor.userId,
      actor.fullName,
      JSON.stringify(plan),
    ] as const
    if (!(await repo.insertExport(this.deps.db, [...row]))) {
      const e = exportView((await repo.exportById(this.deps.db, input.id))!)
      if (!same(e)) throw conflict(m.bookkeepingExportExists.id)
      return { created: false, export: e }
    }
    await repo.setEntries(this.deps.db, input.id, await repo.markNew(this.deps.db, companyId, input.from, input.to, input.id, at, input.format))
    return { created: true, export: exportView((await repo.exportById(this.deps.db, input.id))!) }
  }

  /**
   * An export's file, written again from its marks and the account plans it was made with whenever
   * asked: the closed months' kept on their closes, the rest's kept on its row (decision 0079). The
   * same bytes every time, even after the plan changed or another month was closed.
   */
  async exportFile(actor: Actor, companyId: string, id: string): Promise<{ name: string; contentType: string; bytes: Uint8Array }> {
    await this.staff(actor, companyId)
    const row = await repo.exportById(this.deps.db, id)
    if (!row || row.company_id !== companyId) throw notFound(m.bookkeepingExportNotFound.id)
    const e = exportView(row)
    const entries = await snapshot(this.deps.db, async () => {
      const open = row.account_plan ? planOf(JSON.parse(row.account_plan)) : (await this.storedPlan(companyId)).plan
      return this.fileEntries(await this.plans(companyId, open, e.exportedAt), e, e.format)
    })
    return await journalFile(e, entries)
  }

  /** The closes, newest first: the first is the latest, and every month up to it is closed (decision 0079). */
  async closedMonths(actor: Actor, companyId: string): Promise<ClosedMonth[]> {
    await this.staff(actor, companyId)
    return (await repo.closedMonths(this.deps.db, companyId)).map(closedMonthView)
  }

  /**
   * Closes a month that has ended (422 otherwise), and with it every month before it, keeping the
   * account plan of today on the close (decision 0079). A month already in the closed period (it, or
   * a later month, is closed) is not closed again: the answer is the close that closed it (`created` false).
   */
  async closeMonth(actor: Actor, companyId: string, month: string): Promise<{ created: boolean; month: ClosedMonth }> {
    await this.staff(actor, companyId, true)
    if (!monthHasEnded(month, todayInCopenhagen(this.deps.clock))) throw ruleViolation(m.bookkeepingMonthNotEnded.id, 'month')
    const { plan } = await this.storedPlan(companyId)
    const { changes } = await repo.closeMonth(this.deps.db, companyId, month, isoNow(this.deps.clock), actor.userId, actor.fullName, JSON.stringify(plan))
    const closes = await repo.closedMonths(this.deps.db, companyId)
    const own = closes.find((r) => r.month === month)
    // Closed before by a later month: the first close of a month the same or later.
    const row = own ?? closes.filter((r) => r.month >= month).sort((a, b) => a.closed_at.localeCompare(b.closed_at) || a.month.localeCompare(b.month))[0]!
    return { created: changes === 1, month: closedMonthView(row) }
  }
}

const closedMonthView = (r: ClosedMonthRow): ClosedMonth => ({ month: r.month, closedAt: r.closed_at, closedByName: r.closed_by_name })

/** Journal entries of vouchers, each posted with the plan of its date's month. */
const entriesOf = (plans: PlansByMonth, vouchers: readonly VoucherLines[]): JournalEntry[] => vouchers.flatMap((v) => journalOf(plans.of(v.date), [v]))

export const createBookkeepingService = (deps: BookkeepingServiceDeps) => new BookkeepingService(deps)
