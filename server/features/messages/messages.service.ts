import { TZDate } from '@date-fns/tz'
import { format } from 'date-fns'
import { snapshot, transaction, type Db } from '../../db/client'
import { conflict, invalidState, notFound, ruleViolation, validation, versionConflict } from '../../errors'
import { COPENHAGEN, type Clock } from '../../lib/clock'
import { groupBy } from '../../lib/group-by'
import { newId, sha256 } from '../../lib/ids'
import type { WriteLock } from '../../lib/write-lock'
import { sanitizeHtml } from '../../lib/sanitize-html'
import { queueMail } from '../../integrations/mail/mail-outbox'
import { decodeCursor, pageOf } from '../../http/paging'
import { localeOf } from '../../../shared/contract/common'
import {
  MAX_ATTACHMENT_BYTES,
  MAX_ATTACHMENTS,
  type AnonymousMessageRequest,
  type CreateMessageRequest,
  type Message,
  type MessageListQuery,
  type MessageStatus,
  type MessageType,
  type RecipientTarget,
  type SendMessageRequest,
  type UpdateMessageRequest,
} from '../../../shared/contract/messages'
import { messages as m } from '../../../shared/i18n-messages'
import type { Actor } from '../../access/actor'
import { assertMayWriteMessage, assertMessageAuthor, canReadMessage, isSuperAdmin, roleIn, seesAllRecipients } from '../../access/policy'
import type { CompaniesService } from '../companies'
import type { ResidencyService } from '../agreements'
import { assertCompanyInScope } from '../companies'
import type { NotificationsService } from '../notifications'
import { recordChange } from '../sync'
import type { SyncedEntity } from '../sync'
import { acceptUpload, sweepStore, type AttachmentScanner, type AttachmentStore, type StorageQuota } from '../../integrations/files/attachment-store'
import { renderMessageEmail } from './message-email'
import { messagesRepository as repo, type MessageRow, type MessageScope, type Person } from './messages.repository'

/** Copenhagen wall time `YYYY-MM-DDTHH:mm` → UTC instant (daylight saving handled by @date-fns/tz). */
export function copenhagenToInstant(local: string): string {
  const [d, t] = local.split('T') as [string, string]
  const [y, mo, da] = d.split('-').map(Number) as [number, number, number]
  const [h, mi] = t.split(':').map(Number) as [number, number]
  const date = new TZDate(y, mo - 1, da, h, mi, COPENHAGEN)
  if (Number.isNaN(date.getTime()) || date.getDate() !== da) throw validation([{ path: 'scheduledAt', message: m.messageScheduleInvalid.id }])
  return new Date(date.getTime()).toISOString()
}

export const instantToCopenhagen = (iso: string): string => format(new TZDate(new Date(iso), COPENHAGEN), "yyyy-MM-dd'T'HH:mm")

const scopeOf = (actor: Actor): MessageScope => ({ userId: actor.userId, staffOf: isSuperAdmin(actor) ? 'all' : actor.companies.map((c) => c.id) })

const TITLES: Record<MessageType, { id: string }> = {
  MESSAGE: /*i18n*/ { id: 'New message: {subject}' },
  NOTICE: /*i18n*/ { id: 'New notice: {subject}' },
  REMINDER: /*i18n*/ { id: 'Reminder: {subject}' },
}
const INTROS: Record<MessageType, { id: string }> = {
  MESSAGE: /*i18n*/ { id: '{sender} from {association} sent you a message.' },
  NOTICE: /*i18n*/ { id: '{sender} from {association} sent you a notice.' },
  REMINDER: /*i18n*/ { id: '{sender} from {association} sent you a reminder.' },
}
const ANONYMOUS_TITLE = /*i18n*/ { id: 'Anonymous message to the board: {subject}' }
const ANONYMOUS_INTRO = /*i18n*/ { id: 'A member of {association} wrote to the board anonymously. Nobody, not even Boligkasse, can see who sent it.' }

export interface MessagesDeps {
  db: Db
  clock: Clock
  lock: WriteLock
  publicUrl: string
  companies: CompaniesService
  notifications: NotificationsService
  files: AttachmentStore
  scanner: AttachmentScanner
  /** The association's storage quota, asked by every upload (docs/decisions/0082). */
  quota: StorageQuota
  /** Who is a resident, and every member of an association (the agreements module). */
  residency: Pick<ResidencyService, 'isResident' | 'memberCompanyIds' | 'members' | 'residentsAt'>
}

/** How old a stored file with no attachment row must be before the sweep removes it: far longer than any upload's transaction. */
export const FILE_SWEEP_GRACE_MS = 3_600_000

/**
 * Messages (docs/decisions/0025-messages.md): drafts, sending now or at a Copenhagen time, delivery in the app and by
 * e-mail in each recipient's language, received/viewed tracking, attachments, and anonymous
 * messages to the board that keep no trace of their sender.
 */
export class MessagesService {
  constructor(private readonly deps: MessagesDeps) {}

  private now() {
    return this.deps.clock.now().toISOString()
  }

  /**
   * The messages as `actor` sees them (every recipient for the author and staff, else only the
   * actor's own line): senders, recipients, company names and attachments in one statement each
   * for the whole set, so a page costs the same however many it holds.
   */
  private async views(actor: Actor | null, rows: MessageRow[]): Promise<Message[]> {
    if (!rows.length) return []
    const ids = rows.map((r) => r.id)
    const senders = await repo.people(this.deps.db, [...new Set(rows.flatMap((r) => (r.senderUserId ? [r.senderUserId] : [])))])
    const names = await repo.companyNames(this.deps.db, [...new Set(rows.map((r) => r.companyId))])
    const recipientsOf = groupBy(await repo.recipientsOfAll(this.deps.db, ids), (r) => r.messageId)
    const attachmentsOf = groupBy(await repo.attachmentsOfAll(this.deps.db, ids), (a) => a.messageId)
    return rows.map((row) => {
      const sender = row.senderUserId ? senders.get(row.senderUserId) : undefined
      const all = recipientsOf.get(row.id) ?? []
      const recipients = actor && !seesAllRecipients(actor, row) ? all.filter((r) => r.userId === actor.userId) : all
      return {
        id: row.id,
        companyId: row.companyId,
        companyName: names.get(row.companyId) ?? '',
        type: row.type,
        subject: row.subject,
        body: row.body,
        status: row.status,
        anonymous: row.anonymous,
        sender: sender ? { id: sender.id, fullName: sender.fullName, emailAddress: sender.emailAddress } : null,
        recipient: { kind: row.recipientKind, userId: row.recipientUserId, addressId: row.recipientAddressId, label: row.recipientLabel },
        recipients: recipients.map((r) => ({
          id: r.id,
          userId: r.userId,
          fullName: r.fullName,
          emailAddress: r.emailAddress,
          receivedAt: r.receivedAt,
          viewedAt: r.viewedAt,
        })),
        attachments: (attachmentsOf.get(row.id) ?? []).map((a) => ({ id: a.id, name: a.name, contentType: a.contentType, size: a.size })),
        scheduledAt: row.status === 'DRAFT' && row.sendAt ? instantToCopenhagen(row.sendAt) : null,
        sendAt: row.sendAt,
        sentAt: row.sentAt,
        createdAt: row.createdAt,
        updatedAt: row.updatedAt,
        version: row.version,
      }
    })
  }

  private async viewOf(actor: Actor | null, row: MessageRow): Promise<Message> {
    return (await this.views(actor, [row]))[0]!
  }

  /** The message as the actor may see it; 404 when they may not (never revealing it exists). */
  private async readable(actor: Actor, id: string): Promise<MessageRow> {
    const row = await repo.byId(this.deps.db, id)
    if (!row || !canReadMessage(actor, row, (await repo.recipientOf(this.deps.db, id, actor.userId)) !== undefined)) throw notFound(m.messageNotFound.id)
    return row
  }

  private async ownDraft(actor: Actor, id: string, version?: number): Promise<MessageRow> {
    const row = await this.readable(actor, id)
    assertMessageAuthor(actor, row)
    if (row.status !== 'DRAFT') throw invalidState(m.messageNotDraft.id)
    if (version !== undefined && version !== row.version) throw versionConflict(await this.viewOf(actor, row))
    return row
  }

  /** Checks the target belongs to the company; answers what is stored about it. */
  private async target(companyId: string, recipient: RecipientTarget, author: 'staff' | 'resident') {
    if (author === 'resident' && recipient.kind !== 'BOARD') throw ruleViolation(m.messageResidentToBoard.id, 'recipient')
    if (recipient.kind === 'MEMBER') {
      const person = await repo.person(this.deps.db, recipient.userId)
      const member =
        person && ((await this.deps.residency.isResident(person.id, companyId)) || (await repo.board(this.deps.db, companyId)).some((b) => b.id === person.id))
      if (!member) throw ruleViolation(m.messageRecipientNotInCompany.id, 'recipient')
      return { recipientKind: 'MEMBER' as const, recipientUserId: person.id, recipientAddressId: null, recipientLabel: person.fullName }
    }
    if (recipient.kind === 'ADDRESS') {
      const address = await repo.address(this.deps.db, recipient.addressId)
      if (!address || address.companyId !== companyId) throw ruleViolation(m.messageRecipientNotInCompany.id, 'recipient')
      const floorSide = [address.floor, address.side].filter(Boolean).join(' ')
      const label = `${address.street} ${address.number}${floorSide ? `, ${floorSide}` : ''}, ${address.zip} ${address.city}`
      return { recipientKind: 'ADDRESS' as const, recipientUserId: null, recipientAddressId: address.id, recipientLabel: label }
    }
    return { recipientKind: recipient.kind, recipientUserId: null, recipientAddressId: null, recipientLabel: null }
  }

  private scheduleOf(scheduledAt: string | null | undefined): string | null {
    if (!scheduledAt) return null
    const at = copenhagenToInstant(scheduledAt)
    if (at <= this.now()) throw validation([{ path: 'scheduledAt', message: m.messageScheduleInPast.id }])
    return at
  }

  /** Everyone the message reaches now (the audience is fixed when it is sent, not when drafted). */
  private async audience(row: MessageRow): Promise<Person[]> {
    const people: Person[] = await (async () => {
      switch (row.recipientKind) {
        case 'MEMBER':
          return row.recipientUserId ? [await repo.person(this.deps.db, row.recipientUserId)].filter((p): p is Person => !!p) : []
        case 'BOARD':
          return await repo.board(this.deps.db, row.companyId)
        case 'ALL_MEMBERS':
          return await this.deps.residency.members(row.companyId)
        case 'ADDRESS':
          return row.recipientAddressId ? await this.deps.residency.residentsAt(row.recipientAddressId) : []
      }
    })()
    const unique = new Map(people.map((p) => [p.id, p]))
    // A named sender does not receive their own message. An anonymous one is never left out:
    // a board member missing from the list would name the sender.
    if (row.senderUserId) unique.delete(row.senderUserId)
    return [...unique.values()]
  }

  private async changed(row: MessageRow, extraUsers: string[] = []) {
    if (row.status === 'DRAFT') {
      if (row.senderUserId) await recordChange(this.deps.db, this.deps.clock, 'message', row.id, 'upsert', { userId: row.senderUserId })
      return
    }
    await recordChange(this.deps.db, this.deps.clock, 'message', row.id, 'upsert', { companyId: row.companyId })
    const users = new Set(extraUsers)
    if (row.senderUserId) users.add(row.senderUserId)
    for (const userId of users) await recordChange(this.deps.db, this.deps.clock, 'message', row.id, 'upsert', { userId })
  }

  /**
   * Fixes the recipients and delivers: an in-app notification and an e-mail per recipient, in
   * their language. Runs inside the caller's transaction, so a rollback delivers nothing.
   */
  private async deliver(row: MessageRow): Promise<number> {
    const people = await this.audience(row)
    if (!people.length) throw ruleViolation(m.messageNoRecipients.id, 'recipient')
    const at = this.now()
    const association = (await repo.companyName(this.deps.db, row.companyId)) ?? ''
    const sender = row.senderUserId ? await repo.person(this.deps.db, row.senderUserId) : undefined
    const values = { subject: row.subject, association, sender: sender?.fullName ?? '' }
    const title = row.anonymous ? ANONYMOUS_TITLE : TITLES[row.type]
    const intro = row.anonymous ? ANONYMOUS_INTRO : INTROS[row.type]
    const url = `/messages/${row.id}`
    for (const p of people) {
      const locale = localeOf(p.language)
      await this.deps.notifications.notify(p.id, { type: 'info', title, message: intro, values, actionUrl: url, actionText: /*i18n*/ { id: 'Open message' } })
      const mail = renderMessageEmail(locale, { recipientName: p.fullName, title, intro, values, body: row.body, url: `${this.deps.publicUrl}${url}` })
      const mailId = await queueMail(this.deps.db, this.deps.clock, { to: p.emailAddress, ...mail })
      await repo.insertRecipient(this.deps.db, {
        id: newId(),
        messageId: row.id,
        userId: p.id,
        emailAddress: p.emailAddress,
        fullName: p.fullName,
        mailId,
        createdAt: at,
      })
    }
    await repo.update(this.deps.db, row.id, { status: 'SENT', sentAt: at, sendAt: row.sendAt, updatedAt: at })
    await this.changed(
      (await repo.byId(this.deps.db, row.id))!,
      people.map((p) => p.id),
    )
    return people.length
  }

  /** DELIVERED once every recipient received it, READ once every one opened it; never backwards. */
  private async settle(messageId: string, touchedUser?: string) {
    const row = (await repo.byId(this.deps.db, messageId))!
    const recipients = await repo.recipients(this.deps.db, messageId)
    const rank: Record<MessageStatus, number> = { DRAFT: 0, SENT: 1, DELIVERED: 2, READ: 3 }
    const next: MessageStatus =
      recipients.every((r) => r.viewedAt) ? 'READ'
      : recipients.every((r) => r.receivedAt) ? 'DELIVERED'
      : 'SENT'
    await repo.update(this.deps.db, messageId, rank[next] > rank[row.status] ? { status: next, updatedAt: this.now() } : { updatedAt: this.now() })
    await this.changed((await repo.byId(this.deps.db, messageId))!, touchedUser ? [touchedUser] : [])
  }

  async view(actor: Actor, id: string): Promise<Message> {
    return await this.viewOf(actor, await this.readable(actor, id))
  }

  /** `companyId` of a company the caller has nothing to do with (or that does not exist) answers 404 (decision 0033). */
  /** A page of the list, newest first (docs/API.md "Lists"); the cursor only says where to start, never what the caller sees. */
  async list(actor: Actor, query: MessageListQuery): Promise<{ items: Message[]; next: string | null }> {
    const after = decodeCursor(query.cursor, ['string', 'string'])
    const scope = scopeOf(actor)
    const filter = { companyId: query.companyId, status: query.status }
    // One read transaction: the rows and their recipients and attachments from the same snapshot.
    return await snapshot(this.deps.db, async () => {
      const rows = await repo.listPage(this.deps.db, scope, filter, after, query.limit + 1)
      // Reading one of its messages (a former member of its staff, say) is a link to the company
      // too: any of them, not only those after the cursor.
      const related = async () => (after ? await repo.listPage(this.deps.db, scope, filter, undefined, 1) : rows).length > 0
      if (filter.companyId !== undefined) await assertCompanyInScope(this.deps.db, actor, filter.companyId, related)
      const page = pageOf(rows, query.limit, (r) => [r.createdAt, r.id])
      return { items: await this.views(actor, page.rows), next: page.next }
    })
  }

  async create(actor: Actor, input: CreateMessageRequest & { type: MessageType }): Promise<Message> {
    if (input.id) {
      const existing = await repo.byId(this.deps.db, input.id)
      if (existing) {
        // The same draft sent again (a retry from the outbox) answers the stored one.
        if (existing.senderUserId === actor.userId && existing.subject === input.subject && existing.companyId === input.companyId)
          return this.viewOf(actor, existing)
        throw conflict(m.billingRecordExists.id, 'id')
      }
    }
    const author = assertMayWriteMessage(actor, input.companyId, await this.deps.residency.isResident(actor.userId, input.companyId))
    await this.deps.companies.assertWritable(input.companyId)
    const id = input.id ?? newId()
    const at = this.now()
    await repo.insert(this.deps.db, {
      id,
      companyId: input.companyId,
      senderUserId: actor.userId,
      type: author === 'resident' ? 'MESSAGE' : input.type,
      subject: input.subject,
      body: sanitizeHtml(input.body),
      ...(await this.target(input.companyId, input.recipient, author)),
      sendAt: this.scheduleOf(input.scheduledAt),
      createdAt: at,
      updatedAt: at,
    })
    const row = (await repo.byId(this.deps.db, id))!
    await this.changed(row)
    return this.viewOf(actor, row)
  }

  async update(actor: Actor, id: string, input: UpdateMessageRequest, version?: number): Promise<Message> {
    const row = await this.ownDraft(actor, id, version)
    const author = assertMayWriteMessage(actor, row.companyId, await this.deps.residency.isResident(actor.userId, row.companyId))
    await this.deps.companies.assertWritable(row.companyId)
    await repo.update(this.deps.db, id, {
      ...(input.type && author === 'staff' ? { type: input.type } : {}),
      ...(input.subject !== undefined ? { subject: input.subject } : {}),
      ...(input.body !== undefined ? { body: sanitizeHtml(input.body) } : {}),
      ...(input.recipient ? await this.target(row.companyId, input.recipient, author) : {}),
      ...(input.scheduledAt !== undefined ? { sendAt: this.scheduleOf(input.scheduledAt) } : {}),
      updatedAt: this.now(),
    })
    const after = (await repo.byId(this.deps.db, id))!
    await this.changed(after)
    return this.viewOf(actor, after)
  }

  async remove(actor: Actor, id: string): Promise<void> {
    const row = await this.ownDraft(actor, id)
    // Its files go with the next sweep (`sweepFiles`), once the delete has committed.
    await repo.delete(this.deps.db, id)
    await recordChange(this.deps.db, this.deps.clock, 'message', id, 'delete', { userId: row.senderUserId })
  }

  /** Sends a draft now, or schedules it when `scheduledAt` lies ahead. */
  async send(actor: Actor, id: string, input: SendMessageRequest): Promise<Message> {
    const row = await this.ownDraft(actor, id)
    await this.deps.companies.assertWritable(row.companyId)
    if (input.scheduledAt) {
      await repo.update(this.deps.db, id, { sendAt: this.scheduleOf(input.scheduledAt), updatedAt: this.now() })
      await this.changed((await repo.byId(this.deps.db, id))!)
    } else {
      await this.deliver({ ...row, sendAt: null })
    }
    return this.viewOf(actor, (await repo.byId(this.deps.db, id))!)
  }

  /** The recipient opened it (also counts as received). Repeating it changes nothing. */
  async markViewed(actor: Actor, id: string): Promise<Message> {
    const row = await this.readable(actor, id)
    const mine = await repo.recipientOf(this.deps.db, id, actor.userId)
    if (mine && !mine.viewedAt) {
      const at = this.now()
      await repo.updateRecipient(this.deps.db, mine.id, { viewedAt: at, receivedAt: mine.receivedAt ?? at })
      await this.settle(id, actor.userId)
    }
    return await this.viewOf(actor, (await repo.byId(this.deps.db, id)) ?? row)
  }

  /**
   * A message to the board that nobody can trace back (docs/decisions/0027-anonymous-messages-leave-no-trace-of-their-sender.md). The route runs outside the
   * request transaction (no idempotency record, which is keyed by the user) and is not logged;
   * here the row has no sender, the change log names only the company and the recipients, and
   * the caller's id is used for the permission check alone.
   */
  async sendAnonymous(actor: Actor, input: AnonymousMessageRequest): Promise<{ sent: true; recipients: number }> {
    return this.deps.lock.run(() =>
      transaction(this.deps.db, async () => {
        assertMayWriteMessage(actor, input.companyId, await this.deps.residency.isResident(actor.userId, input.companyId))
        await this.deps.companies.assertWritable(input.companyId)
        const at = this.now()
        const row: MessageRow = {
          id: newId(),
          companyId: input.companyId,
          senderUserId: null,
          anonymous: true,
          type: 'MESSAGE',
          subject: input.subject,
          body: sanitizeHtml(input.body),
          status: 'DRAFT',
          recipientKind: 'BOARD',
          recipientUserId: null,
          recipientAddressId: null,
          recipientLabel: null,
          sendAt: null,
          sentAt: null,
          version: 1,
          createdAt: at,
          updatedAt: at,
        }
        await repo.insert(this.deps.db, row)
        return { sent: true as const, recipients: await this.deliver(row) }
      }),
    )
  }

  /**
   * The job: sends scheduled drafts whose time has come, then marks recipients whose e-mail has
   * left the mail outbox as received. Safe to run at any time; each message is sent once.
   */
  async tick(): Promise<{ sent: number; received: number }> {
    let sent = 0
    for (const due of await repo.dueScheduled(this.deps.db, this.now())) {
      try {
        // Read again inside: the author may have sent, edited or rescheduled it meanwhile (on
        // PostgreSQL nothing holds the job and the author's request apart but the transaction).
        const delivered = await transaction(this.deps.db, async () => {
          const row = await repo.byId(this.deps.db, due.id)
          if (!row || row.status !== 'DRAFT' || !row.sendAt || row.sendAt > this.now()) return false
          await this.deliver(row)
          return true
        })
        if (delivered) sent += 1
      } catch {
        // Nobody to send to (anymore): it stays a draft, unscheduled, for its author to fix.
        await transaction(this.deps.db, async () => {
          await repo.update(this.deps.db, due.id, { sendAt: null, updatedAt: this.now() })
          await this.changed((await repo.byId(this.deps.db, due.id))!)
        })
      }
    }
    const mailed = await repo.mailedNotReceived(this.deps.db)
    await transaction(this.deps.db, async () => {
      for (const r of mailed) await repo.updateRecipient(this.deps.db, r.recipientId, { receivedAt: r.sentAt ?? this.now() })
      for (const messageId of new Set(mailed.map((r) => r.messageId))) await this.settle(messageId)
    })
    return { sent, received: mailed.length }
  }

  async addAttachment(actor: Actor, id: string, file: { name: string; bytes: Uint8Array }) {
    const row = await this.ownDraft(actor, id)
    if (file.bytes.byteLength > MAX_ATTACHMENT_BYTES) throw ruleViolation(m.attachmentTooLarge.id, 'file')
    if ((await repo.attachments(this.deps.db, id)).length >= MAX_ATTACHMENTS) throw ruleViolation(m.attachmentTooMany.id, 'file')
    const { name, contentType } = await acceptUpload(this.deps.scanner, file, { quota: this.deps.quota, companyId: row.companyId })
    const attachmentId = newId()
    // Written before the row: a rollback leaves an orphan file (harmless), never a row without bytes.
    this.deps.files.write(id, attachmentId, file.bytes)
    await repo.insertAttachment(this.deps.db, {
      id: attachmentId,
      messageId: id,
      name,
      contentType,
      size: file.bytes.byteLength,
      sha256: sha256(Buffer.from(file.bytes).toString('binary')),
      createdAt: this.now(),
    })
    await repo.update(this.deps.db, id, { updatedAt: this.now() })
    await this.changed((await repo.byId(this.deps.db, id))!)
    return this.viewOf(actor, (await repo.byId(this.deps.db, row.id))!)
  }

  async removeAttachment(actor: Actor, id: string, attachmentId: string): Promise<Message> {
    await this.ownDraft(actor, id)
    if (!(await repo.attachment(this.deps.db, id, attachmentId))) throw notFound()
    await repo.deleteAttachment(this.deps.db, attachmentId)
    await repo.update(this.deps.db, id, { updatedAt: this.now() })
    await this.changed((await repo.byId(this.deps.db, id))!)
    return this.viewOf(actor, (await repo.byId(this.deps.db, id))!)
  }

  /** The bytes of an attachment, for those who may read the message (404 otherwise). */
  async attachment(actor: Actor, id: string, attachmentId: string) {
    await this.readable(actor, id)
    const a = await repo.attachment(this.deps.db, id, attachmentId)
    if (!a) throw notFound()
    return { name: a.name, contentType: a.contentType, bytes: this.deps.files.read(id, attachmentId) }
  }

  /** The bytes of the attachments of the company's messages (the storage quota's part, docs/decisions/0082). */
  async storedBytes(companyId: string): Promise<number> {
    return await repo.storedBytes(this.deps.db, companyId)
  }

  /** Removes the stored files no attachment row refers to (attachment-store.ts `sweepStore`); housekeeping runs it. */
  async sweepFiles(graceMs = FILE_SWEEP_GRACE_MS): Promise<number> {
    return await sweepStore(this.deps.files, async (ids) => await repo.attachmentIds(this.deps.db, ids), graceMs)
  }

  /** Companies the actor may write in: staff roles, then those where they are a resident. */
  async writableCompanyIds(actor: Actor): Promise<string[]> {
    return await this.deps.residency.memberCompanyIds(actor)
  }

  isStaffIn(actor: Actor, companyId: string) {
    return isSuperAdmin(actor) || roleIn(actor, companyId) !== undefined
  }

  /** The rows as the sync sends them to this actor: a page's views in a constant number of statements. */
  async syncViews(actor: Actor, rows: MessageRow[]): Promise<Message[]> {
    return await this.views(actor, rows)
  }
}

export const createMessagesService = (deps: MessagesDeps) => new MessagesService(deps)

/** Messages in the offline store: the caller's drafts and the sent messages they may read, shaped for them. */
export const messageSync = (messages: { syncViews: (actor: Actor, rows: MessageRow[]) => Promise<Message[]> }): SyncedEntity => ({
  name: 'message',
  snapshot: async (db, actor, afterId, limit) => (await messages.syncViews(actor, await repo.page(db, scopeOf(actor), afterId, limit))).map(synced),
  load: async (db, actor, ids) => (await messages.syncViews(actor, await repo.byIds(db, scopeOf(actor), ids))).map(synced),
})

const synced = (message: Message) => ({ id: message.id, version: message.version, data: message as unknown as Record<string, unknown> })
