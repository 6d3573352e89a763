import { route } from '../../http/route'
import { SyncBatchRequest, SyncBatchResponse, syncBatchMethods, type SyncBatchAnswer, type SyncBatchItem } from '../../../shared/contract/sync'
import { DomainError, type Issue } from '../../errors'
import { bearer, errorResponses as e, json, jsonBody, router } from '../../http/openapi'
import { requireActor } from '../../access/actor'
import type { RouteRules } from '../../http/route'

/** The app's own fetch: each item goes through every middleware exactly as a request of its own. */
export type Dispatch = (request: Request, env: unknown) => Response | Promise<Response>

const messages = {
  methodRefused: /*i18n*/ { id: 'Item {item} cannot be sent in a batch: only POST, PUT, PATCH and DELETE can.' },
  pathRefused: /*i18n*/ { id: 'Item {item} cannot be sent in a batch: its path must be under /api, and not a sign-in route or the batch itself.' },
}

/** The headers of an item's answer that a client acts on (a version, a new record's place, a replay, a wait). */
const answeredHeaders = ['etag', 'location', 'idempotent-replayed', 'retry-after', 'x-request-id'] as const

/** Headers of the batch request that every item carries: who asks, in which language, from where. */
const forwardedHeaders = ['authorization', 'accept-language', 'x-forwarded-for'] as const

const ORIGIN = 'http://batch.invalid'

const safeDecode = (path: string) => {
  try {
    return decodeURIComponent(path)
  } catch {
    return path
  }
}

/** The rules of the route a request reaches (server/http/route.ts). */
export type RulesOf = (method: string, path: string) => RouteRules | undefined

/**
 * Whether a path may be batched: under /api, and not a route whose rules say `unbatched` (sign-in
 * and session routes are not keyed by a user, so not idempotent; the batch itself; the anonymous
 * message, which must leave no trace of its sender). Checked on the path as routed, raw and
 * percent-decoded, so `..` or `%61uth` cannot slip by.
 */
function pathAllowed(method: string, path: string, rulesOf: RulesOf): boolean {
  if (!path.startsWith('/')) return false
  let url: URL
  try {
    url = new URL(path, ORIGIN)
  } catch {
    return false
  }
  if (url.origin !== ORIGIN) return false
  return [url.pathname, safeDecode(url.pathname)].every((p) => p.startsWith('/api/') && !rulesOf(method, p.replace(/\/+$/, ''))?.unbatched)
}

/** Refuses the whole batch, before any item runs, when an item is not a write under /api (400 naming it). */
function checkItems(items: SyncBatchItem[], rulesOf: RulesOf): void {
  const issues: Issue[] = []
  for (const [i, item] of items.entries()) {
    const values = { item: i + 1 }
    if (!(syncBatchMethods as readonly string[]).includes(item.method.toUpperCase()))
      issues.push({ path: `items.${i}.method`, message: messages.methodRefused.id, values })
    else if (!pathAllowed(item.method.toUpperCase(), item.path, rulesOf)) issues.push({ path: `items.${i}.path`, message: messages.pathRefused.id, values })
  }
  if (issues.length > 0) throw new DomainError('VALIDATION_FAILED', issues[0]!.message, { issues, values: issues[0]!.values })
}

async function answerOf(res: Response): Promise<SyncBatchAnswer> {
  const headers: SyncBatchAnswer['headers'] = {}
  for (const h of answeredHeaders) {
    const v = res.headers.get(h)
    if (v !== null) headers[h] = v
  }
  const text = await res.text()
  let body: unknown = null
  if (text) {
    try {
      body = JSON.parse(text)
    } catch {
      body = text
    }
  }
  return { status: res.status, headers, body }
}

const batch = route({
  rules: {
    access: 'signed-in',
    data: 'own-steps',
    why: 'runs each item as a request of its own, which takes the write lock (holding it here would deadlock)',
    unbatched: true,
  },
  method: 'post',
  path: '/sync/batch',
  tags: ['Sync'],
  security: bearer,
  summary:
    'Up to 50 queued writes, applied one after another, each exactly as if sent alone (its own Idempotency-Key, If-Match, transaction, authorization and rate limit); answers each one’s status, headers and body in order. A failing item does not stop the others',
  request: jsonBody(SyncBatchRequest),
  responses: { 200: { description: 'One answer per item, in order', ...json(SyncBatchResponse) }, 400: e[400], 401: e[401], 413: e[413] },
})

/**
 * `POST /api/sync/batch` (docs/API.md "Batch"): the offline outbox's queue in one round trip. Each
 * item is dispatched in-process through the app's own fetch, so auth, validation, Idempotency-Key,
 * the write transaction, authorization and rate limits apply unchanged, one item at a time. The
 * route itself takes its own steps (its rules): holding the write lock, it would block the items that wait for it.
 *
 * Items are independent: every item is applied and answered whatever the one before got. The
 * client decides per answer exactly as for a single request; it never puts two changes of one row,
 * or a change and what it depends on, in the same batch (client/sync/drainer.ts), so no item has to
 * wait for another's outcome here.
 */
export const batchRoutes = (dispatch: Dispatch, rulesOf: RulesOf) =>
  router().openapi(batch, async (c) => {
    requireActor(c.var.actor)
    const { items } = c.req.valid('json')
    checkItems(items, rulesOf)
    const origin = new URL(c.req.url).origin
    const answers: SyncBatchAnswer[] = []
    for (const item of items) {
      const headers = new Headers({ Accept: 'application/json', 'Idempotency-Key': item.headers['Idempotency-Key'] })
      for (const h of forwardedHeaders) {
        const v = c.req.header(h)
        if (v !== undefined) headers.set(h, v)
      }
      if (item.headers['If-Match'] !== undefined) headers.set('If-Match', item.headers['If-Match'])
      // The same text a single send has (JSON.stringify of the body), so the Idempotency-Key
      // fingerprint matches whether a mutation went alone or in a batch.
      let body: string | undefined
      if (item.body !== undefined) {
        body = JSON.stringify(item.body)
        headers.set('Content-Type', 'application/json')
      }
      // The batch's own connection (env), so the client's address and its rate limits are the caller's.
      const res = await dispatch(new Request(new URL(item.path, origin), { method: item.method.toUpperCase(), headers, body }), c.env)
      answers.push(await answerOf(res))
    }
    return c.json({ answers }, 200)
  })
