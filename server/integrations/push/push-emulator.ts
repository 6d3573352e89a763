import { createECDH, createPublicKey, randomBytes, randomUUID, verify, type ECDH } from 'node:crypto'
import { Hono } from 'hono'
import { decrypt } from 'http_ece'

/**
 * A push service on this machine (docs/decisions/0088-push-notifications.md), mounted at
 * `/push-emulator` outside production, so the demo and the tests send real Web Push requests
 * without reaching any outside service. It takes what a browser's push service takes (RFC 8030:
 * `POST` to the subscription's endpoint, an `aes128gcm` body of RFC 8291, `TTL`, and VAPID's
 * `Authorization: vapid t=<JWT>, k=<public key>` of RFC 8292), checks the JWT's ES256 signature
 * against `k`, its audience and expiry, and keeps what it received. A subscription made here
 * (`POST /subscriptions`) has its private key kept, so its messages are decrypted for the test that
 * reads them (with `http_ece`, the library `web-push` itself encrypts with).
 *
 * Levers for tests: `/subscriptions/{id}/gone` answers 410 from then on (the device unsubscribed),
 * `/subscriptions/{id}/fail` answers a status the next `times` pushes (a push service in trouble).
 */
/** Where the product mounts the emulator (server/app.ts), outside production. */
export const PUSH_EMULATOR_PATH = '/push-emulator'

export interface PushEmulatorOptions {
  /** The emulator's absolute base URL, e.g. http://localhost:3000/push-emulator (no trailing slash). */
  baseUrl: string
  /** Wall clock for the JWT's expiry; the sender signs with real time. Default: Date.now. */
  nowMs?: () => number
}

export interface ReceivedPush {
  receivedAt: string
  ttl: number
  urgency: string | null
  /** The VAPID public key (`k`) and the JWT's claims, as checked. */
  vapidKey: string
  audience: string
  subject: string
  bytes: number
  /** The decrypted body (text), when the emulator made the subscription and so holds its private key. */
  payload: string | null
}

interface EmulatedSubscription {
  id: string
  ecdh: ECDH | undefined
  authSecret: Buffer | undefined
  gone: boolean
  failures: Array<number>
  messages: ReceivedPush[]
}

/** At most this many subscriptions are kept (oldest dropped): it runs inside the server, for demos and tests. */
const MAX_SUBSCRIPTIONS = 1000
/** RFC 8030 §7.2 lets a push service refuse bodies larger than 4096 bytes; every real one does. */
const MAX_BODY = 4096
/** Messages (and injected failures) kept per subscription. */
const MAX_KEPT = 100
/** RFC 8292 §2: a JWT valid for at most 24 hours. */
const MAX_JWT_SECONDS = 24 * 3600

const b64url = (b: Buffer) => b.toString('base64url')

export function createPushEmulator(options: PushEmulatorOptions) {
  const nowMs = options.nowMs ?? Date.now
  const subscriptions = new Map<string, EmulatedSubscription>()
  const endpointOf = (id: string) => `${options.baseUrl}/push/${id}`

  function add(sub: EmulatedSubscription) {
    subscriptions.set(sub.id, sub)
    if (subscriptions.size > MAX_SUBSCRIPTIONS) subscriptions.delete(subscriptions.keys().next().value!)
  }

  /** A subscription as a browser would make one: its keys are made here and the private one kept. */
  function subscribe() {
    const ecdh = createECDH('prime256v1')
    ecdh.generateKeys()
    const authSecret = randomBytes(16)
    const id = randomUUID()
    add({ id, ecdh, authSecret, gone: false, failures: [], messages: [] })
    return { id, endpoint: endpointOf(id), keys: { p256dh: b64url(ecdh.getPublicKey()), auth: b64url(authSecret) } }
  }

  const app = new Hono()
  app.post('/subscriptions', (c) => c.json(subscribe(), 201))
  /** An endpoint whose keys the browser made (the browser test's device): messages are kept, not decrypted. */
  app.post('/endpoints', (c) => {
    const id = randomUUID()
    add({ id, ecdh: undefined, authSecret: undefined, gone: false, failures: [], messages: [] })
    return c.json({ id, endpoint: endpointOf(id) }, 201)
  })
  app.get('/subscriptions/:id/messages', (c) => {
    const sub = subscriptions.get(c.req.param('id'))
    return sub ? c.json(sub.messages) : c.json({ error: 'unknown subscription' }, 404)
  })
  app.post('/subscriptions/:id/gone', (c) => {
    const sub = subscriptions.get(c.req.param('id'))
    if (!sub) return c.json({ error: 'unknown subscription' }, 404)
    sub.gone = true
    return c.body(null, 204)
  })
  app.post('/subscriptions/:id/fail', async (c) => {
    const sub = subscriptions.get(c.req.param('id'))
    if (!sub) return c.json({ error: 'unknown subscription' }, 404)
    const { status, times } = (await c.req.json()) as { status: unknown; times?: unknown }
    if (typeof status !== 'number' || !Number.isInteger(status) || status < 400 || status > 599) return c.json({ error: 'status is 400–599' }, 400)
    const count = typeof times === 'number' && Number.isInteger(times) ? Math.min(Math.max(times, 1), MAX_KEPT) : 1
    sub.failures.push(...Array.from({ length: count }, () => status))
    return c.body(null, 204)
  })

  app.post('/push/:id', async (c) => {
    const sub = subscriptions.get(c.req.param('id'))
    if (!sub) return c.text('No such subscription', 404)
    if (sub.gone) return c.text('The subscription has expired', 410)
    const vapid = checkVapid(c.req.header('Authorization'), new URL(c.req.url).origin, nowMs())
    if (typeof vapid === 'string') return c.text(vapid, 401)
    if (c.req.header('Content-Encoding') !== 'aes128gcm') return c.text('Content-Encoding must be aes128gcm (RFC 8291)', 415)
    const ttl = Number(c.req.header('TTL'))
    if (!c.req.header('TTL') || !Number.isInteger(ttl) || ttl < 0) return c.text('TTL is required (RFC 8030 §5.2)', 400)
    // Refused before it is read when it says it is too large.
    if (Number(c.req.header('Content-Length') ?? 0) > MAX_BODY) return c.text('Payload too large', 413)
    const body = Buffer.from(await c.req.arrayBuffer())
    if (body.length > MAX_BODY) return c.text('Payload too large', 413)
    const failure = sub.failures.shift()
    if (failure) return c.text('Injected failure', failure as 500)
    let payload: string | null = null
    if (sub.ecdh && sub.authSecret) {
      try {
        payload = decrypt(body, { version: 'aes128gcm', privateKey: sub.ecdh, authSecret: sub.authSecret }).toString('utf8')
      } catch {
        return c.text('The body does not decrypt with this subscription’s keys', 400)
      }
    }
    // The newest MAX_KEPT messages of a subscription are kept (memory stays bounded).
    if (sub.messages.length >= MAX_KEPT) sub.messages.shift()
    sub.messages.push({
      receivedAt: new Date(nowMs()).toISOString(),
      ttl,
      urgency: c.req.header('Urgency') ?? null,
      vapidKey: vapid.key,
      audience: vapid.audience,
      subject: vapid.subject,
      bytes: body.length,
      payload,
    })
    c.header('Location', `${options.baseUrl}/messages/${randomUUID()}`)
    return c.body(null, 201)
  })

  return { app, subscribe }
}

export type PushEmulator = ReturnType<typeof createPushEmulator>

/**
 * RFC 8292's `vapid t=<JWT>, k=<key>`: an ES256 JWT whose `aud` is the push service's origin, `exp`
 * ahead but at most 24 hours, `sub` a mailto: or https: contact, signed by the private key of `k`
 * (an uncompressed P-256 point, base64url). Answers the checked claims, or why it is refused.
 */
export function checkVapid(header: string | undefined, origin: string, nowMs: number): { key: string; audience: string; subject: string } | string {
  const m = /^vapid t=([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? '')
  if (!m) return 'Authorization must be "vapid t=<JWT>, k=<public key>" (RFC 8292)'
  const [jwt, key] = [m[1]!, m[2]!]
  const point = Buffer.from(key, 'base64url')
  if (point.length !== 65 || point[0] !== 4) return 'k is not an uncompressed P-256 public key'
  const [head, claims, signature] = jwt.split('.') as [string, string, string]
  let parsed: { header: { alg?: string }; claims: { aud?: string; exp?: number; sub?: string } }
  try {
    parsed = { header: JSON.parse(Buffer.from(head, 'base64url').toString()), claims: JSON.parse(Buffer.from(claims, 'base64url').toString()) }
  } catch {
    return 'The JWT does not parse'
  }
  if (parsed.header.alg !== 'ES256') return 'The JWT must be signed with ES256'
  const publicKey = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: b64url(point.subarray(1, 33)), y: b64url(point.subarray(33)) },
    format: 'jwk',
  })
  const signed = verify('sha256', Buffer.from(`${head}.${claims}`), { key: publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'))
  if (!signed) return 'The JWT signature does not match k'
  const { aud, exp, sub } = parsed.claims
  if (aud !== origin) return `The JWT audience must be ${origin}`
  const now = Math.floor(nowMs / 1000)
  if (typeof exp !== 'number' || exp <= now || exp > now + MAX_JWT_SECONDS) return 'The JWT has expired or lasts longer than 24 hours'
  if (typeof sub !== 'string' || !/^(mailto:|https:\/\/)/.test(sub)) return 'The JWT subject must be a mailto: or https: URL'
  return { key, audience: aud, subject: sub }
}
