/**
 * Drafts of messages (decision 0025): written, edited, sent and deleted through the outbox, so a board
 * member can prepare a notice offline at the meeting; the server's answered row replaces the local
 * guess. Opening a received message is queued too (opened tracking works offline and lands once).
 * An anonymous message is NOT queued (see anonymous.ts): nothing of it may stay on the device.
 */
import { msg } from '@lingui/core/macro'
import type { CreateMessageRequest, Message, RecipientTarget, SendMessageRequest, UpdateMessageRequest } from '../../../shared/contract/messages'
import type { Mutation, Row } from '../../sync/local-db'
import { formats } from '../../sync/field-format'
import { same, type Values } from '../../sync/merge'
import { registerMutationKind, type EditField } from '../../sync/mutation-kinds'
import { viewRowOf } from '../../sync/outbox'
import { answerAsRow, reduce } from '../../sync/optimistic'
import { lastChangeOf, pendingCreate as pendingCreateOf } from '../../sync/queue-reads'
import type { SyncHandle } from '../../sync/use-sync'
import { messageTypeLabels } from './labels'

export const MESSAGE_CREATE = 'message.create'
export const MESSAGE_UPDATE = 'message.update'
export const MESSAGE_SEND = 'message.send'
export const MESSAGE_DELETE = 'message.delete'
export const MESSAGE_VIEW = 'message.view'

/** What the list and view show of a draft written here until the server's row arrives. */
export interface DraftPreview {
  sender: Message['sender']
  companyName: string
  recipientLabel: string | null
}

const recipientOf = (target: RecipientTarget, label: string | null): Message['recipient'] => ({
  kind: target.kind,
  userId: target.kind === 'MEMBER' ? target.userId : null,
  addressId: target.kind === 'ADDRESS' ? target.addressId : null,
  label,
})

registerMutationKind(MESSAGE_CREATE, {
  reducer: reduce.insert((m) => {
    const body = m.body as CreateMessageRequest & { id: string }
    const preview = m.preview as DraftPreview | undefined
    const at = new Date(m.createdAt).toISOString()
    const row: Omit<Message, 'version'> = {
      id: body.id,
      companyId: body.companyId,
      companyName: preview?.companyName ?? '',
      type: body.type ?? 'MESSAGE',
      subject: body.subject.trim(),
      body: body.body.trim(),
      status: 'DRAFT',
      anonymous: false,
      sender: preview?.sender ?? null,
      recipient: recipientOf(body.recipient, preview?.recipientLabel ?? null),
      recipients: [],
      attachments: [],
      scheduledAt: body.scheduledAt ?? null,
      sendAt: null,
      sentAt: null,
      createdAt: at,
      updatedAt: at,
    }
    return { ...row, _version: 0 } as Row
  }),
  label: msg`Write message`,
  failed: msg`Failed to save the message`,
  answeredRow: answerAsRow,
})

/** A recipient as the merge compares it: who, without the label (which the two sides word differently). */
const comparableRecipient = (r: unknown) => {
  const t = (r ?? {}) as { kind?: string; userId?: string | null; addressId?: string | null }
  if (!t.kind) return null
  return { kind: t.kind, ...(t.kind === 'MEMBER' ? { userId: t.userId } : {}), ...(t.kind === 'ADDRESS' ? { addressId: t.addressId } : {}) }
}

const recipientKinds = { ALL_MEMBERS: msg`All members`, BOARD: msg`The board`, MEMBER: msg`One member`, ADDRESS: msg`One address` }

/** The fields a draft edit can change, as the conflict screen names and shows them. */
export const messageEditFields: EditField[] = [
  { name: 'type', label: msg`Type`, format: formats.oneOf(messageTypeLabels) },
  { name: 'subject', label: msg`Subject`, format: formats.text },
  { name: 'body', label: msg`Message`, format: formats.excerpt },
  {
    name: 'recipient',
    label: msg`Recipient`,
    fromRow: (row) => comparableRecipient(row.recipient),
    format: (v, ctx) => formats.oneOf(recipientKinds)((v as { kind?: string } | null)?.kind, ctx),
  },
  { name: 'scheduledAt', label: msg`Send at`, format: formats.localDateTime },
]

registerMutationKind(MESSAGE_UPDATE, {
  reducer: reduce.patch((_row, m) => {
    const body = m.body as UpdateMessageRequest
    const label = (m.preview as { recipientLabel?: string | null } | undefined)?.recipientLabel ?? null
    return {
      ...(body.subject !== undefined ? { subject: body.subject.trim() } : {}),
      ...(body.body !== undefined ? { body: body.body.trim() } : {}),
      ...(body.type ? { type: body.type } : {}),
      ...(body.recipient ? { recipient: recipientOf(body.recipient, label) } : {}),
      ...(body.scheduledAt !== undefined ? { scheduledAt: body.scheduledAt } : {}),
    }
  }),
  label: msg`Edit message`,
  failed: msg`Failed to save the message`,
  answeredRow: answerAsRow,
  merge: {
    fields: () => messageEditFields,
    mine: (m) => {
      const body = m.body as UpdateMessageRequest
      const values: Values = {}
      if (body.type !== undefined) values.type = body.type
      if (body.subject !== undefined) values.subject = body.subject.trim()
      if (body.body !== undefined) values.body = body.body.trim()
      if (body.recipient !== undefined) values.recipient = comparableRecipient(body.recipient)
      if (body.scheduledAt !== undefined) values.scheduledAt = body.scheduledAt
      return values
    },
    body: (values) => values,
  },
})

registerMutationKind(MESSAGE_SEND, {
  // Until the server answers it is on its way: shown as Sent (or still a scheduled draft).
  reducer: reduce.patch((_row, m) => {
    const body = (m.body ?? {}) as SendMessageRequest
    return body.scheduledAt ? { scheduledAt: body.scheduledAt } : { status: 'SENT', sentAt: new Date(m.createdAt).toISOString() }
  }),
  label: msg`Send message`,
  failed: msg`Failed to send the message`,
  answeredRow: answerAsRow,
})

registerMutationKind(MESSAGE_DELETE, {
  reducer: reduce.remove(),
  label: msg`Delete draft`,
  failed: msg`Failed to delete the draft`,
})

registerMutationKind(MESSAGE_VIEW, {
  reducer: reduce.patch((row, m) => {
    const userId = (m.preview as { userId?: string } | undefined)?.userId
    const at = new Date(m.createdAt).toISOString()
    const recipients = ((row.recipients as Message['recipients'] | undefined) ?? []).map((r) =>
      r.userId === userId && !r.viewedAt ? { ...r, viewedAt: at, receivedAt: r.receivedAt ?? at } : r,
    )
    return { recipients }
  }),
  label: msg`Mark message as read`,
  failed: msg`Message not found.`,
  answeredRow: answerAsRow,
})

/** The create of this draft, while it still waits in the outbox: later changes depend on it. */
const pendingCreate = ({ db }: SyncHandle, id: string): Promise<Mutation | undefined> => pendingCreateOf(db, id, MESSAGE_CREATE)

/** POST /messages with a client-made id, so a draft written offline keeps it. */
export const createDraft = ({ engine }: SyncHandle, body: CreateMessageRequest & { id: string }, preview: DraftPreview) =>
  engine.mutate({
    kind: MESSAGE_CREATE,
    method: 'POST',
    path: '/messages',
    body,
    preview: preview as unknown as Record<string, unknown>,
    entity: 'message',
    entityId: body.id,
  })

/**
 * Only what the user changed against the draft as it was when the form opened: an unchanged field
 * is not sent, so it can never take back a change made meanwhile on another device (the merge after
 * the 412 keeps that one). Null when nothing changed.
 */
export function changedDraftFields(opened: Record<string, unknown>, edit: UpdateMessageRequest): UpdateMessageRequest | null {
  const changes: UpdateMessageRequest = {}
  if (edit.type !== undefined && edit.type !== opened.type) changes.type = edit.type
  if (edit.subject !== undefined && edit.subject.trim() !== opened.subject) changes.subject = edit.subject
  if (edit.body !== undefined && edit.body.trim() !== opened.body) changes.body = edit.body
  if (edit.recipient !== undefined && !same(comparableRecipient(edit.recipient), comparableRecipient(opened.recipient))) changes.recipient = edit.recipient
  if (edit.scheduledAt !== undefined && (edit.scheduledAt ?? null) !== (opened.scheduledAt ?? null)) changes.scheduledAt = edit.scheduledAt
  return Object.keys(changes).length ? changes : null
}

/**
 * PATCH /messages/{id} with the fields the user changed, If-Match the version of the draft the form
 * was opened on (`opened`, whose values are the base of a later three-way merge). Resolves to null
 * when nothing changed (nothing is queued).
 */
export async function updateDraft(
  handle: SyncHandle,
  opened: Record<string, unknown> & { id: string; _version: number },
  edit: UpdateMessageRequest,
  recipientLabel: string | null,
) {
  // Given only the id and version, the draft as it shows now is what the user edited.
  const draft = 'subject' in opened ? opened : ((await viewRowOf(handle.db, 'message', opened.id)) ?? opened)
  const body = changedDraftFields(draft, edit)
  if (!body) return null
  const create = await pendingCreate(handle, draft.id)
  return handle.engine.mutate({
    kind: MESSAGE_UPDATE,
    method: 'PATCH',
    path: `/messages/${draft.id}`,
    body,
    preview: { recipientLabel },
    baseRow: draft,
    entity: 'message',
    entityId: draft.id,
    // A draft written here has no server version yet: its create answers with version 1.
    baseVersion: create ? 1 : draft._version,
    dependsOn: create?.mutationId,
  })
}

export async function sendDraft(handle: SyncHandle, id: string, body: SendMessageRequest = {}) {
  const create = await pendingCreate(handle, id)
  const previous = await lastChangeOf(handle.db, id)
  return handle.engine.mutate({
    kind: MESSAGE_SEND,
    method: 'POST',
    path: `/messages/${id}/send`,
    body,
    entity: 'message',
    entityId: id,
    dependsOn: previous?.mutationId ?? create?.mutationId,
  })
}

export async function deleteDraft(handle: SyncHandle, id: string) {
  const create = await pendingCreate(handle, id)
  return handle.engine.mutate({
    kind: MESSAGE_DELETE,
    method: 'DELETE',
    path: `/messages/${id}`,
    entity: 'message',
    entityId: id,
    dependsOn: create?.mutationId,
  })
}

/** Opened tracking: queued once per opening of an unread message. */
export const markViewed = ({ engine }: SyncHandle, id: string, userId: string) =>
  engine.mutate({ kind: MESSAGE_VIEW, method: 'POST', path: `/messages/${id}/view`, preview: { userId }, entity: 'message', entityId: id })
