import { and, asc, eq, exists, gt, inArray, isNotNull, isNull, lte, ne, or, sql, type SQL } from 'drizzle-orm'
import type { Db } from '../../db/client'
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
  /** The bytes of the attachments of the company's messages, drafts' too (its storage quota, docs/decisions/0082): one statement. */
  storedBytes: async (db: Db, companyId: string): Promise<number> =>
    (
      await db
        .select({ n: sql<number>`coalesce(sum(${messageAttachments.size}), 0)`.mapWith(Number) })
        .from(messageAttachments)
        .innerJoin(messages, eq(messages.id, messageAttachments.messageId))
        .where(eq(messages.companyId, companyId))
        .get()
    )?.n ?? 0,

  byId: async (db: Db, id: string): Promise<MessageRow | undefined> => await db.select().from(messages).where(eq(messages.id, id)).get(),

  insert: async (db: Db, row: typeof messages.$inferInsert) => await db.insert(messages).values(row).run(),

  update: async (db: Db, id: string, fields: Partial<typeof messages.$inferInsert>) =>
    await db
      .update(messages)
      .set({ ...fields, version: sql`${messages.version} + 1` })
      .where(eq(messages.id, id))
      .run(),

  delete: async (db: Db, id: string) => await db.delete(messages).where(eq(messages.id, id)).run(),

  /**
   * A page of the list (docs/API.md "Lists"): newest first by (created, id), after `after`, one statement
   * with LIMIT.
   */
  listPage: async (
    db: Db,
    scope: MessageScope,
    filter: { companyId?: string; status?: MessageRow['status'] },
    after: MessagePageKey | undefined,
    limit: number,
  ): Promise<MessageRow[]> =>
    await db
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

  page: async (db: Db, scope: MessageScope, afterId: string | null, limit: number): Promise<MessageRow[]> =>
    await db
      .select()
      .from(messages)
      .where(and(visible(scope), afterId ? gt(messages.id, afterId) : undefined))
      .orderBy(asc(messages.id))
      .limit(limit)
      .all(),

  byIds: async (db: Db, scope: MessageScope, ids: string[]): Promise<MessageRow[]> =>
    ids.length ?
      await db
        .select()
        .from(messages)
        .where(and(visible(scope), inArray(messages.id, ids)))
        .all()
    : [],

  recipients: async (db: Db, messageId: string): Promise<RecipientRow[]> =>
    await db.select().from(messageRecipients).where(eq(messageRecipients.messageId, messageId)).orderBy(asc(messageRecipients.fullName)).all(),

  recipientOf: async (db: Db, messageId: string, userId: string): Promise<RecipientRow | undefined> =>
    await db
      .select()
      .from(messageRecipients)
      .where(and(eq(messageRecipients.messageId, messageId), eq(messageRecipients.userId, userId)))
      .get(),

  insertRecipient: async (db: Db, row: typeof messageRecipients.$inferInsert) => await db.insert(messageRecipients).values(row).run(),

  updateRecipient: async (db: Db, id: string, fields: Partial<Pick<RecipientRow, 'receivedAt' | 'viewedAt'>>) =>
    await db.update(messageRecipients).set(fields).where(eq(messageRecipients.id, id)).run(),

  /** Recipients of several messages, by message and name (a page's views). */
  recipientsOfAll: async (db: Db, messageIds: string[]): Promise<RecipientRow[]> =>
    messageIds.length ?
      await db
        .select()
        .from(messageRecipients)
        .where(inArray(messageRecipients.messageId, messageIds))
        .orderBy(asc(messageRecipients.messageId), asc(messageRecipients.fullName), asc(messageRecipients.id))
        .all()
    : [],

  /** Attachments of several messages, by message and upload (a page's views). */
  attachmentsOfAll: async (db: Db, messageIds: string[]): Promise<AttachmentRow[]> =>
    messageIds.length ?
      await db
        .select()
        .from(messageAttachments)
        .where(inArray(messageAttachments.messageId, messageIds))
        .orderBy(asc(messageAttachments.messageId), asc(messageAttachments.createdAt), asc(messageAttachments.id))
        .all()
    : [],

  /** Company names by id (a page's views). */
  companyNames: async (db: Db, companyIds: string[]): Promise<Map<string, string>> =>
    new Map(
      companyIds.length ?
        (await db.select({ id: companies.id, name: companies.name }).from(companies).where(inArray(companies.id, companyIds)).all()).map((c) => [c.id, c.name])
      : [],
    ),

  /** People by id (a page's senders). */
  people: async (db: Db, userIds: string[]): Promise<Map<string, Person>> =>
    new Map(userIds.length ? (await db.select(person).from(users).where(inArray(users.id, userIds)).all()).map((p) => [p.id, p]) : []),

  attachments: async (db: Db, messageId: string): Promise<AttachmentRow[]> =>
    await db
      .select()
      .from(messageAttachments)
      .where(eq(messageAttachments.messageId, messageId))
      .orderBy(asc(messageAttachments.createdAt), asc(messageAttachments.id))
      .all(),

  /** Which of `ids` are attachment rows (the file sweep's check). */
  attachmentIds: async (db: Db, ids: string[]): Promise<Set<string>> =>
    new Set(
      ids.length ?
        (await db.select({ id: messageAttachments.id }).from(messageAttachments).where(inArray(messageAttachments.id, ids)).all()).map((a) => a.id)
      : [],
    ),

  attachment: async (db: Db, messageId: string, id: string): Promise<AttachmentRow | undefined> =>
    await db
      .select()
      .from(messageAttachments)
      .where(and(eq(messageAttachments.messageId, messageId), eq(messageAttachments.id, id)))
      .get(),

  insertAttachment: async (db: Db, row: typeof messageAttachments.$inferInsert) => await db.insert(messageAttachments).values(row).run(),

  deleteAttachment: async (db: Db, id: string) => await db.delete(messageAttachments).where(eq(messageAttachments.id, id)).run(),

  companyName: async (db: Db, companyId: string): Promise<string | undefined> =>
    (await db.select({ name: companies.name }).from(companies).where(eq(companies.id, companyId)).get())?.name,

  person: async (db: Db, userId: string): Promise<Person | undefined> => await db.select(person).from(users).where(eq(users.id, userId)).get(),

  /** The board: everyone with a company role there. */
  board: async (db: Db, companyId: string): Promise<Person[]> =>
    await db.select(person).from(companyMembers).innerJoin(users, eq(users.id, companyMembers.userId)).where(eq(companyMembers.companyId, companyId)).all(),

  address: async (db: Db, addressId: string) => await db.select().from(addresses).where(eq(addresses.id, addressId)).get(),

  /** Scheduled drafts whose time has come. */
  dueScheduled: async (db: Db, now: string): Promise<MessageRow[]> =>
    await db
      .select()
      .from(messages)
      .where(and(eq(messages.status, 'DRAFT'), isNotNull(messages.sendAt), lte(messages.sendAt, now)))
      .orderBy(asc(messages.sendAt))
      .limit(100)
      .all(),

  /** Recipients not yet marked received whose e-mail has left the mail outbox. */
  mailedNotReceived: async (db: Db) =>
    await db
      .select({ recipientId: messageRecipients.id, messageId: messageRecipients.messageId, sentAt: mailOutbox.sentAt })
      .from(messageRecipients)
      .innerJoin(mailOutbox, eq(mailOutbox.id, messageRecipients.mailId))
      .where(and(isNull(messageRecipients.receivedAt), eq(mailOutbox.status, 'sent')))
      .limit(500)
      .all(),
}
