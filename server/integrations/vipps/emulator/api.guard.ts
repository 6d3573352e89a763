import { createHash } from 'node:crypto'
import type { Context, MiddlewareHandler } from 'hono'
import type { Clock } from '../../../lib/clock'
import type { EmulatorState } from './emulator.state'
import { ProblemError } from './problems'

/**
 * What stands in front of every Recurring and Webhooks API call, in order: injected faults
 * (`/_control/fail-next-calls`), the access token and merchant headers, then Idempotency-Key.
 */
export type EmulatorEnv = { Variables: { msn: string; idempotencyKey: string | undefined } }

export interface GuardDeps {
  state: EmulatorState
  /** The injected clock: token lifetimes are a transport concern (see EmulatorClock). */
  transportClock: Clock
  /** Resolves when a "hung" call should give up (the hang time passed, the caller left, or stop()). */
  hang: (signal: AbortSignal) => Promise<void>
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/** The next N calls answer 500, or hang (before or after doing their work) like a lost answer. */
export function injectedFaults(deps: GuardDeps, isTokenCall: boolean): MiddlewareHandler<EmulatorEnv> {
  return async (c, next) => {
    const chaos = deps.state.data.faults.chaos
    if (!isTokenCall && chaos && (chaos.errorRate > 0 || chaos.timeoutRate > 0)) {
      // mulberry32 on the stored seed: repeatable from the seed given to /_control/chaos.
      chaos.seed = (chaos.seed + 0x6d2b79f5) | 0
      let r = Math.imul(chaos.seed ^ (chaos.seed >>> 15), 1 | chaos.seed)
      r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r
      const roll = ((r ^ (r >>> 14)) >>> 0) / 4294967296
      deps.state.changed()
      if (roll < chaos.errorRate) throw new ProblemError(500, 'internal-error', 'Injected failure (emulator: chaos)')
      if (roll < chaos.errorRate + chaos.timeoutRate) {
        if (roll < chaos.errorRate + chaos.timeoutRate / 2) {
          await deps.hang(c.req.raw.signal)
          throw new ProblemError(504, 'gateway-timeout', 'Injected timeout (emulator: chaos)')
        }
        await next()
        await deps.hang(c.req.raw.signal)
        return
      }
    }
    const fault = deps.state.data.faults.failNextCalls
    if (fault.count <= 0 || (isTokenCall && !fault.includeToken)) return next()
    fault.count--
    deps.state.changed()
    if (fault.mode === '500') throw new ProblemError(500, 'internal-error', 'Injected failure (emulator: fail-next-calls)')
    if (fault.mode === 'timeout') {
      await deps.hang(c.req.raw.signal)
      throw new ProblemError(504, 'gateway-timeout', 'Injected timeout (emulator: fail-next-calls)')
    }
    // timeout-after-effect: the work is done and stored, only the answer is late (a lost answer).
    await next()
    await deps.hang(c.req.raw.signal)
  }
}

/**
 * Access token, subscription key and merchant serial number, as the API gateway checks them
 * (https://developer.vippsmobilepay.com/docs/knowledge-base/http-headers/). The token is bound to
 * the MSN it was issued for; all data is scoped to that MSN.
 */
export function requireAccessToken(deps: GuardDeps): MiddlewareHandler<EmulatorEnv> {
  return async (c, next) => {
    if (!c.req.header('Ocp-Apim-Subscription-Key'))
      throw new ProblemError(401, 'not-authorized', 'Access denied due to missing subscription key', [
        { name: 'Ocp-Apim-Subscription-Key', reason: 'Required' },
      ])
    const token = /^Bearer\s+(.+)$/i.exec(c.req.header('Authorization') ?? '')?.[1]
    const record = token ? deps.state.data.accessTokens[token] : undefined
    if (!record)
      throw new ProblemError(401, 'not-authorized', 'Missing or unknown access token', [
        { name: 'Authorization', reason: 'Must be Bearer <token from POST /accesstoken/get>' },
      ])
    if (record.expiresAt <= deps.transportClock.now().getTime())
      throw new ProblemError(401, 'not-authorized', 'The access token has expired', [{ name: 'Authorization', reason: 'Expired; fetch a new token' }])
    const msn = c.req.header('Merchant-Serial-Number')
    if (!msn) throw new ProblemError(400, 'missing-request-header', 'Missing headers', [{ name: 'Merchant-Serial-Number', reason: 'Required' }])
    if (msn !== record.msn)
      throw new ProblemError(401, 'not-authorized', 'The access token was issued for another merchant', [
        { name: 'Merchant-Serial-Number', reason: 'Does not match the access token' },
      ])
    c.set('msn', msn)
    await next()
  }
}

/**
 * Idempotency-Key (1–40 characters) on writes: the same key with the same request replays the
 * first answer without doing the work again; the same key with another request is 409. Answers
 * below 500 are kept (a 4xx is replayed too), 5xx are not, so a retry after a server error runs
 * again (recurring-api-guide: idempotency). `required: false` honours the header when present
 * (the Webhooks API does not require it).
 */
export function idempotency(deps: GuardDeps, options: { required: boolean }): MiddlewareHandler<EmulatorEnv> {
  const inFlight = new Set<string>()
  return async (c, next) => {
    if (!WRITE_METHODS.has(c.req.method)) return next()
    const key = c.req.header('Idempotency-Key')
    if (key === undefined && !options.required) return next()
    if (key === undefined || key.length < 1 || key.length > 40)
      throw new ProblemError(400, 'idempotency-key-header', 'Missing or invalid Idempotency-Key header', [
        { name: 'Idempotency-Key', reason: 'Required on writes, 1 to 40 characters' },
      ])
    c.set('idempotencyKey', key)
    const id = `${c.var.msn}:${key}`
    const fingerprint = fingerprintOf(c.req.method, c.req.path, await c.req.text())
    const prior = deps.state.data.idempotency[id]
    if (prior) {
      if (prior.fingerprint !== fingerprint)
        throw new ProblemError(409, 'idempotency-conflict', 'The Idempotency-Key was used before with another request', [
          { name: 'Idempotency-Key', reason: 'Already used with a different body or path' },
        ])
      const headers: Record<string, string> = { 'Idempotent-Replayed': 'true' }
      if (prior.contentType) headers['Content-Type'] = prior.contentType
      return new Response(prior.body, { status: prior.status, headers })
    }
    if (inFlight.has(id))
      throw new ProblemError(409, 'conflict', 'A request with this Idempotency-Key is still in progress', [{ name: 'Idempotency-Key', reason: 'In progress' }])
    inFlight.add(id)
    try {
      await next()
    } finally {
      inFlight.delete(id)
    }
    if (c.res.status >= 500) return
    const body = c.res.status === 204 ? null : await c.res.clone().text()
    deps.state.saveIdempotency(id, {
      fingerprint,
      status: c.res.status,
      body,
      contentType: c.res.headers.get('Content-Type'),
      at: deps.transportClock.now().getTime(),
    })
  }
}

function fingerprintOf(method: string, path: string, body: string): string {
  return createHash('sha256')
    .update(`${method} ${path}\n${canonicalJson(body)}`)
    .digest('base64')
}

/** The same JSON with keys sorted, so whitespace and key order do not make "another body". */
function canonicalJson(text: string): string {
  if (text.trim() === '') return ''
  try {
    return JSON.stringify(sortKeys(JSON.parse(text)))
  } catch {
    return text
  }
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys)
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .sort(([a], [b]) =>
          a < b ? -1
          : a > b ? 1
          : 0,
        )
        .map(([k, v]) => [k, sortKeys(v)]),
    )
  return value
}

/** The request's JSON body; a wrong media type is 415 and unparsable JSON is 400, as the API answers. */
export async function jsonBody(c: Context): Promise<unknown> {
  const type = c.req.header('Content-Type')
  if (type && !/^application\/(.+\+)?json\b/i.test(type)) throw new ProblemError(415, 'unsupported-media-type', 'Content-Type must be application/json')
  const text = await c.req.text()
  try {
    return JSON.parse(text)
  } catch {
    throw new ProblemError(400, 'invalid-json', 'The request body is not valid JSON', [{ name: 'body', reason: 'Invalid JSON' }])
  }
}
