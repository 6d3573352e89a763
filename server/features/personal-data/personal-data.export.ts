import { asc, eq, getTableColumns, inArray, or, type SQL } from 'drizzle-orm'
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core'
import type { Db } from '../../db/client'
import { snapshot } from '../../db/client'
import { agreementParts, agreements, charges } from '../../db/schema/agreements'
import { assemblyProposals } from '../../db/schema/assemblies'
import { companies, companyMembers } from '../../db/schema/companies'
import { documents } from '../../db/schema/documents'
import { forumPosts, forumThreads } from '../../db/schema/forum'
import { invoiceLines, invoices } from '../../db/schema/invoices'
import { articles } from '../../db/schema/knowledge'
import { lendingItems, loans } from '../../db/schema/lending'
import { householdResidents } from '../../db/schema/households'
import { marketListings } from '../../db/schema/market'
import { messageRecipients, messages } from '../../db/schema/messages'
import { notifications } from '../../db/schema/notifications'
import { pushSubscriptions } from '../../db/schema/push'
import { authMethods, sessions, users } from '../../db/schema/users'
import type { PersonalDataExport, PersonalDataSection } from '../../../shared/contract/personal-data'
import type { Clock } from '../../lib/clock'

type Row = Record<string, unknown>

/** One kind of record in the download: which rows are the person's, which columns leave, in which order. */
export interface Section {
  key: PersonalDataSection
  from: SQLiteTable
  /** The columns as exported, in this order (the key is the name in the download); every column of `from` when left out. */
  columns?: Record<string, SQLiteColumn>
  /** A parent row joined in for some of `columns`. */
  join?: { table: SQLiteTable; on: SQL }
  /** The condition that picks the person's rows. */
  mine: (userId: string, db: Db) => SQL
  orderBy: SQLiteColumn[]
}

/** Rows where any of `columns` names the person. */
const ownedBy =
  (...columns: SQLiteColumn[]) =>
  (userId: string): SQL =>
    columns.length === 1 ? eq(columns[0]!, userId) : or(...columns.map((c) => eq(c, userId)))!

/** Rows whose `column` points at one of the person's agreements or invoices (a subquery: still one statement). */
const ofTheir =
  (column: SQLiteColumn, parent: SQLiteTable, parentId: SQLiteColumn, owner: SQLiteColumn) =>
  (userId: string, db: Db): SQL =>
    inArray(column, db.select({ id: parentId }).from(parent).where(eq(owner, userId)))

/** A confirmation link is the provider's one-time URL, not the member's data. */
const { vippsConfirmationUrl: _url, ...agreementColumns } = getTableColumns(agreements)

/**
 * Every kind of record, in the download's order. The identifier of a sign-in method is the e-mail
 * address, phone number or Vipps MobilePay subject: personal data of theirs. A received message
 * shows what they got, never who sent an anonymous one (decision 0027).
 */
export const sections: readonly Section[] = [
  {
    key: 'user',
    from: users,
    columns: {
      id: users.id,
      fullName: users.fullName,
      emailAddress: users.emailAddress,
      mobileNumber: users.mobileNumber,
      mobileVerifiedAt: users.mobileVerifiedAt,
      language: users.language,
      systemRole: users.systemRole,
      currentCompanyId: users.currentCompanyId,
      createdAt: users.createdAt,
      updatedAt: users.updatedAt,
    },
    mine: ownedBy(users.id),
    orderBy: [users.id],
  },
  {
    key: 'signInMethods',
    from: authMethods,
    columns: {
      id: authMethods.id,
      type: authMethods.type,
      identifier: authMethods.identifier,
      verifiedAt: authMethods.verifiedAt,
      createdAt: authMethods.createdAt,
    },
    mine: ownedBy(authMethods.userId),
    orderBy: [authMethods.createdAt, authMethods.id],
  },
  {
    key: 'sessions',
    from: sessions,
    columns: {
      id: sessions.id,
      via: sessions.via,
      createdAt: sessions.createdAt,
      lastUsedAt: sessions.lastUsedAt,
      expiresAt: sessions.expiresAt,
      revokedAt: sessions.revokedAt,
    },
    mine: ownedBy(sessions.userId),
    orderBy: [sessions.createdAt, sessions.id],
  },
  {
    key: 'memberships',
    from: companyMembers,
    columns: { companyId: companyMembers.companyId, companyName: companies.name, role: companyMembers.role, createdAt: companyMembers.createdAt },
    join: { table: companies, on: eq(companies.id, companyMembers.companyId) },
    mine: ownedBy(companyMembers.userId),
    orderBy: [companies.name],
  },
  { key: 'agreements', from: agreements, columns: agreementColumns, mine: ownedBy(agreements.memberUserId), orderBy: [agreements.createdAt, agreements.id] },
  {
    key: 'agreementParts',
    from: agreementParts,
    mine: ofTheir(agreementParts.agreementId, agreements, agreements.id, agreements.memberUserId),
    orderBy: [agreementParts.agreementId, agreementParts.position],
  },
  {
    key: 'charges',
    from: charges,
    columns: {
      id: charges.id,
      agreementId: charges.agreementId,
      kind: charges.kind,
      amountOre: charges.amountOre,
      description: charges.description,
      due: charges.due,
      status: charges.status,
      capturedOre: charges.capturedOre,
      refundedOre: charges.refundedOre,
      failureReason: charges.failureReason,
      invoiceId: charges.invoiceId,
      createdAt: charges.createdAt,
    },
    mine: ofTheir(charges.agreementId, agreements, agreements.id, agreements.memberUserId),
    orderBy: [charges.due, charges.id],
  },
  { key: 'invoices', from: invoices, mine: ownedBy(invoices.memberUserId), orderBy: [invoices.issueDate, invoices.number] },
  {
    key: 'invoiceLines',
    from: invoiceLines,
    mine: ofTheir(invoiceLines.invoiceId, invoices, invoices.id, invoices.memberUserId),
    orderBy: [invoiceLines.invoiceId, invoiceLines.position],
  },
  {
    key: 'notifications',
    from: notifications,
    columns: {
      id: notifications.id,
      title: notifications.title,
      message: notifications.message,
      type: notifications.type,
      isRead: notifications.isRead,
      actionUrl: notifications.actionUrl,
      createdAt: notifications.createdAt,
      readAt: notifications.readAt,
    },
    mine: ownedBy(notifications.userId),
    orderBy: [notifications.createdAt, notifications.id],
  },
  {
    key: 'messagesSent',
    from: messages,
    columns: {
      id: messages.id,
      companyId: messages.companyId,
      type: messages.type,
      anonymous: messages.anonymous,
      subject: messages.subject,
      body: messages.body,
      status: messages.status,
      recipientKind: messages.recipientKind,
      recipientLabel: messages.recipientLabel,
      sentAt: messages.sentAt,
      createdAt: messages.createdAt,
    },
    mine: ownedBy(messages.senderUserId),
    orderBy: [messages.createdAt, messages.id],
  },
  {
    key: 'messagesReceived',
    from: messageRecipients,
    columns: {
      id: messages.id,
      companyId: messages.companyId,
      type: messages.type,
      subject: messages.subject,
      body: messages.body,
      sentAt: messages.sentAt,
      receivedAt: messageRecipients.receivedAt,
      viewedAt: messageRecipients.viewedAt,
      emailAddress: messageRecipients.emailAddress,
    },
    join: { table: messages, on: eq(messages.id, messageRecipients.messageId) },
    mine: ownedBy(messageRecipients.userId),
    orderBy: [messageRecipients.createdAt, messageRecipients.id],
  },
  {
    key: 'forumThreads',
    from: forumThreads,
    columns: {
      id: forumThreads.id,
      companyId: forumThreads.companyId,
      title: forumThreads.title,
      authorName: forumThreads.authorName,
      createdAt: forumThreads.createdAt,
    },
    mine: ownedBy(forumThreads.authorUserId),
    orderBy: [forumThreads.createdAt, forumThreads.id],
  },
  {
    key: 'forumPosts',
    from: forumPosts,
    columns: {
      id: forumPosts.id,
      threadId: forumPosts.threadId,
      companyId: forumPosts.companyId,
      body: forumPosts.body,
      authorName: forumPosts.authorName,
      createdAt: forumPosts.createdAt,
      editedAt: forumPosts.editedAt,
      deletedAt: forumPosts.deletedAt,
    },
    mine: ownedBy(forumPosts.authorUserId),
    orderBy: [forumPosts.createdAt, forumPosts.id],
  },
  {
    key: 'marketListings',
    from: marketListings,
    mine: ownedBy(marketListings.sellerUserId, marketListings.reservedByUserId),
    orderBy: [marketListings.createdAt, marketListings.id],
  },
  { key: 'lendingItems', from: lendingItems, mine: ownedBy(lendingItems.lenderUserId), orderBy: [lendingItems.createdAt, lendingItems.id] },
  { key: 'loans', from: loans, mine: ownedBy(loans.borrowerUserId, loans.lenderUserId), orderBy: [loans.createdAt, loans.id] },
  {
    key: 'assemblyProposals',
    from: assemblyProposals,
    mine: ownedBy(assemblyProposals.authorUserId),
    orderBy: [assemblyProposals.createdAt, assemblyProposals.id],
  },
  {
    key: 'documentsUploaded',
    from: documents,
    columns: {
      id: documents.id,
      companyId: documents.companyId,
      title: documents.title,
      category: documents.category,
      fileName: documents.fileName,
      createdAt: documents.createdAt,
    },
    mine: ownedBy(documents.uploadedByUserId),
    orderBy: [documents.createdAt, documents.id],
  },
  {
    key: 'articlesWritten',
    from: articles,
    columns: { id: articles.id, companyId: articles.companyId, title: articles.title, authorName: articles.authorName, createdAt: articles.createdAt },
    mine: ownedBy(articles.authorUserId),
    orderBy: [articles.createdAt, articles.id],
  },
  {
    // A device's endpoint and keys are its secrets (decision 0088): the label and dates say which device it is.
    key: 'pushDevices',
    from: pushSubscriptions,
    columns: {
      id: pushSubscriptions.id,
      label: pushSubscriptions.label,
      createdAt: pushSubscriptions.createdAt,
      lastSuccessAt: pushSubscriptions.lastSuccessAt,
    },
    mine: ownedBy(pushSubscriptions.userId),
    orderBy: [pushSubscriptions.createdAt, pushSubscriptions.id],
  },
  // Where they lived (decision 0090): their stays in households, with the household's address id.
  {
    key: 'homes',
    from: householdResidents,
    mine: ownedBy(householdResidents.userId),
    orderBy: [householdResidents.moveInDate, householdResidents.id],
  },
]

/** The person's rows of one section: one set-based statement, whatever their number. */
async function readSection(db: Db, section: Section, userId: string): Promise<Row[]> {
  const query = db
    .select(section.columns ?? getTableColumns(section.from))
    .from(section.from)
    .$dynamic()
  const joined = section.join ? query.innerJoin(section.join.table, section.join.on) : query
  return (await joined
    .where(section.mine(userId, db))
    .orderBy(...section.orderBy.map((c) => asc(c)))
    .all()) as Row[]
}

/**
 * Everything the product holds about one user (docs/PRIVACY.md, decision 0069): one
 * set-based read per section of `sections`, all in one snapshot so the parts agree with each other.
 * Secrets never leave: no password or token hashes, no session tokens, no sealed provider
 * secrets (those belong to the association, not to the member).
 */
export async function personalDataOf(db: Db, clock: Clock, userId: string): Promise<PersonalDataExport> {
  return await snapshot(db, async () => {
    const read: Partial<Record<PersonalDataSection, Row[]>> = {}
    // One after the other: a snapshot on SQLite is one connection, and on PostgreSQL one transaction.
    for (const section of sections) read[section.key] = await readSection(db, section, userId)
    const { user, ...lists } = read
    return { format: 'boligkasse-personal-data/1', exportedAt: clock.now().toISOString(), user: user?.[0] ?? {}, ...lists } as PersonalDataExport
  })
}
