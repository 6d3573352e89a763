/** Messages from the local copy with queued changes applied, live (they show offline). */
import type { Message } from '../../../shared/contract/messages'
import type { LocalDb, Row } from '../../sync/local-db'
import type { ViewRow } from '../../sync/optimistic'
import { viewWithOutbox } from '../../sync/queue-reads'
import { useSharedQuery, type SharedQuery } from '../../sync/shared-query'
import { useRecord } from '../../sync/use-record'
import type { SyncHandle } from '../../sync/use-sync'
// The reducers must be registered wherever the view is computed.

export type MessageView = Partial<Message> & ViewRow

const listQuery: SharedQuery<MessageView[]> = {
  key: 'messages:all',
  tables: ['messages', 'outbox'],
  read: async (db: LocalDb) => {
    const rows: Row[] = await db.messages.toArray()
    return ((await viewWithOutbox(db, 'message', rows)) as MessageView[]).sort(newestFirst)
  },
}

const newestFirst = (a: MessageView, b: MessageView) => (b.createdAt ?? '').localeCompare(a.createdAt ?? '') || b.id.localeCompare(a.id)

/** Every message the user has locally (the sync sends only what they may read), newest first; undefined while IndexedDB opens. */
export const useMessages = (handle: SyncHandle | null): MessageView[] | undefined => useSharedQuery(handle?.db, listQuery)

export const useMessage = (handle: SyncHandle | null, id: string) => useRecord<Message>(handle, 'message', id)

/**
 * The status the user sees: the sender (and staff) see the message's status; a recipient sees
 * their own: Read once they opened it, else Delivered.
 */
export function statusFor(message: MessageView, userId: string | undefined): Message['status'] {
  const status = message.status ?? 'DRAFT'
  if (!userId || message.sender?.id === userId) return status
  const own = message.recipients?.find((r) => r.userId === userId)
  if (!own) return status
  return own.viewedAt ? 'READ' : 'DELIVERED'
}
