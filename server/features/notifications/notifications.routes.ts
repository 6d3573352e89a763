import { z } from '@hono/zod-openapi'
import { route } from '../../http/route'
import { Notification, ReadAllResponse, UnreadCount } from '../../../shared/contract/notifications'
import { bearer, errorResponses as e, json, router, writeHeaders } from '../../http/openapi'
import { requireActor } from '../../access/actor'
import type { NotificationsService } from './notifications.service'

const tags = ['Notifications']
const IdParam = z.object({ id: z.uuid() })

const list = route({
  rules: { access: 'signed-in', data: 'read' },
  method: 'get',
  path: '/notifications',
  tags,
  security: bearer,
  summary: "The user's notifications, newest first",
  responses: { 200: { description: 'Notifications', ...json(z.array(Notification)) }, 401: e[401] },
})
const unread = route({
  rules: { access: 'signed-in', data: 'read' },
  method: 'get',
  path: '/notifications/unread-count',
  tags,
  security: bearer,
  summary: 'How many notifications are unread',
  responses: { 200: { description: 'Count', ...json(UnreadCount) }, 401: e[401] },
})
const readAll = route({
  rules: { access: 'signed-in', data: 'write' },
  method: 'patch',
  path: '/notifications/read-all',
  tags,
  security: bearer,
  summary: 'Mark every notification read',
  request: { headers: writeHeaders },
  responses: { 200: { description: 'How many changed', ...json(ReadAllResponse) }, 401: e[401] },
})
const read = route({
  rules: { access: 'signed-in', data: 'write' },
  method: 'patch',
  path: '/notifications/{id}/read',
  tags,
  security: bearer,
  summary: 'Mark one notification read (repeating it changes nothing)',
  request: { params: IdParam, headers: writeHeaders },
  responses: { 200: { description: 'The notification', ...json(Notification) }, 401: e[401], 404: e[404] },
})
const remove = route({
  rules: { access: 'signed-in', data: 'write' },
  method: 'delete',
  path: '/notifications/{id}',
  tags,
  security: bearer,
  summary: 'Delete a notification',
  request: { params: IdParam, headers: writeHeaders },
  responses: { 204: { description: 'Deleted' }, 401: e[401], 404: e[404] },
})

export const notificationsRoutes = (notifications: NotificationsService) =>
  router()
    .openapi(list, async (c) => c.json(await notifications.list(requireActor(c.var.actor)), 200))
    .openapi(unread, async (c) => c.json({ count: await notifications.unreadCount(requireActor(c.var.actor)) }, 200))
    .openapi(readAll, async (c) => c.json({ updated: await notifications.readAll(requireActor(c.var.actor)) }, 200))
    .openapi(read, async (c) => c.json(await notifications.markRead(requireActor(c.var.actor), c.req.valid('param').id), 200))
    .openapi(remove, async (c) => {
      await notifications.delete(requireActor(c.var.actor), c.req.valid('param').id)
      return c.body(null, 204)
    })
