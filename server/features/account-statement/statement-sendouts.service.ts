import { transaction, type Db } from '../../db/client'
import { DomainError, notFound } from '../../errors'
import { todayInCopenhagen, type Clock } from '../../lib/clock'
import { failedMails } from '../../integrations/mail/mail-outbox'
import { isErasedEmail } from '../../../shared/erased-person'
import { yearEnded } from '../../../shared/domain/account-statement'
import { newId } from '../../lib/ids'
import type { StatementSendout } from '../../../shared/contract/account-statement'
import { messages } from '../../../shared/i18n-messages'
import type { Actor } from '../../access/actor'
import { assertCompanyAdminStaff } from '../../access/policy'
import type { Notice, NoticesService } from '../notifications'
import { accountStatementRepository } from './account-statement.repository'
import { statementSendoutsRepository as repo, type StatementSendoutRow } from './statement-sendouts.repository'

/** How many queued sendouts one run of the job works on. */
const BATCH = 5
/** How many members one transaction tells (the write lock is held for one batch, not the whole association). */
const RECIPIENT_BATCH = 200
/** How many batches one run of the job sends at most (the rest on the next run, 2 seconds later). */
const BATCHES_PER_RUN = 20

/** A member's state in a sendout and its resends: reached by a mail not failed, or still on their way. */
interface Reach {
  reached: boolean
  pending: boolean
}
type RecipientRow = Awaited<ReturnType<typeof repo.recipientsOf>>[number]

/** Each member of a sendout (its own rows) with whether any mail of it or its resends reached them (decision 0081). */
export function reachOf(rows: readonly RecipientRow[], rootId: string, failed: ReadonlySet<string>): Map<string, Reach> {
  const reach = new Map<string, Reach>()
  for (const r of rows) if (r.sendoutId === rootId) reach.set(r.userId, { reached: false, pending: false })
  for (const r of rows) {
    const m = reach.get(r.userId)
    if (!m || (r.sendoutId !== rootId && r.resendOfId !== rootId)) continue
    if (!r.sentAt) m.pending = true
    else if (r.mailId && !failed.has(r.mailId)) m.reached = true
  }
  return reach
}

const view = (row: StatementSendoutRow, reach: Map<string, Reach>, resending: boolean): StatementSendout => ({
  id: row.id,
  year: row.year,
  kind: row.kind,
  through: row.through,
  status: row.sentAt ? 'SENT' : 'QUEUED',
  requestedBy: row.requestedByName,
  requestedAt: row.requestedAt,
  sentAt: row.sentAt,
  recipients: row.recipients,
  notReached: row.sentAt ? [...reach.values()].filter((m) => !m.reached && !m.pending).length : null,
  resending,
})

/** The link to the statement a sendout is about: the year, and an interim statement's last day. */
const statementUrl = (companyId: string, year: number, through: string | null) =>
  `/account-statement?year=${year}&companyId=${companyId}${through ? `&through=${through}` : ''}`

/** What each member is told: in the app and by e-mail, in their language, with a link to the year's printable statement (sign-in needed). */
export const yearlyStatementNotice = (association: string, companyId: string, year: number): Notice => ({
  type: 'info',
  title: /*i18n*/ { id: 'Your account statement for {year}' },
  message: /*i18n*/ {
    id: '{association} has sent you your account statement for {year}: every invoice, payment, refund and credit note of the year with your balance. You can print it or save it as a spreadsheet.',
  },
  values: { association, year: String(year) },
  actionUrl: statementUrl(companyId, year, null),
  actionText: /*i18n*/ { id: 'Open the account statement' },
})

/** An interim statement (decision 0081): marked as such in the subject and the text, up to its last day; the yearly statement follows. */
export const interimStatementNotice = (association: string, companyId: string, year: number, through: string): Notice => ({
  type: 'info',
  title: /*i18n*/ { id: 'Interim statement — 1 January to {through}' },
  message: /*i18n*/ {
    id: '{association} has sent you an interim account statement for 1 January to {through}: every invoice, payment, refund and credit note so far this year with your balance on that day. It is not the yearly statement, which follows when {year} has ended.',
  },
  values: { association, year: String(year), through: { day: through } },
  actionUrl: statementUrl(companyId, year, through),
  actionText: /*i18n*/ { id: 'Open the interim statement' },
})

const noticeOf = (association: string, s: StatementSendoutRow): Notice =>
  s.kind === 'INTERIM' && s.through ?
    interimStatementNotice(association, s.companyId, s.year, s.through)
  : yearlyStatementNotice(association, s.companyId, s.year)

/** An address mail can go to: not empty, not an erased account's. */
const mailable = (email: string | undefined): boolean => !!email && !isErasedEmail(email)

export interface StatementSendoutsServiceDeps {
  db: Db
  clock: Clock
  notices: Pick<NoticesService, 'tellManyMails'>
  batch?: { recipients?: number; perRun?: number }
}

/**
 * The account statements to all members (decisions 0068 and 0081). Company admin staff queue the
 * yearly statement of a year once it has ended, once (a unique key per company and year: a double
 * click, a retry or another instance queues nothing more); during the year an interim statement,
 * 1 January to today, at most one a day, which leaves the year's send unused. Either lists its
 * recipients in the same transaction; the `statements` job (server/main.ts) tells them in batches,
 * each batch claimed (`sent_at` per recipient, with the mail that told them) in the transaction that
 * writes its notifications and e-mails, so a crash half-way loses nobody and tells nobody twice.
 * A resend (to one member, or to those not reached) is a sendout of its own the job sends the same way.
 */
export class StatementSendoutsService {
  private readonly perBatch: number
  private readonly perRun: number

  constructor(private readonly deps: StatementSendoutsServiceDeps) {
    this.perBatch = deps.batch?.recipients ?? RECIPIENT_BATCH
    this.perRun = deps.batch?.perRun ?? BATCHES_PER_RUN
  }

  /** Tells the next batch of a sendout's recipients in one transaction: 'done' when nobody was left (the sendout is then marked sent). */
  private async deliverBatch(due: StatementSendoutRow, notice: Notice): Promise<'more' | 'done'> {
    const { db, clock, notices } = this.deps
    return await transaction(db, async () => {
      const now = clock.now().toISOString()
      const people = await repo.unsent(db, due.id, this.perBatch)
      if (!people.length) {
        await repo.finish(db, due.id, now, await repo.told(db, due.id))
        return 'done'
      }
      const claimed = new Set(
        await repo.claimRecipients(
          db,
          due.id,
          people.map((p) => p.id),
          now,
        ),
      )
      // A member without an address is claimed but not told: the sendout did not reach them (mail_id stays null).
      const mails = await notices.tellManyMails(
        people.filter((p) => claimed.has(p.id) && mailable(p.emailAddress)),
        notice,
      )
      await repo.setMails(db, due.id, mails)
      return 'more'
    })
  }

  private async assertCompany(actor: Actor, companyId: string): Promise<void> {
    assertCompanyAdminStaff(actor, companyId)
    if (!(await accountStatementRepository.company(this.deps.db, companyId))) throw notFound(messages.companyNotFound.id)
  }

  /** The company's sendouts, newest year first, each with whom it did not reach, resends counted (company admin staff). */
  async list(actor: Actor, companyId: string): Promise<StatementSendout[]> {
    const { db } = this.deps
    await this.assertCompany(actor, companyId)
    const rows = await repo.ofCompany(db, companyId)
    const roots = rows.filter((r) => !r.resendOfId)
    const recipients = await repo.recipientsOf(
      db,
      roots.map((r) => r.id),
    )
    const failed = await failedMails(
      db,
      recipients.flatMap((r) => (r.mailId ? [r.mailId] : [])),
    )
    return roots.map((root) =>
      view(
        root,
        reachOf(recipients, root.id, failed),
        rows.some((r) => r.resendOfId === root.id && !r.sentAt),
      ),
    )
  }

  /** Queues a sendout and lists its recipients (in the request's write transaction); false when its key holds one already. */
  private async queue(actor: Actor, companyId: string, year: number, through: string | null): Promise<StatementSendout | null> {
    const { db, clock } = this.deps
    const id = newId()
    const row = {
      id,
      companyId,
      year,
      kind: through ? ('INTERIM' as const) : ('YEARLY' as const),
      through,
      requestedByUserId: actor.userId,
      requestedByName: actor.fullName,
      requestedAt: clock.now().toISOString(),
    }
    if (!(await repo.queue(db, row))) return null
    await repo.listRecipients(db, id, companyId, year, through ?? `${year}-12-31`)
    return view((await repo.byId(db, id))!, new Map(), false)
  }

  private yearNotBegun(year: number): void {
    if (year > Number(todayInCopenhagen(this.deps.clock).slice(0, 4)))
      throw new DomainError('VALIDATION_FAILED', messages.statementsYearNotEnded.id, {
        issues: [{ path: 'year', message: messages.statementsYearNotEnded.id }],
      })
  }

  /** Queues the yearly statement of a year that has ended; 422 while it runs (offering the interim), 409 when it was queued or sent before. */
  async send(actor: Actor, companyId: string, year: number): Promise<StatementSendout> {
    await this.assertCompany(actor, companyId)
    this.yearNotBegun(year)
    if (!yearEnded(year, todayInCopenhagen(this.deps.clock)))
      throw new DomainError('BUSINESS_RULE', messages.statementsYearlyNotYet.id, { values: { year: String(year), next: String(year + 1) } })
    const queued = await this.queue(actor, companyId, year, null)
    if (!queued) throw new DomainError('CONFLICT', messages.statementsAlreadySent.id, { values: { year: String(year) } })
    return queued
  }

  /** Queues an interim statement of the running year, 1 January to today; 422 once the year has ended, 409 when one was sent today. */
  async sendInterim(actor: Actor, companyId: string, year: number): Promise<StatementSendout> {
    await this.assertCompany(actor, companyId)
    this.yearNotBegun(year)
    const today = todayInCopenhagen(this.deps.clock)
    if (yearEnded(year, today)) throw new DomainError('BUSINESS_RULE', messages.statementsInterimYearEnded.id, { values: { year: String(year) } })
    const queued = await this.queue(actor, companyId, year, today)
    if (!queued) throw new DomainError('CONFLICT', messages.statementsInterimAlreadySent.id, { values: { year: String(year) } })
    return queued
  }

  /**
   * Resends a sent statement (decision 0081): to one of its members (`userId`), or to those it did not
   * reach who have an address now. Nobody is listed twice while a resend to them is on its way, so
   * a double click sends nothing twice (a retry with the same Idempotency-Key is answered from its record).
   */
  async resend(actor: Actor, companyId: string, sendoutId: string, userId: string | undefined): Promise<StatementSendout> {
    const { db, clock } = this.deps
    await this.assertCompany(actor, companyId)
    const root = await repo.byId(db, sendoutId)
    if (!root || root.companyId !== companyId || root.resendOfId) throw notFound(messages.statementSendoutNotFound.id)
    if (!root.sentAt) throw new DomainError('CONFLICT', messages.statementsStillSending.id)
    const rows = await repo.recipientsOf(db, [root.id])
    const reach = reachOf(
      rows,
      root.id,
      await failedMails(
        db,
        rows.flatMap((r) => (r.mailId ? [r.mailId] : [])),
      ),
    )
    const addresses = await repo.addresses(db, userId ? [userId] : [...reach.keys()])
    let targets: string[]
    if (userId) {
      const member = reach.get(userId)
      if (!member) throw notFound(messages.statementMemberNotFound.id)
      if (member.pending) throw new DomainError('CONFLICT', messages.statementsResendPending.id)
      if (!mailable(addresses.get(userId))) throw new DomainError('BUSINESS_RULE', messages.statementsMemberNoAddress.id)
      targets = [userId]
    } else {
      targets = [...reach].filter(([id, m]) => !m.reached && !m.pending && mailable(addresses.get(id))).map(([id]) => id)
      if (!targets.length) throw new DomainError('CONFLICT', messages.statementsNobodyToResend.id)
    }
    const id = newId()
    await repo.queue(db, {
      ...root,
      id,
      resendOfId: root.id,
      resendToUserId: userId ?? null,
      requestedByUserId: actor.userId,
      requestedByName: actor.fullName,
      requestedAt: clock.now().toISOString(),
      sentAt: null,
      recipients: null,
    })
    await repo.addRecipients(db, id, targets)
    for (const t of targets) reach.get(t)!.pending = true
    return view(root, reach, true)
  }

  /**
   * The `statements` job: tells the recipients of queued sendouts, a batch per transaction (at
   * most `perRun` batches a run, the event loop free between them). Answers how many sendouts it finished.
   */
  async tick(): Promise<number> {
    const { db } = this.deps
    let finished = 0
    let batches = 0
    for (const due of await repo.queued(db, BATCH)) {
      const company = await accountStatementRepository.company(db, due.companyId)
      if (!company) continue
      const notice = noticeOf(company.name, due)
      while (batches < this.perRun) {
        batches += 1
        if ((await this.deliverBatch(due, notice)) === 'done') {
          finished += 1
          break
        }
        await new Promise((resolve) => setImmediate(resolve))
      }
      if (batches >= this.perRun) break
    }
    return finished
  }
}

export const createStatementSendoutsService = (deps: StatementSendoutsServiceDeps) => new StatementSendoutsService(deps)
