import { transaction, type Db } from '../../db/client'
import { DomainError, notFound } from '../../errors'
import { todayInCopenhagen, type Clock } from '../../lib/clock'
import { translate, type Locale } from '../../i18n/i18n'
import { renderEmail } from '../../integrations/mail/layout'
import { queueMails, type OutgoingMail } from '../../integrations/mail/mail-outbox'
import { RateLimiter } from '../../http/rate-limit'
import { decodeCursor, pageOf } from '../../http/paging'
import { localeOf } from '../../../shared/contract/common'
import { isErasedEmail } from '../../../shared/erased-person'
import { messages } from '../../../shared/i18n-messages'
import type {
  InvitationPerson,
  InvitationProgress,
  InvitationSettings,
  InviteResult,
  MailBounceEvent as MailBounceEventType,
} from '../../../shared/contract/invitations'
import { MailBounceEvent } from '../../../shared/contract/invitations'
import type { Actor } from '../../access/actor'
import { assertCompanyAdminStaff, assertCompanyVisible } from '../../access/policy'
import type { AuthService } from '../auth'
import { invitationsRepository as repo, type DueSend, type OpenAgreement, type PersonRow } from './invitations.repository'
import { verifyBounce, type SignedHeaders } from './bounce-signature'

const DAY = 24 * 60 * 60 * 1000
/** How many sends one transaction claims and mails (the write lock is held for one batch). */
const BATCH = 200
/** How many batches one run of the job sends at most (the rest 2 seconds later). */
const BATCHES_PER_RUN = 10
/** Reminder rounds are planned at most this often (each round is once whatever the timing: its key). */
const PLAN_EVERY_MS = 60_000

export const DEFAULT_SETTINGS: InvitationSettings = { remindersOn: true, remindAfterDays: 7, maxReminders: 2 }

export interface InvitationsServiceDeps {
  db: Db
  clock: Clock
  publicUrl: string
  auth: Pick<AuthService, 'invitationLinks'>
  /** MAIL_WEBHOOK_SECRET: the shared secret of the mail provider's bounce notices; unset: none are taken. */
  webhookSecret: string | undefined
  batch?: { size?: number; perRun?: number }
  limits?: { invites?: RateLimiter; badNotices?: RateLimiter }
}

const personView = (r: PersonRow): InvitationPerson => ({
  userId: r.userId,
  name: r.name,
  email: r.email,
  signedIn: Number(r.signedIn) === 1,
  toAccept: Number(r.toAccept),
  hasAgreement: Number(r.hasAgreement) === 1,
  accepted: Number(r.accepted) === 1,
  bounced: Number(r.bounced) === 1,
  lastSentAt: r.lastSentAt,
  reminders: Number(r.reminders),
  queued: Number(r.queued) === 1,
})

/** What one person is sent in a round: the sign-in link when they have not signed in, their agreements to accept. */
interface MailInput {
  send: DueSend
  company: string
  agreements: OpenAgreement[]
  link: string | undefined
}

/**
 * Invitations at scale (docs/PRODUCT.md "Invitations", docs/decisions/0091). Company admin staff
 * queue an invitation for everyone in the association who has never signed in — those with an
 * agreement and the households' current residents (docs/decisions/0090) — or a selection of them,
 * in one statement; the `invitations` job sends them in batches, each
 * claimed in the transaction that queues its mails, and plans the reminder rounds the association
 * set. A bounced address gets nothing more. Staff of the association read the progress.
 */
export class InvitationsService {
  private readonly size: number
  private readonly perRun: number
  private readonly invites: RateLimiter
  private readonly badNotices: RateLimiter
  private plannedAt = -Infinity

  constructor(private readonly deps: InvitationsServiceDeps) {
    this.size = deps.batch?.size ?? BATCH
    this.perRun = deps.batch?.perRun ?? BATCHES_PER_RUN
    // "Invite all" is set-based and idempotent; the limit only stops a script hammering it.
    this.invites = deps.limits?.invites ?? new RateLimiter(deps.clock, 30, 60 * 60 * 1000)
    this.badNotices = deps.limits?.badNotices ?? new RateLimiter(deps.clock, 30, 60 * 1000)
  }

  private async company(companyId: string): Promise<string> {
    const name = (await repo.companyNames(this.deps.db, [companyId])).get(companyId)
    if (name === undefined) throw notFound(messages.companyNotFound.id)
    return name
  }

  /**
   * Queues one invitation for each person asked for (everyone, or `selection`) who has an agreement
   * here or lives in one of its households today, has never signed in, has an address that did not bounce and was not invited before: one
   * statement for any number of people, and each person once however often it is asked.
   */
  async invite(actor: Actor, companyId: string, selection: readonly string[] | undefined): Promise<InviteResult> {
    const { db, clock } = this.deps
    assertCompanyAdminStaff(actor, companyId)
    await this.company(companyId)
    this.invites.hit(`company:${companyId}`)
    const unique = selection ? [...new Set(selection)] : undefined
    const today = todayInCopenhagen(clock)
    const invitable = await repo.countInvitable(db, companyId, today, unique)
    const queued = await repo.queueInvitations(db, companyId, today, unique, clock.now().toISOString(), actor.fullName)
    return { queued, alreadyInvited: invitable - queued }
  }

  /** The counts and a page of those not done yet, by name (staff of the association, every role). */
  async progress(actor: Actor, companyId: string, query: { limit: number; cursor?: string | undefined }): Promise<InvitationProgress> {
    const { db } = this.deps
    assertCompanyVisible(actor, companyId)
    await this.company(companyId)
    const after = decodeCursor(query.cursor, ['string', 'string'])
    const today = todayInCopenhagen(this.deps.clock)
    const rows = await repo.people(db, companyId, today, after && { name: after[0], id: after[1] }, query.limit + 1)
    const page = pageOf(rows, query.limit, (r) => [r.name, r.userId])
    return {
      ...(await repo.counts(db, companyId, today)),
      settings: await this.settingsOf(companyId),
      people: page.rows.map(personView),
      nextCursor: page.next,
    }
  }

  private async settingsOf(companyId: string): Promise<InvitationSettings> {
    const row = await repo.settings(this.deps.db, companyId)
    return row ? { remindersOn: row.remindersOn, remindAfterDays: row.remindAfterDays, maxReminders: row.maxReminders } : DEFAULT_SETTINGS
  }

  /** Sets the association's reminder rules (company admin staff); the next planning uses them. */
  async saveSettings(actor: Actor, companyId: string, settings: InvitationSettings): Promise<InvitationSettings> {
    assertCompanyAdminStaff(actor, companyId)
    await this.company(companyId)
    await repo.saveSettings(this.deps.db, { companyId, ...settings, updatedAt: this.deps.clock.now().toISOString() })
    return settings
  }

  /**
   * A bounce notice of the mail provider: signed with MAIL_WEBHOOK_SECRET (404 when none is set, 401
   * when the signature, or its time, does not hold; 429 after 30 bad notices a minute from one
   * address). A hard bounce or a complaint stops further invitations and reminders to the address;
   * a soft bounce is acknowledged only. Answers whether it was recorded; a repeat changes nothing.
   */
  async receiveBounce(headers: SignedHeaders, body: string, clientIp: string): Promise<{ recorded: boolean }> {
    const { webhookSecret, clock } = this.deps
    if (!webhookSecret) throw notFound(messages.mailWebhookOff.id)
    if (!verifyBounce(webhookSecret, headers, body, clock.now())) {
      this.badNotices.hit(`ip:${clientIp}`)
      throw new DomainError('UNAUTHENTICATED', messages.mailWebhookUnsigned.id)
    }
    let json: unknown
    try {
      json = JSON.parse(body)
    } catch {
      throw new DomainError('VALIDATION_FAILED', messages.malformedJson.id)
    }
    const parsed = MailBounceEvent.safeParse(json)
    if (!parsed.success)
      throw new DomainError('VALIDATION_FAILED', messages.validationFailed.id, {
        issues: parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
      })
    return await this.recordBounce(parsed.data)
  }

  /** Records a hard bounce or a complaint of an address (lower-cased, as users' addresses are stored). */
  async recordBounce(event: MailBounceEventType): Promise<{ recorded: boolean }> {
    if (event.type === 'bounce' && event.bounceType !== 'hard') return { recorded: false }
    const mailId = /^<?([0-9a-f-]{36})@boligkasse>?$/i.exec(event.messageId ?? '')?.[1] ?? null
    await repo.bounce(this.deps.db, {
      email: event.email.toLowerCase(),
      kind: event.type === 'complaint' ? 'COMPLAINT' : 'HARD',
      reason: event.reason?.slice(0, 500) ?? null,
      mailId,
      bouncedAt: this.deps.clock.now().toISOString(),
    })
    return { recorded: true }
  }

  /** Plans the next reminder round of every association whose rules say one is due (an INSERT each, once a round by its key). */
  async planReminders(): Promise<number> {
    const { db, clock } = this.deps
    const now = clock.now()
    const today = todayInCopenhagen(clock)
    let planned = 0
    for (const { companyId, settings } of await repo.remindable(db)) {
      const s = settings ?? DEFAULT_SETTINGS
      if (!s.remindersOn || s.maxReminders === 0) continue
      const cutoff = new Date(now.getTime() - s.remindAfterDays * DAY).toISOString()
      planned += await transaction(db, () => repo.planReminders(db, companyId, today, now.toISOString(), cutoff, s.maxReminders))
    }
    return planned
  }

  /**
   * Sends the next batch of queued invitations and reminders in one transaction: claims them
   * (`sent_at` where it was null), writes the set-password links of those not signed in and queues
   * each mail, so a crash rolls all of it back and a retry sends each once. Answers how many it claimed.
   */
  async deliverBatch(): Promise<number> {
    const { db, clock } = this.deps
    return await transaction(db, async () => {
      const rows = await repo.due(db, this.size)
      if (!rows.length) return 0
      const now = clock.now().toISOString()
      const claimed = await this.claim(rows, now)
      const sends = rows.filter((r) => claimed.has(`${r.companyId}:${r.round}:${r.userId}`))
      const names = await repo.companyNames(db, [...new Set(sends.map((s) => s.companyId))])
      const open = await repo.openAgreements(db, [...new Set(sends.map((s) => s.userId))])
      const skipped = new Map<string, { companyId: string; round: number; why: 'BOUNCED' | 'NO_ADDRESS' | 'DONE'; ids: string[] }>()
      const skip = (s: DueSend, why: 'BOUNCED' | 'NO_ADDRESS' | 'DONE') => {
        const key = `${s.companyId}:${s.round}:${why}`
        const entry = skipped.get(key) ?? { companyId: s.companyId, round: s.round, why, ids: [] }
        entry.ids.push(s.userId)
        skipped.set(key, entry)
      }
      const inputs: Omit<MailInput, 'link'>[] = []
      for (const send of sends) {
        const agreements = open.filter((a) => a.memberUserId === send.userId && a.companyId === send.companyId)
        if (Number(send.bounced) === 1) skip(send, 'BOUNCED')
        else if (!send.emailAddress || isErasedEmail(send.emailAddress)) skip(send, 'NO_ADDRESS')
        else if (Number(send.signedIn) === 1 && !agreements.length) skip(send, 'DONE')
        else inputs.push({ send, company: names.get(send.companyId) ?? '', agreements })
      }
      const links = await this.deps.auth.invitationLinks(
        inputs.filter((i) => Number(i.send.signedIn) !== 1).map((i) => ({ id: i.send.userId, emailAddress: i.send.emailAddress })),
      )
      const mailIds = await queueMails(
        db,
        clock,
        inputs.map((i) => this.mail({ ...i, link: links.get(i.send.userId) })),
      )
      await this.settle(inputs, mailIds, [...skipped.values()])
      return sends.length
    })
  }

  /** Claims the rows per association and round: the keys (company:round:user) this call claimed. */
  private async claim(rows: readonly DueSend[], now: string): Promise<Set<string>> {
    const groups = new Map<string, { companyId: string; round: number; ids: string[] }>()
    for (const r of rows) {
      const key = `${r.companyId}:${r.round}`
      const g = groups.get(key) ?? { companyId: r.companyId, round: r.round, ids: [] }
      g.ids.push(r.userId)
      groups.set(key, g)
    }
    const claimed = new Set<string>()
    for (const g of groups.values())
      for (const id of await repo.claim(this.deps.db, g.companyId, g.round, g.ids, now)) claimed.add(`${g.companyId}:${g.round}:${id}`)
    return claimed
  }

  /** Keeps each mail's id on its send, and why the others sent none. */
  private async settle(
    inputs: readonly Omit<MailInput, 'link'>[],
    mailIds: readonly string[],
    skipped: readonly { companyId: string; round: number; why: 'BOUNCED' | 'NO_ADDRESS' | 'DONE'; ids: string[] }[],
  ): Promise<void> {
    const byGroup = new Map<string, { companyId: string; round: number; mails: Map<string, string> }>()
    inputs.forEach((i, n) => {
      const key = `${i.send.companyId}:${i.send.round}`
      const g = byGroup.get(key) ?? { companyId: i.send.companyId, round: i.send.round, mails: new Map<string, string>() }
      g.mails.set(i.send.userId, mailIds[n]!)
      byGroup.set(key, g)
    })
    for (const g of byGroup.values()) await repo.setMails(this.deps.db, g.companyId, g.round, g.mails)
    for (const s of skipped) await repo.skip(this.deps.db, s.companyId, s.round, s.ids, s.why)
  }

  /**
   * One person's mail in their language: the invitation (round 0) or a reminder, with the sign-in
   * link and the agreements to accept; a resident without an agreement gets the link alone.
   */
  private mail({ send, company, agreements, link }: MailInput): OutgoingMail {
    const locale: Locale = localeOf(send.language)
    const values = { name: send.fullName, company, count: agreements.length }
    const first = send.round === 0
    const agreementLines = agreements.map((a) =>
      translate(locale, /*i18n*/ { id: 'Agreement {number}: {url}' }, { number: String(a.externalSeq), url: `${this.deps.publicUrl}/agreements/${a.id}` }),
    )
    const accept =
      agreements.length ?
        [
          translate(
            locale,
            /*i18n*/ {
              id: '{count, plural, one {You have an agreement with {company} to accept in Vipps MobilePay.} other {You have # agreements with {company} to accept in Vipps MobilePay.}} Open it in Boligkasse and choose "Accept":',
            },
            values,
          ),
          ...agreementLines,
        ]
      : []
    if (link) {
      const mail = renderEmail(locale, {
        subject:
          first ?
            translate(locale, /*i18n*/ { id: '{company} invites you to Boligkasse' }, values)
          : translate(locale, /*i18n*/ { id: 'Reminder: {company} invites you to Boligkasse' }, values),
        paragraphs: [
          translate(locale, /*i18n*/ { id: 'Hello {name},' }, values),
          first ?
            translate(locale, /*i18n*/ { id: '{company} uses Boligkasse for its payments, messages and documents, and invites you to sign in.' }, values)
          : translate(locale, /*i18n*/ { id: 'You have not signed in to Boligkasse yet. {company} is waiting for you.' }, values),
          translate(locale, /*i18n*/ { id: 'Choose a password to sign in. The link works once and for 7 days.' }),
          ...accept,
          translate(locale, /*i18n*/ { id: 'If you did not expect this, ask {company} to remove you.' }, values),
        ],
        action: { label: translate(locale, /*i18n*/ { id: 'Choose a password' }), url: link },
      })
      return { to: send.emailAddress, ...mail }
    }
    // Signed in already: only the agreements are left.
    const mail = renderEmail(locale, {
      subject: translate(locale, /*i18n*/ { id: 'Reminder: accept your agreement with {company}' }, values),
      paragraphs: [translate(locale, /*i18n*/ { id: 'Hello {name},' }, values), ...accept],
      action: { label: translate(locale, /*i18n*/ { id: 'Open agreement' }), url: `${this.deps.publicUrl}/agreements/${agreements[0]!.id}` },
    })
    return { to: send.emailAddress, ...mail }
  }

  /** The `invitations` job: plans reminder rounds (once a minute), then sends up to `perRun` batches. Answers how many sends it claimed. */
  async tick(): Promise<number> {
    const now = this.deps.clock.now().getTime()
    if (now - this.plannedAt >= PLAN_EVERY_MS) {
      this.plannedAt = now
      await this.planReminders()
    }
    let sent = 0
    for (let i = 0; i < this.perRun; i += 1) {
      const n = await this.deliverBatch()
      sent += n
      if (n < this.size) break
      await new Promise((resolve) => setImmediate(resolve))
    }
    return sent
  }
}

export const createInvitationsService = (deps: InvitationsServiceDeps) => new InvitationsService(deps)
