import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { and, asc, eq, inArray, lte } from 'drizzle-orm'
import nodemailer, { type Transporter } from 'nodemailer'
import type { Logger } from 'pino'
import { alone, type Db } from '../../db/client'
import { mailOutbox } from '../../db/schema/platform'
import type { Clock } from '../../lib/clock'
import { newId } from '../../lib/ids'
import type { WriteLock } from '../../lib/write-lock'
import { nextAttemptAt } from '../../../shared/domain/backoff'
import { DEFAULT_CLAIM_LEASE_MS } from '../../env'
import { isErasedEmail } from '../../../shared/erased-person'

export interface OutgoingMail {
  to: string
  subject: string
  text: string
  html?: string
}

/** Queues an e-mail in the caller's transaction; it is sent after the change commits. */
export async function queueMail(db: Db, clock: Clock, mail: OutgoingMail): Promise<string> {
  const id = newId()
  // An erased account's placeholder address (decision 0069) is never mailed.
  if (isErasedEmail(mail.to)) return id
  const now = clock.now().toISOString()
  await db
    .insert(mailOutbox)
    .values({ id, ...mail, html: mail.html ?? null, nextAttemptAt: now, createdAt: now })
    .run()
  return id
}

/** Queues many e-mails in the caller's transaction, in few statements (a sendout to every member). */
export async function queueMails(db: Db, clock: Clock, mails: readonly OutgoingMail[]): Promise<string[]> {
  const now = clock.now().toISOString()
  const rows = mails
    .filter((mail) => !isErasedEmail(mail.to))
    .map((mail) => ({ id: newId(), ...mail, html: mail.html ?? null, nextAttemptAt: now, createdAt: now }))
  for (let i = 0; i < rows.length; i += 100)
    await db
      .insert(mailOutbox)
      .values(rows.slice(i, i + 100))
      .run()
  return rows.map((r) => r.id)
}

/**
 * Which of these mails the worker gave up on (`failed` after its last attempt): a sendout's
 * members not reached (decision 0081). A few hundred ids a statement.
 */
export async function failedMails(db: Db, ids: readonly string[]): Promise<Set<string>> {
  const failed = new Set<string>()
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(and(inArray(mailOutbox.id, ids.slice(i, i + 500)), eq(mailOutbox.status, 'failed')))
      .all()
    for (const r of rows) failed.add(r.id)
  }
  return failed
}

export interface MailTransport {
  send(mail: OutgoingMail & { from: string; id: string }): Promise<void>
}

/** SMTP through nodemailer when SMTP_URL is set. */
export function smtpTransport(url: string): MailTransport {
  const transporter: Transporter = nodemailer.createTransport(url)
  return {
    async send(mail) {
      await transporter.sendMail({
        from: mail.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        messageId: `<${mail.id}@boligkasse>`,
      })
    },
  }
}

/** Without SMTP, every mail becomes an .eml file (RFC 822, built by nodemailer) in a folder. */
export function emlFileTransport(dir: string): MailTransport {
  const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' })
  return {
    async send(mail) {
      mkdirSync(dir, { recursive: true })
      const info = await transporter.sendMail({
        from: mail.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        messageId: `<${mail.id}@boligkasse>`,
      })
      writeFileSync(join(dir, `${mail.id}.eml`), info.message as Buffer)
    },
  }
}

const MAX_ATTEMPTS = 8

/**
 * Sends queued mail. Each attempt claims its row first (`claimMail`), so two instances never send
 * the same mail at once; a sender that dies mid-way leaves its mail to be sent again when the
 * claim's lease runs out (SMTP has no idempotency: at worst a mail arrives twice, never not at
 * all). A failure is retried with exponential backoff (1 min, 2 min, 4 min …) up to 8 attempts,
 * then marked failed and logged.
 */
export class MailWorker {
  private timer: NodeJS.Timeout | undefined
  private running: Promise<number> | undefined
  private stopped = false

  constructor(
    private readonly deps: {
      db: Db
      clock: Clock
      lock: WriteLock
      transport: MailTransport
      from: string
      log: Logger
      /** How long a claimed mail is this sender's before another may send it (CLAIM_LEASE_SECONDS). */
      leaseMs?: number
    },
  ) {}

  /**
   * Sends everything that is due now; resolves with the number sent. Concurrent calls share one
   * run, and only one instance of the server sends at a time (`alone`: 0 when another is sending).
   */
  runOnce(): Promise<number> {
    if (this.stopped) return this.running ?? Promise.resolve(0)
    this.running ??= this.drainAlone().finally(() => (this.running = undefined))
    return this.running
  }

  private async drainAlone(): Promise<number> {
    let sent = 0
    await alone(this.deps.db, 'job:mail', async () => (sent = await this.drain()))
    return sent
  }

  start(intervalMs = 5000): void {
    this.timer = setInterval(() => void this.runOnce(), intervalMs)
    this.timer.unref()
  }

  /**
   * Sends nothing more: the mail being sent is finished and settled, the rest stays queued for the
   * next start or another instance (docs/decisions/0078). Resolves when the run under way has ended.
   */
  stop(): Promise<void> {
    this.stopped = true
    clearInterval(this.timer)
    return (this.running ?? Promise.resolve(0)).then(
      () => undefined,
      () => undefined,
    )
  }

  private async drain(): Promise<number> {
    const { db, clock, lock, transport, from, log } = this.deps
    const due = await db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.status, 'queued'), lte(mailOutbox.nextAttemptAt, clock.now().toISOString())))
      .orderBy(asc(mailOutbox.createdAt), asc(mailOutbox.id))
      .limit(50)
      .all()
    let sent = 0
    for (const row of due) {
      // Stopping: the mail sent last is settled; the others are not claimed, so they stay queued.
      if (this.stopped) break
      const mail = await lock.run(() => claimMail(db, row, new Date(clock.now().getTime() + (this.deps.leaseMs ?? DEFAULT_CLAIM_LEASE_MS)).toISOString()))
      if (!mail) continue
      let outcome: Partial<MailRow>
      try {
        await transport.send({ id: mail.id, from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html ?? undefined })
        outcome = { status: 'sent', sentAt: clock.now().toISOString(), lastError: null }
        sent += 1
      } catch (err) {
        const failed = mail.attempts >= MAX_ATTEMPTS
        log[failed ? 'error' : 'warn']({ err, mailId: mail.id, attempts: mail.attempts }, 'mail delivery failed')
        const next = nextAttemptAt(clock.now(), mail.attempts - 1, { baseMs: 60_000, maxMs: Infinity })
        outcome = { status: failed ? 'failed' : 'queued', nextAttemptAt: next, lastError: String(err).slice(0, 500) }
      }
      if (!(await lock.run(() => settleMail(db, mail, outcome)))) log.warn({ mailId: mail.id }, 'mail row was taken over by another sender')
    }
    return sent
  }
}

type MailRow = typeof mailOutbox.$inferSelect

/** The rows as a sender claimed them: queued, with the attempts it read. */
const claimedAs = (row: MailRow) => and(eq(mailOutbox.id, row.id), eq(mailOutbox.status, 'queued'), eq(mailOutbox.attempts, row.attempts))

/**
 * Takes a due mail for one attempt: counts it and puts the next turn `until` (the lease), if it is
 * still queued with the attempts it was read with; undefined when another sender has it.
 */
export async function claimMail(db: Db, row: MailRow, until: string): Promise<MailRow | undefined> {
  const claimed = { attempts: row.attempts + 1, nextAttemptAt: until }
  const { changes } = await db.update(mailOutbox).set(claimed).where(claimedAs(row)).run()
  return changes === 1 ? { ...row, ...claimed } : undefined
}

/** Records a claimed attempt's outcome if the claim still holds; false when another sender took the mail over. */
export async function settleMail(db: Db, claimed: MailRow, outcome: Partial<MailRow>): Promise<boolean> {
  return (await db.update(mailOutbox).set(outcome).where(claimedAs(claimed)).run()).changes === 1
}
