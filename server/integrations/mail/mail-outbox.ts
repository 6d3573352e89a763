import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { and, asc, eq, lte } from 'drizzle-orm'
import nodemailer, { type Transporter } from 'nodemailer'
import type { Logger } from 'pino'
import { alone, type Db } from '../../db/client'
import { mailOutbox } from '../../db/schema/platform'
import type { Clock } from '../../lib/clock'
import { newId } from '../../lib/ids'
import type { WriteLock } from '../../lib/write-lock'
import { nextAttemptAt } from '../../../shared/domain/backoff'

export interface OutgoingMail {
  to: string
  subject: string
  text: string
  html?: string
}

/** Queues an e-mail in the caller's transaction; it is sent after the change commits. */
export async function queueMail(db: Db, clock: Clock, mail: OutgoingMail): Promise<string> {
  const id = newId()
  const now = clock.now().toISOString()
  await db
    .insert(mailOutbox)
    .values({ id, ...mail, html: mail.html ?? null, nextAttemptAt: now, createdAt: now })
    .run()
  return id
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
 * Sends queued mail. Each row is sent at most once successfully; a failure is retried with
 * exponential backoff (1 min, 2 min, 4 min …) up to 8 attempts, then marked failed and logged.
 */
export class MailWorker {
  private timer: NodeJS.Timeout | undefined
  private running: Promise<number> | undefined

  constructor(private readonly deps: { db: Db; clock: Clock; lock: WriteLock; transport: MailTransport; from: string; log: Logger }) {}

  /**
   * Sends everything that is due now; resolves with the number sent. Concurrent calls share one
   * run, and only one instance of the server sends at a time (`alone`: 0 when another is sending).
   */
  runOnce(): Promise<number> {
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

  stop(): void {
    clearInterval(this.timer)
  }

  private async drain(): Promise<number> {
    const { db, clock, lock, transport, from, log } = this.deps
    const due = await db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.status, 'queued'), lte(mailOutbox.nextAttemptAt, clock.now().toISOString())))
      .orderBy(asc(mailOutbox.createdAt))
      .limit(50)
      .all()
    let sent = 0
    for (const mail of due) {
      try {
        await transport.send({ id: mail.id, from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html ?? undefined })
        await lock.run(
          async () =>
            await db
              .update(mailOutbox)
              .set({ status: 'sent', sentAt: clock.now().toISOString(), attempts: mail.attempts + 1 })
              .where(eq(mailOutbox.id, mail.id))
              .run(),
        )
        sent += 1
      } catch (err) {
        const attempts = mail.attempts + 1
        const failed = attempts >= MAX_ATTEMPTS
        const next = nextAttemptAt(clock.now(), attempts - 1, { baseMs: 60_000, maxMs: Infinity })
        log[failed ? 'error' : 'warn']({ err, mailId: mail.id, attempts }, 'mail delivery failed')
        await lock.run(
          async () =>
            await db
              .update(mailOutbox)
              .set({ status: failed ? 'failed' : 'queued', attempts, nextAttemptAt: next, lastError: String(err).slice(0, 500) })
              .where(eq(mailOutbox.id, mail.id))
              .run(),
        )
      }
    }
    return sent
  }
}
