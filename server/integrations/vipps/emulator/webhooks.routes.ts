import { Hono } from 'hono'
import { jsonBody, type EmulatorEnv } from './api.guard'
import type { WebhookRegistry } from './webhooks.registry'

/** Webhooks API v1: register (201 {id, secret}), list, delete (204). */
export function webhooksRoutes(registry: WebhookRegistry) {
  return new Hono<EmulatorEnv>()
    .post('/webhooks/v1/webhooks', async (c) => c.json(registry.register(c.var.msn, await jsonBody(c)), 201))
    .get('/webhooks/v1/webhooks', (c) => c.json(registry.list(c.var.msn)))
    .delete('/webhooks/v1/webhooks/:id', (c) => {
      registry.remove(c.var.msn, c.req.param('id'))
      return c.body(null, 204)
    })
}
