/**
 * The user's changes to notifications (docs/PRODUCT.md §7): each is queued in the outbox and shows at once in
 * the optimistic view; the engine sends it as the documented call when the server is reachable.
 */
import { msg } from '@lingui/core/macro'
import { registerMutationKind } from '../../sync/mutation-kinds'
import { reduce } from '../../sync/optimistic'
import type { SyncHandle } from '../../sync/use-sync'

export const NOTIFICATION_READ = 'notification.read'
export const NOTIFICATION_READ_ALL = 'notification.readAll'
export const NOTIFICATION_DELETE = 'notification.delete'

registerMutationKind(NOTIFICATION_READ, {
  reducer: reduce.patch(() => ({ isRead: true })),
  // Marking read a notification deleted meanwhile (another tab, another device): it is not unread
  // anywhere any more, which is what was asked. (Deleting one already deleted is done too: a DELETE.)
  goneIsDone: true,
  label: msg`Mark notification as read`,
  failed: msg`Failed to mark notification as read`,
})
registerMutationKind(NOTIFICATION_READ_ALL, {
  reducer: reduce.patchAll(() => ({ isRead: true })),
  label: msg`Mark all notifications as read`,
  failed: msg`Failed to mark all notifications as read`,
})
registerMutationKind(NOTIFICATION_DELETE, {
  reducer: reduce.remove(),
  label: msg`Delete notification`,
  failed: msg`Failed to delete notification`,
})

/** PATCH /notifications/{id}/read */
export const markNotificationRead = ({ engine }: SyncHandle, id: string) =>
  engine.mutate({ kind: NOTIFICATION_READ, method: 'PATCH', path: `/notifications/${id}/read`, entity: 'notification', entityId: id })

/** PATCH /notifications/read-all: every notification the server has when it arrives, also newer ones. */
export const markAllNotificationsRead = ({ engine }: SyncHandle) =>
  engine.mutate({ kind: NOTIFICATION_READ_ALL, method: 'PATCH', path: '/notifications/read-all', entity: 'notification', entityId: null })

/** DELETE /notifications/{id} (a notification already gone on the server counts as deleted). */
export const deleteNotification = ({ engine }: SyncHandle, id: string) =>
  engine.mutate({ kind: NOTIFICATION_DELETE, method: 'DELETE', path: `/notifications/${id}`, entity: 'notification', entityId: id })
