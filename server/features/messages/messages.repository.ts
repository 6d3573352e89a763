import { and, asc, eq, exists, gt, inArray, isNotNull, isNull, lte, ne, notInArray, or, sql, type SQL } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { agreementAddresses, agreements } from '../../db/schema/agreements'
import { addresses, companies, companyMembers } from '../../db/schema/companies'
import { messageAttachments, messageRecipients, messages } from '../../db/schema/messages'
import { mailOutbox } from '../../db/schema/platform'
import { users } from '../../db/schema/users'

export type MessageRow = typeof messages.$inferSelect
export type RecipientRow = typeof messageRecipients.$inferSelect
export type AttachmentRow = typeof messageAttachments.$inferSelect
/** Where a page of the message list starts: after this sort key (created, id; newest first). */
export type MessagePageKey = [createdAt: string, id: string]
export interface Person {
  id: string
  fullName: string
  emailAddress: string
  language: 'EN' | 'DA'
}

/** Agreements that make someone a resident of the company (a rejected or expired offer does not). */
const livingAgreement = notInArray(agreements.status, ['REJECTED', 'EXPIRED'])
const person = { id: users.id, fullName: users.fullName, emailAddress: users.emailAddress, language: users.language }

/** Who may see a message in lists and sync (mirrors policy.canReadMessage, as SQL). */
export interface MessageScope {
  userId: string
  /** Companies whose sent messages the caller reads as staff; 'all' for the super admin. */
  staffOf: 'all' | string[]
}

function visible(scope: MessageScope): SQL {
  const own = eq(messages.senderUserId, scope.userId)
  const received = exists(
    sql`(select 1 from ${messageRecipients} where ${messageRecipients.messageId} = ${messages.id} and ${messageRecipients.userId} = ${scope.userId})`,
  )
  const staff =
    scope.staffOf === 'all' ? sql`1 = 1`
    : scope.staffOf.length ? inArray(messages.companyId, scope.staffOf)
    : sql`0 = 1`
  return or(own, and(ne(messages.status, 'DRAFT'), or(received, staff)))!
}

export const messagesRepository = {
  byId: (db: Db, id: string): MessageRow | undefined => db.select().from(messages).where(eq(messages.id, id)).get(),

  insert: (db: Db, row: typeof messages.$inferInsert) => db.insert(messages).values(row).run(),

  update: (db: Db, id: string, fields: Partial<typeof messages.$inferInsert>) =>
    db
      .update(messages)
      .set({ ...fields, version: sql`${messages.version} + 1` })
      .where(eq(messages.id, id))
      .run(),

  delete: (db: Db, id: string) => db.delete(messages).where(eq(messages.id, id)).run(),

  /**
   * A page of the list (issue #19): newest first by (created, id), after `after`, one statement
   * with LIMIT.
   */
  listPage: (
    db: Db,
    scope: MessageScope,
    filter: { companyId?: string; status?: MessageRow['status'] },
    after: MessagePageKey | undefined,
    limit: number,
  ): MessageRow[] =>
    db
      .select()
      .from(messages)
      .where(
        and(
          visible(scope),
          filter.companyId ? eq(messages.companyId, filter.companyId) : undefined,
          filter.status ? eq(messages.status, filter.status) : undefined,
          after ? sql`(${messages.createdAt}, ${messages.id}) < (${after[0]}, ${after[1]})` : undefined,
        ),
      )
      .orderBy(sql`${messages.createdAt} desc`, sql`${messages.id} desc`)
      .limit(limit)
      .all(),

  page: (db: Db, scope: MessageScope, afterId: string | null, limit: number): MessageRow[] =>
    db
      .select()
      .from(messages)
      .where(and(visible(scope), afterId ? gt(messages.id, afterId) : undefined))
      .orderBy(asc(messages.id))
      .limit(limit)
      .all(),

  byIds: (db: Db, scope: MessageScope, ids: string[]): MessageRow[] =>
    ids.length ?
      db
        .select()
        .from(messages)
        .where(and(visible(scope), inArray(messages.id, ids)))
        .all()
    : [],

  recipients: (db: Db, messageId: string): RecipientRow[] =>
    db.select().from(messageRecipients).where(eq(messageRecipients.messageId, messageId)).orderBy(asc(messageRecipients.fullName)).all(),

  recipientOf: (db: Db, messageId: string, userId: string): RecipientRow | undefined =>
    db
      .select()
      .from(messageRecipients)
      .where(and(eq(messageRecipients.messageId, messageId), eq(messageRecipients.userId, userId)))
      .get(),

  insertRecipient: (db: Db, row: typeof messageRecipients.$inferInsert) => db.insert(messageRecipients).values(row).run(),

  updateRecipient: (db: Db, id: string, fields: Partial<Pick<RecipientRow, 'receivedAt' | 'viewedAt'>>) =>
    db.update(messageRecipients).set(fields).where(eq(messageRecipients.id, id)).run(),

  /** Recipients of several messages, by message and name (a page's views). */
  recipientsOfAll: (db: Db, messageIds: string[]): RecipientRow[] =>
    messageIds.length ?
      db
        .select()
        .from(messageRecipients)
        .where(inArray(messageRecipients.messageId, messageIds))
        .orderBy(asc(messageRecipients.messageId), asc(messageRecipients.fullName), asc(messageRecipients.id))
        .all()
    : [],

  /** Attachments of several messages, by message and upload (a page's views). */
  attachmentsOfAll: (db: Db, messageIds: string[]): AttachmentRow[] =>
    messageIds.length ?
      db
        .select()
        .from(messageAttachments)
        .where(inArray(messageAttachments.messageId, messageIds))
        .orderBy(asc(messageAttachments.messageId), asc(messageAttachments.createdAt), asc(messageAttachments.id))
        .all()
    : [],

  /** Company names by id (a page's views). */
  companyNames: (db: Db, companyIds: string[]): Map<string, string> =>
    new Map(
      companyIds.length ?
        db
          .select({ id: companies.id, name: companies.name })
          .from(companies)
          .where(inArray(companies.id, companyIds))
          .all()
          .map((c) => [c.id, c.name])
      : [],
    ),

  /** People by id (a page's senders). */
  people: (db: Db, userIds: string[]): Map<string, Person> =>
    new Map(
      userIds.length ?
        db
          .select(person)
          .from(users)
          .where(inArray(users.id, userIds))
          .all()
          .map((p) => [p.id, p])
      : [],
    ),

  attachments: (db: Db, messageId: string): AttachmentRow[] =>
    db.select().from(messageAttachments).where(eq(messageAttachments.messageId, messageId)).orderBy(asc(messageAttachments.createdAt)).all(),

  attachment: (db: Db, messageId: string, id: string): AttachmentRow | undefined =>
    db
      .select()
      .from(messageAttachments)
      .where(and(eq(messageAttachments.messageId, messageId), eq(messageAttachments.id, id)))
      .get(),

  insertAttachment: (db: Db, row: typeof messageAttachments.$inferInsert) => db.insert(messageAttachments).values(row).run(),

  deleteAttachment: (db: Db, id: string) => db.delete(messageAttachments).where(eq(messageAttachments.id, id)).run(),

  companyName: (db: Db, companyId: string): string | undefined =>
    db.select({ name: companies.name }).from(companies).where(eq(companies.id, companyId)).get()?.name,

  person: (db: Db, userId: string): Person | undefined => db.select(person).from(users).where(eq(users.id, userId)).get(),

  /** Companies where the user is a resident (has a living agreement). */
  residentCompanyIds: (db: Db, userId: string): string[] =>
    db
      .selectDistinct({ id: agreements.companyId })
      .from(agreements)
      .where(and(eq(agreements.memberUserId, userId), livingAgreement))
      .all()
      .map((r) => r.id),

  isResident: (db: Db, userId: string, companyId: string): boolean =>
    db
      .select({ id: agreements.id })
      .from(agreements)
      .where(and(eq(agreements.memberUserId, userId), eq(agreements.companyId, companyId), livingAgreement))
      .get() !== undefined,

  /** The board: everyone with a company role there. */
  board: (db: Db, companyId: string): Person[] =>
    db.select(person).from(companyMembers).innerJoin(users, eq(users.id, companyMembers.userId)).where(eq(companyMembers.companyId, companyId)).all(),

  residents: (db: Db, companyId: string): Person[] =>
    db
      .selectDistinct(person)
      .from(agreements)
      .innerJoin(users, eq(users.id, agreements.memberUserId))
      .where(and(eq(agreements.companyId, companyId), livingAgreement))
      .all(),

  residentsAt: (db: Db, addressId: string): Person[] =>
    db
      .selectDistinct(person)
      .from(agreementAddresses)
      .innerJoin(agreements, eq(agreements.id, agreementAddresses.agreementId))
      .innerJoin(users, eq(users.id, agreements.memberUserId))
      .where(and(eq(agreementAddresses.addressId, addressId), livingAgreement))
      .all(),

  address: (db: Db, addressId: string) => db.select().from(addresses).where(eq(addresses.id, addressId)).get(),

  /** Scheduled drafts whose time has come. */
  dueScheduled: (db: Db, now: string): MessageRow[] =>
    db
      .select()
      .from(messages)
      .where(and(eq(messages.status, 'DRAFT'), isNotNull(messages.sendAt), lte(messages.sendAt, now)))
      .orderBy(asc(messages.sendAt))
      .limit(100)
      .all(),

  /** Recipients not yet marked received whose e-mail has left the mail outbox. */
  mailedNotReceived: (db: Db) =>
    db
      .select({ recipientId: messageRecipients.id, messageId: messageRecipients.messageId, sentAt: mailOutbox.sentAt })
      .from(messageRecipients)
      .innerJoin(mailOutbox, eq(mailOutbox.id, messageRecipients.mailId))
      .where(and(isNull(messageRecipients.receivedAt), eq(mailOutbox.status, 'sent')))
      .limit(500)
      .all(),
}
