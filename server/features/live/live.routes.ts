import { z } from '@hono/zod-openapi'
import { streamSSE } from 'hono/streaming'
import { route } from '../../http/route'
import { bearer, errorResponses as e, json, router } from '../../http/openapi'
import { requireActor } from '../../access/actor'
import { DomainError } from '../../errors'
import { ErrorBody } from '../../../shared/contract/common'
import { LIVE_PATH, LIVE_RETRY_MS } from '../../../shared/contract/live'
import { messages as m } from '../../../shared/i18n-messages'
import type { LiveService } from './live.service'

const live = route({
  rules: {
    access: 'signed-in',
    data: 'own-steps',
    why: 'a stream open for minutes: it holds no read scope or write lock; who may see what is read in scopes of its own, at the start and at each heartbeat',
    unbatched: true,
  },
  method: 'get',
  path: LIVE_PATH,
  tags: ['Sync'],
  security: bearer,
  summary:
    'Server-sent events telling that something the caller may see has changed, so the client pulls GET /api/sync now (decision 0086). Events: `ready` once open (pull now), `changed` (pull now; `data` is `{}`, never what changed), `closed` with `{"reason": "replaced" | "signed-out" | "stopping"}` before the server ends it; a `: ping` comment every 25 s; `retry:` gives the reconnect delay. At most 5 streams per user (a sixth closes the oldest, `replaced`); the stream ends when the session does',
  responses: {
    200: {
      description: 'The stream (text/event-stream), open until the client, the session or the server ends it',
      content: {
        'text/event-stream': {
          schema: z.string().meta({ example: `retry: ${LIVE_RETRY_MS}\nevent: ready\ndata: {}\n\n: ping\n\nevent: changed\ndata: {}\n\n` }),
        },
      },
    },
    401: e[401],
    503: {
      description: 'This instance holds as many streams as it may, or is stopping (`BUSY`, see `Retry-After`): poll GET /api/sync instead',
      ...json(ErrorBody),
    },
  },
})

/** How long a client refused for lack of room waits before it asks for a stream again. */
const BUSY_RETRY_SECONDS = 60

export const liveRoutes = (service: LiveService) =>
  router().openapi(live, async (c) => {
    const actor = requireActor(c.var.actor)
    if (service.hub.full()) throw new DomainError('BUSY', m.liveBusy.id, { retryAfterSeconds: BUSY_RETRY_SECONDS })
    const token = /^Bearer\s+(\S+)$/.exec(c.req.header('Authorization') ?? '')?.[1] ?? ''
    const viewer = await service.viewerOf(actor)
    await service.hub.ready()
    // nginx would otherwise hold the events in its buffer (decision 0086).
    c.header('X-Accel-Buffering', 'no')
    return streamSSE(c, async (stream) => {
      const client = {
        viewer,
        write: (text: string) => stream.write(text),
        end: () => void stream.close(),
        revalidate: () => service.revalidate(token),
      }
      stream.onAbort(() => service.hub.remove(client))
      await service.hub.add(client)
    })
  })
