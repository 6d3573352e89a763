import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { SyncEngine } from '../../sync/engine'
import { LocalDb, deleteLocalDb } from '../../sync/local-db'
import { applyChanges } from '../../sync/pull'
import type { SyncHandle } from '../../sync/use-sync'
import { deleteNotification, markAllNotificationsRead, markNotificationRead } from './notification-mutations'
import { notificationsView } from './use-notifications'

const notification = (id: string, createdAt: string, isRead = false) => ({
  entity: 'notification' as const,
  id,
  op: 'upsert' as const,
  version: 1,
  data: { id, title: id, message: '<p>m</p>', type: 'info', isRead, actionUrl: null, actionText: null, createdAt, version: 1 },
})

let handle: SyncHandle
let userId: string
beforeEach(async () => {
  userId = crypto.randomUUID()
  const db = new LocalDb(userId)
  // A transport that never answers keeps every change pending (the app offline).
  const engine = new SyncEngine(db, { getToken: () => 't', getLocale: () => 'en', fetch: () => Promise.reject(new TypeError('offline')) })
  handle = { userId, db, engine }
  await applyChanges(
    db,
    [notification('old', '2025-01-01T10:00:00.000Z', true), notification('mid', '2025-02-01T10:00:00.000Z'), notification('new', '2025-03-01T10:00:00.000Z')],
    'c',
    false,
    0,
  )
})
afterEach(async () => {
  await handle.engine.stop()
  handle.db.close()
  await deleteLocalDb(userId)
})

const view = async () =>
  notificationsView(await handle.db.notifications.orderBy('createdAt').reverse().toArray(), await handle.db.outbox.orderBy('seq').toArray())

describe('notification mutations', () => {
  it('queue the documented calls (docs/PRODUCT.md §7) and show them at once, newest first', async () => {
    expect((await view()).notifications.map((n) => n.id)).toEqual(['new', 'mid', 'old'])
    expect((await view()).unread).toBe(2)

    await markNotificationRead(handle, 'mid')
    await deleteNotification(handle, 'old')
    const after = await view()
    expect(after.notifications.map((n) => [n.id, n.isRead, n._pending ?? false])).toEqual([
      ['new', false, false],
      ['mid', true, true],
    ])
    expect(after.unread).toBe(1)

    await markAllNotificationsRead(handle)
    expect((await view()).unread).toBe(0)
    const queued = await handle.db.outbox.orderBy('seq').toArray()
    expect(queued.map((m) => `${m.method} ${m.path}`)).toEqual(['PATCH /notifications/mid/read', 'DELETE /notifications/old', 'PATCH /notifications/read-all'])
    expect(new Set(queued.map((m) => m.mutationId)).size).toBe(3)
  })

  it('list a refused change as a problem and leave its notification as the server has it', async () => {
    const m = await markNotificationRead(handle, 'new')
    await handle.db.outbox.where('mutationId').equals(m.mutationId).modify({ status: 'rejected', lastError: 'Not found.' })
    const after = await view()
    expect(after.problems.map((p) => p.mutationId)).toEqual([m.mutationId])
    expect(after.notifications[0]).toMatchObject({ id: 'new', isRead: false, _rejected: 'Not found.' })
  })
})
