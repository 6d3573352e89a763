import { z } from '@hono/zod-openapi'
import { route } from '../../http/route'
import { bearer, errorResponses as e, json, jsonBody, router, writeHeaders } from '../../http/openapi'
import { requireActor } from '../../access/actor'
import { PushDevice, PushPreferences, PushSubscribeRequest, PushUnsubscribeRequest, VapidPublicKey } from '../../../shared/contract/push'
import type { PushService } from './push.service'

const tags = ['Push notifications']
const IdParam = z.object({ id: z.uuid() })

const vapidKey = route({
  // The key pair is made on first use and kept (decision 0088): that one write takes the lock itself.
  rules: { access: 'signed-in', data: 'own-steps', why: 'makes the VAPID key pair on first use, under the write lock for that step only' },
  method: 'get',
  path: '/push/vapid-public-key',
  tags,
  security: bearer,
  summary: "The server's VAPID public key, the applicationServerKey of pushManager.subscribe",
  responses: { 200: { description: 'The key (base64url)', ...json(VapidPublicKey) }, 401: e[401] },
})
const devices = route({
  rules: { access: 'signed-in', data: 'read' },
  method: 'get',
  path: '/push/subscriptions',
  tags,
  security: bearer,
  summary: "The caller's devices that take push notifications",
  responses: { 200: { description: 'Devices', ...json(z.array(PushDevice)) }, 401: e[401] },
})
const subscribe = route({
  rules: { access: 'signed-in', data: 'write' },
  method: 'post',
  path: '/push/subscriptions',
  tags,
  security: bearer,
  summary: 'Sign this device up for push notifications (PushSubscription.toJSON()); the same endpoint again updates it',
  request: { headers: writeHeaders, ...jsonBody(PushSubscribeRequest) },
  responses: { 201: { description: 'The device', ...json(PushDevice) }, 400: e[400], 401: e[401] },
})
const unsubscribe = route({
  rules: { access: 'signed-in', data: 'write' },
  method: 'post',
  path: '/push/subscriptions/unsubscribe',
  tags,
  security: bearer,
  summary: 'Stop push notifications to this device, named by its endpoint',
  request: { headers: writeHeaders, ...jsonBody(PushUnsubscribeRequest) },
  responses: { 204: { description: 'Removed' }, 400: e[400], 401: e[401], 404: e[404] },
})
const remove = route({
  rules: { access: 'signed-in', data: 'write' },
  method: 'delete',
  path: '/push/subscriptions/{id}',
  tags,
  security: bearer,
  summary: 'Stop push notifications to one of the caller’s devices',
  request: { params: IdParam, headers: writeHeaders },
  responses: { 204: { description: 'Removed' }, 401: e[401], 404: e[404] },
})
const preferences = route({
  rules: { access: 'signed-in', data: 'read' },
  method: 'get',
  path: '/push/preferences',
  tags,
  security: bearer,
  summary: 'Which notifications are pushed to the caller’s devices, and quiet hours',
  responses: { 200: { description: 'Preferences', ...json(PushPreferences) }, 401: e[401] },
})
const setPreferences = route({
  rules: { access: 'signed-in', data: 'write' },
  method: 'put',
  path: '/push/preferences',
  tags,
  security: bearer,
  summary: 'Choose the groups pushed and quiet hours (Copenhagen HH:mm; pushes in them wait until they end)',
  request: { headers: writeHeaders, ...jsonBody(PushPreferences) },
  responses: { 200: { description: 'Preferences', ...json(PushPreferences) }, 400: e[400], 401: e[401] },
})

export const pushRoutes = (push: PushService) =>
  router()
    .openapi(vapidKey, async (c) => c.json({ publicKey: await push.publicKey() }, 200))
    .openapi(devices, async (c) => c.json(await push.devices(requireActor(c.var.actor)), 200))
    .openapi(subscribe, async (c) => c.json(await push.subscribe(requireActor(c.var.actor), c.req.valid('json'), c.req.header('User-Agent')), 201))
    .openapi(unsubscribe, async (c) => {
      await push.unsubscribe(requireActor(c.var.actor), c.req.valid('json').endpoint)
      return c.body(null, 204)
    })
    .openapi(remove, async (c) => {
      await push.remove(requireActor(c.var.actor), c.req.valid('param').id)
      return c.body(null, 204)
    })
    .openapi(preferences, async (c) => c.json(await push.preferences(requireActor(c.var.actor)), 200))
    .openapi(setPreferences, async (c) => c.json(await push.setPreferences(requireActor(c.var.actor), c.req.valid('json')), 200))
