import { msg } from '@lingui/core/macro'
import type { MessageDescriptor } from '@lingui/core'
import type { Message, MessageStatus, MessageType } from '../../../shared/contract/messages'

export const messageStatusLabels: Record<MessageStatus, MessageDescriptor> = {
  DRAFT: msg`Draft`,
  SENT: msg`Sent`,
  DELIVERED: msg`Delivered`,
  READ: msg`Read`,
}

export const messageTypeLabels: Record<MessageType, MessageDescriptor> = {
  MESSAGE: msg`Message`,
  NOTICE: msg`Notice`,
  REMINDER: msg`Reminder`,
}

/** The type as a word inside the footer sentence ("The message was a notice sent by …"). */
export const messageTypeWords: Record<MessageType, MessageDescriptor> = {
  MESSAGE: msg`message`,
  NOTICE: msg`notice`,
  REMINDER: msg`reminder`,
}

export const statusBadge = (status: MessageStatus): 'neutral' | 'info' | 'success' | 'warning' =>
  status === 'DRAFT' ? 'neutral'
  : status === 'SENT' ? 'info'
  : status === 'DELIVERED' ? 'warning'
  : 'success'

/** Who a message goes to, as the list's recipient column shows it. */
export function recipientText(recipient: Message['recipient'] | undefined, translate: (d: MessageDescriptor) => string): string {
  if (!recipient) return ''
  if (recipient.kind === 'ALL_MEMBERS') return translate(msg`All members`)
  if (recipient.kind === 'BOARD') return translate(msg`The board`)
  return recipient.label ?? ''
}
