import { and, asc, eq, inArray, or } from 'drizzle-orm'
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
import { marketListings } from '../../db/schema/market'
import { messageRecipients, messages } from '../../db/schema/messages'
import { notifications } from '../../db/schema/notifications'
import { authMethods, sessions, users } from '../../db/schema/users'
import type { PersonalDataExport } from '../../../shared/contract/personal-data'
import type { Clock } from '../../lib/clock'

type Row = Record<string, unknown>

/**
 * Everything the product holds about one user (issue #23, docs/PRIVACY.md "Download"): one
 * set-based read per kind of record, all in one snapshot so the parts agree with each other.
 * Secrets never leave: no password or token hashes, no session tokens, no sealed provider
 * secrets (those belong to the association, not to the member).
 */
export async function personalDataOf(db: Db, clock: Clock, userId: string): Promise<PersonalDataExport> {
  return await snapshot(db, async () => {
    const user = await db
      .select({
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
      })
      .from(users)
      .where(eq(users.id, userId))
      .get()
    // The identifier is the e-mail address, phone number or Vipps MobilePay subject: personal data of theirs.
    const signInMethods = await db
      .select({
        id: authMethods.id,
        type: authMethods.type,
        identifier: authMethods.identifier,
        verifiedAt: authMethods.verifiedAt,
        createdAt: authMethods.createdAt,
      })
      .from(authMethods)
      .where(eq(authMethods.userId, userId))
      .orderBy(asc(authMethods.createdAt), asc(authMethods.id))
      .all()
    const sessionRows = await db
      .select({
        id: sessions.id,
        via: sessions.via,
        createdAt: sessions.createdAt,
        lastUsedAt: sessions.lastUsedAt,
        expiresAt: sessions.expiresAt,
        revokedAt: sessions.revokedAt,
      })
      .from(sessions)
      .where(eq(sessions.userId, userId))
      .orderBy(asc(sessions.createdAt), asc(sessions.id))
      .all()
    const memberships = await db
      .select({ companyId: companyMembers.companyId, companyName: companies.name, role: companyMembers.role, createdAt: companyMembers.createdAt })
      .from(companyMembers)
      .innerJoin(companies, eq(companies.id, companyMembers.companyId))
      .where(eq(companyMembers.userId, userId))
      .orderBy(asc(companies.name))
      .all()
    const agreementRows = await db
      .select()
      .from(agreements)
      .where(eq(agreements.memberUserId, userId))
      .orderBy(asc(agreements.createdAt), asc(agreements.id))
      .all()
    const agreementIds = agreementRows.map((a) => a.id)
    const partRows =
      agreementIds.length ?
        await db
          .select()
          .from(agreementParts)
          .where(inArray(agreementParts.agreementId, agreementIds))
          .orderBy(asc(agreementParts.agreementId), asc(agreementParts.position))
          .all()
      : []
    const chargeRows =
      agreementIds.length ?
        await db
          .select({
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
          })
          .from(charges)
          .where(inArray(charges.agreementId, agreementIds))
          .orderBy(asc(charges.due), asc(charges.id))
          .all()
      : []
    const invoiceRows = await db.select().from(invoices).where(eq(invoices.memberUserId, userId)).orderBy(asc(invoices.issueDate), asc(invoices.number)).all()
    const invoiceIds = invoiceRows.map((i) => i.id)
    const lineRows =
      invoiceIds.length ?
        await db
          .select()
          .from(invoiceLines)
          .where(inArray(invoiceLines.invoiceId, invoiceIds))
          .orderBy(asc(invoiceLines.invoiceId), asc(invoiceLines.position))
          .all()
      : []
    const notificationRows = await db
      .select({
        id: notifications.id,
        title: notifications.title,
        message: notifications.message,
        type: notifications.type,
        isRead: notifications.isRead,
        actionUrl: notifications.actionUrl,
        createdAt: notifications.createdAt,
        readAt: notifications.readAt,
      })
      .from(notifications)
      .where(eq(notifications.userId, userId))
      .orderBy(asc(notifications.createdAt), asc(notifications.id))
      .all()
    const sent = await db
      .select({
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
      })
      .from(messages)
      .where(eq(messages.senderUserId, userId))
      .orderBy(asc(messages.createdAt), asc(messages.id))
      .all()
    // A received message shows what they got: never who sent an anonymous one (decision 0027).
    const received = await db
      .select({
        id: messages.id,
        companyId: messages.companyId,
        type: messages.type,
        subject: messages.subject,
        body: messages.body,
        sentAt: messages.sentAt,
        receivedAt: messageRecipients.receivedAt,
        viewedAt: messageRecipients.viewedAt,
        emailAddress: messageRecipients.emailAddress,
      })
      .from(messageRecipients)
      .innerJoin(messages, eq(messages.id, messageRecipients.messageId))
      .where(eq(messageRecipients.userId, userId))
      .orderBy(asc(messageRecipients.createdAt), asc(messageRecipients.id))
      .all()
    const threads = await db
      .select({
        id: forumThreads.id,
        companyId: forumThreads.companyId,
        title: forumThreads.title,
        authorName: forumThreads.authorName,
        createdAt: forumThreads.createdAt,
      })
      .from(forumThreads)
      .where(eq(forumThreads.authorUserId, userId))
      .orderBy(asc(forumThreads.createdAt), asc(forumThreads.id))
      .all()
    const posts = await db
      .select({
        id: forumPosts.id,
        threadId: forumPosts.threadId,
        companyId: forumPosts.companyId,
        body: forumPosts.body,
        authorName: forumPosts.authorName,
        createdAt: forumPosts.createdAt,
        editedAt: forumPosts.editedAt,
        deletedAt: forumPosts.deletedAt,
      })
      .from(forumPosts)
      .where(eq(forumPosts.authorUserId, userId))
      .orderBy(asc(forumPosts.createdAt), asc(forumPosts.id))
      .all()
    const listings = await db
      .select()
      .from(marketListings)
      .where(or(eq(marketListings.sellerUserId, userId), eq(marketListings.reservedByUserId, userId)))
      .orderBy(asc(marketListings.createdAt), asc(marketListings.id))
      .all()
    const items = await db
      .select()
      .from(lendingItems)
      .where(eq(lendingItems.lenderUserId, userId))
      .orderBy(asc(lendingItems.createdAt), asc(lendingItems.id))
      .all()
    const loanRows = await db
      .select()
      .from(loans)
      .where(or(eq(loans.borrowerUserId, userId), eq(loans.lenderUserId, userId)))
      .orderBy(asc(loans.createdAt), asc(loans.id))
      .all()
    const proposals = await db
      .select()
      .from(assemblyProposals)
      .where(eq(assemblyProposals.authorUserId, userId))
      .orderBy(asc(assemblyProposals.createdAt), asc(assemblyProposals.id))
      .all()
    const documentRows = await db
      .select({
        id: documents.id,
        companyId: documents.companyId,
        title: documents.title,
        category: documents.category,
        fileName: documents.fileName,
        createdAt: documents.createdAt,
      })
      .from(documents)
      .where(eq(documents.uploadedByUserId, userId))
      .orderBy(asc(documents.createdAt), asc(documents.id))
      .all()
    const articleRows = await db
      .select({ id: articles.id, companyId: articles.companyId, title: articles.title, authorName: articles.authorName, createdAt: articles.createdAt })
      .from(articles)
      .where(and(eq(articles.authorUserId, userId)))
      .orderBy(asc(articles.createdAt), asc(articles.id))
      .all()
    const rows = (list: object[]) => list as Row[]
    return {
      format: 'boligkasse-personal-data/1',
      exportedAt: clock.now().toISOString(),
      user: (user ?? {}) as Row,
      signInMethods: rows(signInMethods),
      sessions: rows(sessionRows),
      memberships: rows(memberships),
      agreements: rows(agreementRows.map(({ vippsConfirmationUrl: _url, ...a }) => a)),
      agreementParts: rows(partRows),
      charges: rows(chargeRows),
      invoices: rows(invoiceRows),
      invoiceLines: rows(lineRows),
      notifications: rows(notificationRows),
      messagesSent: rows(sent),
      messagesReceived: rows(received),
      forumThreads: rows(threads),
      forumPosts: rows(posts),
      marketListings: rows(listings),
      lendingItems: rows(items),
      loans: rows(loanRows),
      assemblyProposals: rows(proposals),
      documentsUploaded: rows(documentRows),
      articlesWritten: rows(articleRows),
    }
  })
}
