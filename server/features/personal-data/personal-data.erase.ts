import { and, eq, inArray, or, sql } from 'drizzle-orm'
import { engineOf, transaction, type Db } from '../../db/client'
import { agreements } from '../../db/schema/agreements'
import { assemblyProposals } from '../../db/schema/assemblies'
import { companyMembers } from '../../db/schema/companies'
import { documentEvents } from '../../db/schema/documents'
import { personalDataErasures } from '../../db/schema/erasures'
import { forumFollows, forumModerationEvents, forumPosts, forumReports, forumThreads } from '../../db/schema/forum'
import { householdResidents } from '../../db/schema/households'
import { invoices } from '../../db/schema/invoices'
import { articles } from '../../db/schema/knowledge'
import { lendingItems, loans } from '../../db/schema/lending'
import { marketListings } from '../../db/schema/market'
import { messageRecipients, messages } from '../../db/schema/messages'
import { notifications } from '../../db/schema/notifications'
import { oidcLogins } from '../../db/schema/oidc'
import { idempotencyKeys, systemLogs } from '../../db/schema/platform'
import { authMethods, emailConfirmations, passwordResets, sessions, users } from '../../db/schema/users'
import { pushOutbox, pushPreferences, pushSubscriptions } from '../../db/schema/push'
import { ERASED_NAME, type EraseMemberRequest, type Erasure } from '../../../shared/contract/personal-data'
import { erasedEmailOf } from '../../../shared/erased-person'
import type { Clock } from '../../lib/clock'
import { newId } from '../../lib/ids'
import { recordChange, recordChangesFor } from '../sync'
import type { SyncEntity } from '../../../shared/contract/sync'
import { asText, textColumns } from './table-columns'

/** What an association's residents read too (not only its staff): their copies follow through one row for its members (decision 0073). */
const READ_BY_MEMBERS = new Set<SyncEntity>(['forumThread', 'forumPost', 'listing', 'lendingItem', 'loan', 'proposal', 'message'])

/** What replaces an identifier found inside a kept text (a message, a forum post, a stored notice). */
export const ERASED_TEXT = '[erased]'

/**
 * Tables the identifier sweep leaves alone: the vouchers the Bookkeeping Act keeps (their e-mail and
 * phone are cleared explicitly; name and address stay, docs/PRIVACY.md), the account rows handled
 * field by field, the sign-in rows deleted whole, the change log (ids only) and this log.
 */
const notSwept = new Set([
  'invoices',
  'invoice_lines',
  // Who closed a month of the books is part of the bookkeeping record, and the row can never change (decision 0067's trigger).
  'bookkeeping_closed_months',
  'users',
  'auth_methods',
  'sessions',
  'password_resets',
  'email_confirmations',
  'change_log',
  'personal_data_erasures',
])
/** Keys and ids are never text a person wrote; leaving them out keeps the sweep off primary keys. */
const isKeyColumn = (column: string) => column === 'id' || column.endsWith('_id') || column.endsWith('_hash') || column === 'scope' || column === 'key'

export interface EraseInput extends EraseMemberRequest {
  userId: string
  companyId: string
  erasedByUserId: string
}

export interface EraseDeps {
  db: Db
  clock: Clock
}

/**
 * The identifiers a person is found by in free text: their e-mail address, mobile number (as
 * typed and in its comparable form, with and without the country code), Vipps MobilePay subject
 * and — when no other account has the same name and it is long enough not to occur inside other
 * words — their full name. Longest first, so a longer one is replaced before a part of it.
 */
async function identifiersOf(db: Db, userId: string): Promise<{ identifiers: string[]; fullName: string }> {
  const user = (await db.select().from(users).where(eq(users.id, userId)).get())!
  const methods = await db.select({ type: authMethods.type, identifier: authMethods.identifier }).from(authMethods).where(eq(authMethods.userId, userId)).all()
  const sameName = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.fullName, user.fullName), sql`${users.id} <> ${userId}`))
    .get()
  const name = user.fullName.trim()
  const national = user.mobileKey?.startsWith('45') && user.mobileKey.length === 10 ? user.mobileKey.slice(2) : undefined
  const found = [
    user.emailAddress,
    user.mobileNumber,
    user.mobileKey,
    national,
    ...methods.filter((m) => m.type !== 'LOGIN_TOKEN').map((m) => m.identifier),
    !sameName && name.includes(' ') && name.length >= 5 ? name : undefined,
  ].filter((v): v is string => typeof v === 'string' && v.trim().length >= 5)
  return { identifiers: [...new Set(found)].sort((a, b) => b.length - a.length), fullName: name }
}

/** Rows grouped by a key, in their order (Map.groupBy is not in Node 20). */
function groupBy<T, K>(rows: readonly T[], key: (row: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>()
  for (const row of rows) groups.set(key(row), [...(groups.get(key(row)) ?? []), row])
  return groups
}

/** A text with every identifier replaced. */
const redact = (text: string, identifiers: readonly string[]) => identifiers.reduce((t, id) => t.split(id).join(ERASED_TEXT), text)

/** A change to log after the writes: entity, id, company and the users who keep a copy. */
interface Change {
  entity: SyncEntity
  id: string
  op: 'upsert' | 'delete'
  companyId: string | null
  users: string[]
}

/**
 * Erases one account's personal data (docs/PRIVACY.md, decision 0069), in one
 * transaction on either engine. The caller has checked that nothing is open (agreements, unpaid
 * invoices, loans). What the Bookkeeping Act keeps stays: invoices and credit notes keep the name
 * and address on the voucher and lose e-mail and phone. The account row stays, anonymised, since
 * the vouchers refer to it; it can no longer sign in. Every changed row a client keeps offline is
 * written to the change log, so the copies on devices follow.
 */
export async function eraseAccount(deps: EraseDeps, input: EraseInput): Promise<Erasure & { mailIds: string[] }> {
  const { db, clock } = deps
  return await transaction(db, async () => {
    const now = clock.now().toISOString()
    const { identifiers } = await identifiersOf(db, input.userId)
    const erasure = new AccountErasure(db, clock, input.userId, now, identifiers)
    await erasure.account()
    await erasure.recordsKept()
    await erasure.messages()
    await erasure.forum()
    await erasure.market()
    await erasure.lendingItems()
    await erasure.loans()
    await erasure.proposals()
    const written = await erasure.documentsAndArticles()
    // Mail to or about them (queued or sent) goes, and every other text loses their identifiers.
    const mailIds = await sweepIdentifiers(db, identifiers)
    await erasure.recordChanges(written)
    return { ...(await erasure.log(input)), mailIds }
  })
}

/**
 * The steps of one erasure (`eraseAccount`), in the order it takes them, inside its transaction.
 * Each step notes the changed rows clients keep offline in `changes`; they are written to the
 * change log together at the end, after the identifier sweep, in the order they were noted.
 */
class AccountErasure {
  /** Changes to log after the writes: entity, id, company and the users who keep a copy. */
  private readonly changes: Change[] = []

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly userId: string,
    /** When the erasure happens (ISO), the same in every row it changes. */
    private readonly now: string,
    private readonly identifiers: readonly string[],
  ) {}

  private shared(entity: SyncEntity, op: 'upsert' | 'delete', rows: { id: string; companyId: string | null }[], users: string[] = []) {
    rows.forEach((r) => this.changes.push({ entity, id: r.id, op, companyId: r.companyId, users }))
  }

  /** A text with their identifiers replaced. */
  private redact(text: string): string {
    return redact(text, this.identifiers)
  }

  /** The account: anonymised, no way to sign in, nothing left to sign in with. */
  async account() {
    const { db, userId } = this
    await db
      .update(users)
      .set({
        fullName: ERASED_NAME,
        emailAddress: erasedEmailOf(userId),
        mobileNumber: null,
        mobileKey: null,
        mobileVerifiedAt: null,
        currentCompanyId: null,
        version: sql`${users.version} + 1`,
        updatedAt: this.now,
      })
      .where(eq(users.id, userId))
      .run()
    for (const table of [authMethods, sessions, passwordResets, emailConfirmations]) await db.delete(table).where(eq(table.userId, userId)).run()
    // Their devices' push subscriptions, queued pushes and push preferences (docs/decisions/0088).
    for (const table of [pushOutbox, pushSubscriptions, pushPreferences]) await db.delete(table).where(eq(table.userId, userId)).run()
    await db.delete(oidcLogins).where(eq(oidcLogins.linkUserId, userId)).run()
    await db.delete(idempotencyKeys).where(eq(idempotencyKeys.scope, userId)).run()
    await db.delete(systemLogs).where(eq(systemLogs.userId, userId)).run()
  }

  /** Roles, agreements and vouchers stay (the association's and the Bookkeeping Act's records); their own notifications go. */
  async recordsKept() {
    const { db, userId } = this
    // Roles and agreements stay (the association's records, shown as the erased name); their copies follow the new name.
    this.shared(
      'member',
      'upsert',
      await db.select({ id: companyMembers.id, companyId: companyMembers.companyId }).from(companyMembers).where(eq(companyMembers.userId, userId)).all(),
    )
    this.shared(
      'agreement',
      'upsert',
      await db.select({ id: agreements.id, companyId: agreements.companyId }).from(agreements).where(eq(agreements.memberUserId, userId)).all(),
    )
    // Where they lived stays (the household's history, decision 0090), under the erased name.
    const stays = await db
      .update(householdResidents)
      .set({ fullName: ERASED_NAME, updatedAt: this.now })
      .where(eq(householdResidents.userId, userId))
      .returning({ id: householdResidents.householdId, companyId: householdResidents.companyId })
      .all()
    this.shared('household', 'upsert', [...new Map(stays.map((r) => [r.id, r])).values()])

    // Vouchers (Bookkeeping Act, 5 years): name and address stay, e-mail and phone go.
    const voucherRows = await db
      .update(invoices)
      .set({ consumerEmailAddress: '', consumerPhoneNumber: null })
      .where(eq(invoices.memberUserId, userId))
      .returning({ id: invoices.id, companyId: invoices.companyId })
      .all()
    this.shared('invoice', 'upsert', voucherRows)

    const ownNotifications = await db.delete(notifications).where(eq(notifications.userId, userId)).returning({ id: notifications.id }).all()
    for (const n of ownNotifications) this.changes.push({ entity: 'notification', id: n.id, op: 'delete', companyId: null, users: [userId] })
  }

  /** Messages: their drafts go; what they sent stays for its recipients without a sender; what they received loses their address. */
  async messages() {
    const { db, userId, now } = this
    const drafts = await db
      .delete(messages)
      .where(and(eq(messages.senderUserId, userId), eq(messages.status, 'DRAFT')))
      .returning({ id: messages.id, companyId: messages.companyId })
      .all()
    this.shared('message', 'delete', drafts)
    const sentRows = await db
      .select({ id: messages.id, companyId: messages.companyId, subject: messages.subject, body: messages.body })
      .from(messages)
      .where(eq(messages.senderUserId, userId))
      .all()
    for (const m of sentRows)
      await db
        .update(messages)
        .set({
          senderUserId: null,
          anonymous: true,
          subject: this.redact(m.subject),
          body: this.redact(m.body),
          updatedAt: now,
          version: sql`${messages.version} + 1`,
        })
        .where(eq(messages.id, m.id))
        .run()
    await db.update(messageRecipients).set({ fullName: ERASED_NAME, emailAddress: '' }).where(eq(messageRecipients.userId, userId)).run()
    const toThem = await db
      .update(messages)
      .set({ recipientLabel: ERASED_NAME, updatedAt: now, version: sql`${messages.version} + 1` })
      .where(eq(messages.recipientUserId, userId))
      .returning({ id: messages.id, companyId: messages.companyId })
      .all()
    const receivedIds = (await db.select({ id: messageRecipients.messageId }).from(messageRecipients).where(eq(messageRecipients.userId, userId)).all()).map(
      (r) => r.id,
    )
    await this.messageCopies([...new Set([...sentRows.map((m) => m.id), ...toThem.map((m) => m.id), ...receivedIds])])
  }

  /** The changed messages' copies follow, for their association and for each of their other recipients. */
  private async messageCopies(messageIds: string[]) {
    if (!messageIds.length) return
    const { db, userId } = this
    const recipients = await db
      .select({ messageId: messageRecipients.messageId, userId: messageRecipients.userId })
      .from(messageRecipients)
      .where(inArray(messageRecipients.messageId, messageIds))
      .all()
    const byMessage = groupBy(recipients, (r) => r.messageId)
    const rows = await db.select({ id: messages.id, companyId: messages.companyId }).from(messages).where(inArray(messages.id, messageIds)).all()
    for (const r of rows)
      this.changes.push({
        entity: 'message',
        id: r.id,
        op: 'upsert',
        companyId: r.companyId,
        users: (byMessage.get(r.id) ?? []).map((x) => x.userId).filter((u): u is string => !!u && u !== userId),
      })
  }

  /** The forum: threads and posts stay readable for the others, under the erased name, their identifiers taken out. */
  async forum() {
    const { db, userId } = this
    const threads = await db
      .select({ id: forumThreads.id, companyId: forumThreads.companyId, title: forumThreads.title })
      .from(forumThreads)
      .where(eq(forumThreads.authorUserId, userId))
      .all()
    for (const th of threads)
      await db
        .update(forumThreads)
        .set({ authorName: ERASED_NAME, title: this.redact(th.title), version: sql`${forumThreads.version} + 1` })
        .where(eq(forumThreads.id, th.id))
        .run()
    const posts = await db
      .select({ id: forumPosts.id, companyId: forumPosts.companyId, body: forumPosts.body })
      .from(forumPosts)
      .where(eq(forumPosts.authorUserId, userId))
      .all()
    for (const p of posts)
      await db
        .update(forumPosts)
        .set({ authorName: ERASED_NAME, body: this.redact(p.body), version: sql`${forumPosts.version} + 1` })
        .where(eq(forumPosts.id, p.id))
        .run()
    await db.delete(forumFollows).where(eq(forumFollows.userId, userId)).run()
    await db.update(forumReports).set({ reporterName: ERASED_NAME }).where(eq(forumReports.reporterUserId, userId)).run()
    await db.update(forumModerationEvents).set({ actorName: ERASED_NAME }).where(eq(forumModerationEvents.actorUserId, userId)).run()
    this.shared('forumThread', 'upsert', threads)
    this.shared('forumPost', 'upsert', posts)
  }

  /** The market: their listings go; a reservation they held is let go. */
  async market() {
    const { db, userId } = this
    const listings = await db
      .delete(marketListings)
      .where(eq(marketListings.sellerUserId, userId))
      .returning({ id: marketListings.id, companyId: marketListings.companyId })
      .all()
    const released = await db
      .update(marketListings)
      .set({ reservedByUserId: null, status: 'AVAILABLE', version: sql`${marketListings.version} + 1`, updatedAt: this.now })
      .where(eq(marketListings.reservedByUserId, userId))
      .returning({ id: marketListings.id, companyId: marketListings.companyId })
      .all()
    this.shared('listing', 'delete', listings)
    this.shared('listing', 'upsert', released)
  }

  /** Lending: an item of theirs that was never lent goes; one with loans stays archived (the loans refer to it), stripped of their texts. */
  async lendingItems() {
    const { db, userId, now } = this
    const items = await db
      .select({ id: lendingItems.id, companyId: lendingItems.companyId })
      .from(lendingItems)
      .where(eq(lendingItems.lenderUserId, userId))
      .all()
    const lent = new Set(
      items.length ?
        (
          await db
            .selectDistinct({ id: loans.itemId })
            .from(loans)
            .where(
              inArray(
                loans.itemId,
                items.map((i) => i.id),
              ),
            )
            .all()
        ).map((r) => r.id)
      : [],
    )
    const unlent = items.filter((i) => !lent.has(i.id))
    if (unlent.length)
      await db
        .delete(lendingItems)
        .where(
          inArray(
            lendingItems.id,
            unlent.map((i) => i.id),
          ),
        )
        .run()
    const kept = items.filter((i) => lent.has(i.id))
    if (kept.length)
      await db
        .update(lendingItems)
        .set({
          lenderName: ERASED_NAME,
          description: '',
          rules: '',
          location: '',
          photoId: null,
          photoContentType: null,
          photoSize: null,
          archivedAt: sql`coalesce(${lendingItems.archivedAt}, ${now})`,
          version: sql`${lendingItems.version} + 1`,
          updatedAt: now,
        })
        .where(
          inArray(
            lendingItems.id,
            kept.map((i) => i.id),
          ),
        )
        .run()
    this.shared('lendingItem', 'delete', unlent)
    this.shared('lendingItem', 'upsert', kept)
  }

  /** Loans they borrowed or lent stay, their texts without their identifiers, the borrower's name erased. */
  async loans() {
    const { db, userId } = this
    const loanRows = await db
      .select({
        id: loans.id,
        companyId: loans.companyId,
        borrowerUserId: loans.borrowerUserId,
        lenderUserId: loans.lenderUserId,
        message: loans.message,
        damageNote: loans.damageNote,
        conditionOut: loans.conditionOut,
        conditionBack: loans.conditionBack,
        handoverCondition: loans.handoverCondition,
      })
      .from(loans)
      .where(or(eq(loans.borrowerUserId, userId), eq(loans.lenderUserId, userId)))
      .all()
    const r = (v: string | null) => (v === null ? null : this.redact(v))
    for (const l of loanRows)
      await db
        .update(loans)
        .set({
          ...(l.borrowerUserId === userId ? { borrowerName: ERASED_NAME } : {}),
          message: r(l.message) ?? '',
          damageNote: r(l.damageNote),
          conditionOut: r(l.conditionOut) ?? '',
          conditionBack: r(l.conditionBack),
          handoverCondition: r(l.handoverCondition),
          version: sql`${loans.version} + 1`,
          updatedAt: this.now,
        })
        .where(eq(loans.id, l.id))
        .run()
    for (const l of loanRows)
      this.changes.push({
        entity: 'loan',
        id: l.id,
        op: 'upsert',
        companyId: l.companyId,
        users: [l.borrowerUserId, l.lenderUserId].filter((u): u is string => !!u && u !== userId),
      })
  }

  /** Proposals for general assemblies: the text stays on the agenda, without its author. */
  async proposals() {
    const { db, userId } = this
    const proposals = await db
      .select({ id: assemblyProposals.id, companyId: assemblyProposals.companyId, title: assemblyProposals.title, body: assemblyProposals.body })
      .from(assemblyProposals)
      .where(eq(assemblyProposals.authorUserId, userId))
      .all()
    for (const p of proposals)
      await db
        .update(assemblyProposals)
        .set({
          authorUserId: null,
          authorName: ERASED_NAME,
          title: this.redact(p.title),
          body: this.redact(p.body),
          version: sql`${assemblyProposals.version} + 1`,
          updatedAt: this.now,
        })
        .where(eq(assemblyProposals.id, p.id))
        .run()
    this.shared('proposal', 'upsert', proposals)
  }

  /** Document events and articles keep what happened and what was written, under the erased name; the articles changed. */
  async documentsAndArticles(): Promise<{ id: string; companyId: string | null }[]> {
    const { db, userId } = this
    await db.update(documentEvents).set({ userName: ERASED_NAME }).where(eq(documentEvents.userId, userId)).run()
    return await db
      .update(articles)
      .set({ authorName: ERASED_NAME, version: sql`${articles.version} + 1` })
      .where(eq(articles.authorUserId, userId))
      .returning({ id: articles.id, companyId: articles.companyId })
      .all()
  }

  /**
   * The offline copies follow: staff of each association, its residents for what members read (one
   * row for them, decision 0073), and named users; then the changed articles.
   */
  async recordChanges(written: { id: string; companyId: string | null }[]) {
    const { db, clock, userId } = this
    for (const c of this.changes) {
      if (c.companyId === null) {
        if (c.users.length) await recordChangesFor(db, clock, c.entity, [c.id], c.op, c.users)
        continue
      }
      await recordChange(db, clock, c.entity, c.id, c.op, { companyId: c.companyId, ...(READ_BY_MEMBERS.has(c.entity) && { members: true as const }) })
      const named = c.users.filter((u) => u !== userId)
      if (named.length) await recordChangesFor(db, clock, c.entity, [c.id], c.op, named)
    }
    for (const a of written)
      await recordChange(db, clock, 'article', a.id, 'upsert', a.companyId ? { companyId: a.companyId, members: true } : { everyone: true })
  }

  /** The erasure's own record (personal_data_erasures), which the sweep leaves alone. */
  async log(input: EraseInput): Promise<Erasure> {
    const erasure: Erasure = {
      id: newId(),
      companyId: input.companyId,
      userId: this.userId,
      reason: input.reason,
      requestedOn: input.requestedOn,
      erasedAt: this.now,
    }
    await this.db
      .insert(personalDataErasures)
      .values({ ...erasure, erasedByUserId: input.erasedByUserId })
      .run()
    return erasure
  }
}

/**
 * Replaces each identifier in every text column of every table (listed from the database, so a
 * table added later is swept too), apart from the kept vouchers and the rows handled above. Mail
 * in the outbox that names them is deleted rather than edited. One UPDATE per table, touching only
 * rows that contain an identifier. E-mail, phone and Vipps subject are unique to the person; the
 * name only when no other account has it (see `identifiersOf`).
 */
async function sweepIdentifiers(db: Db, identifiers: readonly string[]): Promise<string[]> {
  const mailIds: string[] = []
  if (!identifiers.length) return mailIds
  const columns = (await textColumns(db)).filter((c) => !notSwept.has(c.table) && !isKeyColumn(c.column))
  const byTable = groupBy(columns, (c) => c.table)
  for (const [table, cols] of byTable) {
    const where = sql.join(
      cols.flatMap((c) => identifiers.map((id) => sql`${sql.raw(position(db, asText(c)))}${id}) > 0`)),
      sql` OR `,
    )
    if (table === 'mail_outbox') {
      // Their ids name the .eml copies the file transport wrote (deleted after the commit, personal-data.service.ts).
      const ids = await db.values<[string]>(sql`SELECT id FROM ${sql.raw(`"${table}"`)} WHERE ${where}`)
      mailIds.push(...ids.map((r) => String(r[0])))
      await db.run(sql`DELETE FROM ${sql.raw(`"${table}"`)} WHERE ${where}`)
      continue
    }
    const sets = sql.join(
      cols.map((c) => {
        let expression = sql.raw(asText(c))
        for (const id of identifiers) expression = sql`replace(${expression}, ${id}, ${ERASED_TEXT})`
        return c.json ? sql`${sql.raw(`"${c.column}"`)} = (${expression})::json` : sql`${sql.raw(`"${c.column}"`)} = ${expression}`
      }),
      sql`, `,
    )
    await db.run(sql`UPDATE ${sql.raw(`"${table}"`)} SET ${sets} WHERE ${where}`)
  }
  return mailIds
}

/** The opening of "position of the next parameter in `expression`" on the engine in use. */
const position = (db: Db, expression: string) => (isPostgres(db) ? `strpos(${expression}, ` : `instr(${expression}, `)
const isPostgres = (db: Db) => engineOf(db) !== undefined
