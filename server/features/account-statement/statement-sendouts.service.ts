import { transaction, type Db } from '../../db/client'
import { DomainError, notFound } from '../../errors'
import { todayInCopenhagen, type Clock } from '../../lib/clock'
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

const view = (row: StatementSendoutRow): StatementSendout => ({
  year: row.year,
  status: row.sentAt ? 'SENT' : 'QUEUED',
  requestedBy: row.requestedByName,
  requestedAt: row.requestedAt,
  sentAt: row.sentAt,
  recipients: row.recipients,
})

/** What each member is told: in the app and by e-mail, in their language, with a link to the year's printable statement (sign-in needed). */
export const yearlyStatementNotice = (association: string, companyId: string, year: number): Notice => ({
  type: 'info',
  title: /*i18n*/ { id: 'Your account statement for {year}' },
  message: /*i18n*/ {
    id: '{association} has sent you your account statement for {year}: every invoice, payment, refund and credit note of the year with your balance. You can print it or save it as a spreadsheet.',
  },
  values: { association, year: String(year) },
  actionUrl: `/account-statement?year=${year}&companyId=${companyId}`,
  actionText: /*i18n*/ { id: 'Open the account statement' },
})

export interface StatementSendoutsServiceDeps {
  db: Db
  clock: Clock
  notices: Pick<NoticesService, 'tellMany'>
  batch?: { recipients?: number; perRun?: number }
}

/**
 * The yearly account statements to all members (decision 0068). Company admin staff
 * queue a year once (a unique key per company and year: a double click, a retry or another
 * instance queues nothing more, and a second send of the same year is refused), which lists its
 * recipients in the same transaction; the `statements` job (server/main.ts) tells them in batches,
 * each batch claimed (`sent_at` per recipient) in the transaction that writes its notifications
 * and e-mails, so a crash half-way loses nobody and tells nobody twice: the next run goes on with
 * the rest. The sendout is marked sent once nobody is left.
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
      await notices.tellMany(
        people.filter((p) => claimed.has(p.id)),
        notice,
      )
      return 'more'
    })
  }

  /** The company's sendouts, newest year first (company admin staff). */
  async list(actor: Actor, companyId: string): Promise<StatementSendout[]> {
    const { db } = this.deps
    assertCompanyAdminStaff(actor, companyId)
    if (!(await accountStatementRepository.company(db, companyId))) throw notFound(messages.companyNotFound.id)
    return (await repo.ofCompany(db, companyId)).map(view)
  }

  /** Queues the year (in the request's write transaction); 409 when it was queued or sent before. */
  async send(actor: Actor, companyId: string, year: number): Promise<StatementSendout> {
    const { db, clock } = this.deps
    assertCompanyAdminStaff(actor, companyId)
    if (!(await accountStatementRepository.company(db, companyId))) throw notFound(messages.companyNotFound.id)
    if (year > Number(todayInCopenhagen(clock).slice(0, 4)))
      throw new DomainError('VALIDATION_FAILED', messages.statementsYearNotEnded.id, {
        issues: [{ path: 'year', message: messages.statementsYearNotEnded.id }],
      })
    const id = newId()
    const queued = await repo.queue(db, {
      id,
      companyId,
      year,
      requestedByUserId: actor.userId,
      requestedByName: actor.fullName,
      requestedAt: clock.now().toISOString(),
    })
    if (!queued) throw new DomainError('CONFLICT', messages.statementsAlreadySent.id, { values: { year: String(year) } })
    await repo.listRecipients(db, id, companyId, year)
    return view((await repo.byYear(db, companyId, year))!)
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
      const notice = yearlyStatementNotice(company.name, company.id, due.year)
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
