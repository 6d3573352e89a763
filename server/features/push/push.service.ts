import type { Logger } from 'pino'
import webpush from 'web-push'
import type { Db } from '../../db/client'
import { notFound, validation } from '../../errors'
import type { Clock } from '../../lib/clock'
import { newId } from '../../lib/ids'
import type { SecretBox } from '../../lib/secret-box'
import type { WriteLock } from '../../lib/write-lock'
import { translate } from '../../i18n/i18n'
import type { Actor } from '../../access/actor'
import { localeOf, type Language } from '../../../shared/contract/common'
import { pushMessages, type PushDevice, type PushPreferences, type PushSubscribeRequest } from '../../../shared/contract/push'
import { nextAttemptAt } from '../../../shared/domain/backoff'
import { pushGroupOf, pushGroups, quietHoursEnd, type PushGroup } from '../../../shared/domain/push'
import { pushRepository as repo, type PushOutboxRow, type PushSubscriptionRow } from './push.repository'
import { labelOf } from './user-agent-label'

/**
 * The lock-screen title of each group: nothing about the notification beyond its kind, so a locked
 * phone shows no name, amount or subject (docs/PRIVACY.md "Push notifications").
 */
export const PUSH_TITLES: Record<PushGroup, { id: string }> = {
  money: /*i18n*/ { id: 'Payment news in Boligkasse' },
  messages: /*i18n*/ { id: 'New message in Boligkasse' },
  forum: /*i18n*/ { id: 'New in the forum in Boligkasse' },
  lending: /*i18n*/ { id: 'News about a loan in Boligkasse' },
  assembly: /*i18n*/ { id: 'News from your association in Boligkasse' },
}

/** What the device's service worker gets (client/public/sw-push.js): a title and the app path to open. */
export interface PushPayload {
  title: string
  url: string
}

/** A push is tried this many times; 404 and 410 end its subscription at once (RFC 8030 §7.3). */
export const MAX_PUSH_ATTEMPTS = 6
/** How long the push service keeps a message for a device that is offline (RFC 8030 §5.2). */
export const PUSH_TTL_SECONDS = 24 * 3600
/** A send claimed by an instance that died is taken up again after this. */
const LEASE_MS = 120_000
/** Pushes sent per run of the job (the job runs every few seconds). */
const BATCH = 100
const BACKOFF = { baseMs: 30_000, maxMs: 3_600_000 }
/** Devices one person may sign up for pushes; a new one beyond this replaces the oldest. */
export const MAX_DEVICES = 10

/** What sends a push request: the in-process emulator for its own endpoints, else the network. */
export type PushFetch = (url: string, init: { method: string; headers: Record<string, string>; body: Uint8Array<ArrayBuffer> }) => Promise<Response>

export interface PushServiceDeps {
  db: Db
  clock: Clock
  lock: WriteLock
  secrets: SecretBox
  log: Logger
  vapid: { publicKey: string; privateKey: string } | undefined
  vapidSubject: string
  /** The base of the built-in emulator's endpoints (`<PUBLIC_URL>/push-emulator/`); undefined in production. */
  emulatorBase: string | undefined
  /** The push services' host names an endpoint may have (PUSH_SERVICE_HOSTS; subdomains included). */
  serviceHosts: readonly string[]
  fetch: PushFetch
}

/** Push notifications to phones (docs/decisions/0088-push-notifications.md). */
export class PushService {
  private keys: Promise<{ publicKey: string; privateKey: string }> | undefined

  constructor(private readonly deps: PushServiceDeps) {}

  private now = () => this.deps.clock.now().toISOString()

  /**
   * The VAPID key pair: from the environment, else the one kept in the database, made by the first
   * instance that needs it (the others read that row). Takes the write lock itself the first time.
   */
  vapidKeys(): Promise<{ publicKey: string; privateKey: string }> {
    if (this.deps.vapid) return Promise.resolve(this.deps.vapid)
    this.keys ??= this.loadKeys().catch((err: unknown) => {
      this.keys = undefined
      throw err
    })
    return this.keys
  }

  private async loadKeys() {
    const { db, secrets, lock } = this.deps
    let row = await repo.keys(db)
    if (!row) {
      const made = webpush.generateVAPIDKeys()
      await lock.run(() => repo.insertKeys(db, { publicKey: made.publicKey, privateKeySealed: secrets.seal(made.privateKey), createdAt: this.now() }))
      row = (await repo.keys(db))!
    }
    return { publicKey: row.publicKey, privateKey: secrets.open(row.privateKeySealed) }
  }

  async publicKey(): Promise<string> {
    return (await this.vapidKeys()).publicKey
  }

  /**
   * Signs this device up, or updates it (keys renewed, or another user signed in on it): one row per
   * endpoint, which follows the latest sign-up; pushes still waiting for the previous user are dropped.
   */
  async subscribe(actor: Actor, input: PushSubscribeRequest, userAgent: string | undefined): Promise<PushDevice> {
    if (!this.endpointAllowed(input.endpoint)) throw validation([{ path: 'endpoint', message: pushMessages.endpointInvalid.id }])
    const label = input.label || labelOf(userAgent)
    const keys = { p256dh: input.keys.p256dh.replace(/=+$/, ''), auth: input.keys.auth.replace(/=+$/, '') }
    const existing = await repo.byEndpoint(this.deps.db, input.endpoint)
    if (existing) {
      if (existing.userId !== actor.userId) await repo.deleteQueuedOf(this.deps.db, existing.id)
      const set = { userId: actor.userId, ...keys, label }
      await repo.updateSubscription(this.deps.db, existing.id, set)
      return deviceOf({ ...existing, ...set })
    }
    const row: PushSubscriptionRow = { id: newId(), userId: actor.userId, endpoint: input.endpoint, ...keys, label, createdAt: this.now(), lastSuccessAt: null }
    // At most MAX_DEVICES per person: the oldest make room (a phone replaced long ago), so nobody
    // can sign up endless endpoints that every notification would then be queued for.
    const devices = await repo.ofUser(this.deps.db, actor.userId)
    for (const old of devices.slice(0, Math.max(0, devices.length - MAX_DEVICES + 1))) await repo.deleteSubscription(this.deps.db, old.id)
    await repo.insertSubscription(this.deps.db, row)
    return deviceOf(row)
  }

  /**
   * Push services are reached over HTTPS (RFC 8030 §8) on the known push services' hosts; the
   * built-in emulator over the app's own address. Nothing else is called: the endpoint is the one
   * URL a user gives the server to call, so it must not reach an address inside the network.
   */
  private endpointAllowed(endpoint: string): boolean {
    if (this.deps.emulatorBase && isUnder(endpoint, this.deps.emulatorBase)) return true
    return isPushServiceUrl(endpoint, this.deps.serviceHosts)
  }

  async devices(actor: Actor): Promise<PushDevice[]> {
    return (await repo.ofUser(this.deps.db, actor.userId)).map(deviceOf)
  }

  /** Removes one of the caller's devices; anyone else's, or none, is 404. */
  async remove(actor: Actor, id: string): Promise<void> {
    const row = await repo.ownById(this.deps.db, actor.userId, id)
    if (!row) throw notFound(pushMessages.deviceNotFound.id)
    await repo.deleteSubscription(this.deps.db, row.id)
  }

  /** Removes this device by its endpoint (what the device knows); another user's endpoint is 404. */
  async unsubscribe(actor: Actor, endpoint: string): Promise<void> {
    const row = await repo.byEndpoint(this.deps.db, endpoint)
    if (!row || row.userId !== actor.userId) throw notFound(pushMessages.deviceNotFound.id)
    await repo.deleteSubscription(this.deps.db, row.id)
  }

  async preferences(actor: Actor): Promise<PushPreferences> {
    const row = await repo.preferences(this.deps.db, actor.userId)
    if (!row) return { groups: [], quietFrom: null, quietTo: null }
    return { groups: pushGroups.filter((g) => row.groups.includes(g)), quietFrom: row.quietFrom, quietTo: row.quietTo }
  }

  async setPreferences(actor: Actor, input: PushPreferences): Promise<PushPreferences> {
    const groups = pushGroups.filter((g) => input.groups.includes(g))
    await repo.upsertPreferences(this.deps.db, { userId: actor.userId, groups, quietFrom: input.quietFrom, quietTo: input.quietTo, updatedAt: this.now() })
    return { groups, quietFrom: input.quietFrom, quietTo: input.quietTo }
  }

  /**
   * Queues a push to every device of these people that wants the notification's group, inside the
   * notification's transaction (the notifications module calls this): the push job sends it after
   * the commit, so a rolled-back change pushes nothing and no push waits on the write lock. One
   * statement when nobody has a device; the title is the group's, in each person's language; in
   * their quiet hours it waits until they end.
   */
  async queue(people: ReadonlyArray<{ id: string; language: Language }>, notification: { titleId: string; actionUrl?: string | null }): Promise<number> {
    const group = pushGroupOf(notification)
    if (!group || !people.length) return 0
    const devices = (await repo.devicesToTell(this.deps.db, [...new Set(people.map((p) => p.id))])).filter((d) => d.groups.includes(group))
    if (!devices.length) return 0
    const language = new Map(people.map((p) => [p.id, p.language]))
    const now = this.deps.clock.now()
    const at = now.toISOString()
    const path = safePath(notification.actionUrl)
    await repo.queue(
      this.deps.db,
      devices.map((d) => ({
        id: newId(),
        subscriptionId: d.subscriptionId,
        userId: d.userId,
        title: translate(localeOf(language.get(d.userId)!), PUSH_TITLES[group]),
        path,
        dueAt: quietHoursEnd(now, d.quietFrom, d.quietTo) ?? at,
        createdAt: at,
      })),
    )
    return devices.length
  }

  /**
   * The push job: sends the pushes that are due, each outside the write lock (claimed and settled in
   * short steps under it, like the mail outbox). 2xx: sent (the row is removed). 404 or 410: the
   * subscription is gone and removed with its pushes. Anything else (429, 5xx, no answer): tried
   * again with backoff, at most MAX_PUSH_ATTEMPTS times, then kept as failed for a week.
   */
  async sendDue(): Promise<{ sent: number; gone: number; failed: number }> {
    const { db, lock, log } = this.deps
    const result = { sent: 0, gone: 0, failed: 0 }
    await lock.run(() => repo.deleteFailedBefore(db, new Date(this.deps.clock.now().getTime() - 7 * 86_400_000).toISOString()))
    const due = await repo.due(db, this.now(), BATCH)
    if (!due.length) return result
    const keys = await this.vapidKeys()
    for (const { row, subscription } of due) {
      const until = new Date(this.deps.clock.now().getTime() + LEASE_MS).toISOString()
      if (!(await lock.run(() => repo.claim(db, row, until)))) continue
      const attempts = row.attempts + 1
      // An endpoint no longer allowed (PUSH_SERVICE_HOSTS narrowed, a database from elsewhere) is
      // never called: its device is dropped as one its push service ended.
      const outcome = this.endpointAllowed(subscription.endpoint) ? await this.send(subscription, { title: row.title, url: row.path }, keys) : undefined
      if (outcome?.ok) {
        result.sent += 1
        await lock.run(async () => {
          await repo.deleteOutbox(db, row.id)
          await repo.updateSubscription(db, subscription.id, { lastSuccessAt: this.now() })
        })
      } else if (!outcome || outcome.status === 404 || outcome.status === 410) {
        result.gone += 1
        if (outcome) log.info({ subscriptionId: subscription.id, status: outcome.status }, 'push subscription ended by its push service')
        else log.warn({ subscriptionId: subscription.id }, 'push subscription dropped: its endpoint is not an allowed push service')
        await lock.run(() => repo.deleteSubscription(db, subscription.id))
      } else {
        const failed = attempts >= MAX_PUSH_ATTEMPTS
        if (failed) result.failed += 1
        log[failed ? 'error' : 'warn']({ pushId: row.id, attempts, status: outcome.status, err: outcome.error }, 'push delivery failed')
        await lock.run(() =>
          repo.settle(db, row.id, attempts, {
            status: failed ? 'failed' : 'queued',
            dueAt: nextAttemptAt(this.deps.clock.now(), attempts - 1, BACKOFF),
            lastError: (outcome.error ?? `HTTP ${outcome.status}`).slice(0, 500),
          } satisfies Partial<PushOutboxRow>),
        )
      }
    }
    return result
  }

  /** One push request, encrypted and signed by `web-push` (RFC 8291, RFC 8292), sent with `fetch`. */
  private async send(
    subscription: PushSubscriptionRow,
    payload: PushPayload,
    keys: { publicKey: string; privateKey: string },
  ): Promise<{ ok: true } | { ok: false; status: number | undefined; error?: string }> {
    try {
      const request = webpush.generateRequestDetails(
        { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
        JSON.stringify(payload),
        {
          vapidDetails: { subject: this.deps.vapidSubject, publicKey: keys.publicKey, privateKey: keys.privateKey },
          TTL: PUSH_TTL_SECONDS,
          contentEncoding: 'aes128gcm',
          urgency: 'normal',
        },
      )
      const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)]))
      const res = await this.deps.fetch(request.endpoint, { method: request.method, headers, body: new Uint8Array(request.body as Buffer<ArrayBuffer>) })
      await res.arrayBuffer().catch(() => undefined)
      return res.ok ? { ok: true } : { ok: false, status: res.status }
    } catch (err) {
      return { ok: false, status: undefined, error: err instanceof Error ? err.message : String(err) }
    }
  }

  /** The pushes waiting for a user (tests, and the personal-data download). */
  async queued(userId: string) {
    return await repo.outboxOf(this.deps.db, userId)
  }
}

const deviceOf = (row: PushSubscriptionRow): PushDevice => ({ id: row.id, label: row.label, createdAt: row.createdAt, lastSuccessAt: row.lastSuccessAt })

/** Only an app path is pushed (the service worker opens it in the app's own origin); anything else opens the start page. */
export const safePath = (url: string | null | undefined): string => {
  if (!url || !url.startsWith('/')) return '/'
  const base = 'https://app.invalid'
  const resolved = new URL(url, base)
  // "/\\evil.example" and "//evil.example" leave the app's origin once resolved.
  return resolved.origin === base ? `${resolved.pathname}${resolved.search}${resolved.hash}` : '/'
}

export const createPushService = (deps: PushServiceDeps) => new PushService(deps)

/** An https URL on the default port whose host is one of `hosts` or a subdomain of one. */
export function isPushServiceUrl(endpoint: string, hosts: readonly string[]): boolean {
  let url: URL
  try {
    url = new URL(endpoint)
  } catch {
    return false
  }
  if (url.protocol !== 'https:' || url.port !== '' || url.username || url.password) return false
  const host = url.hostname.toLowerCase()
  return hosts.some((allowed) => host === allowed || host.endsWith(`.${allowed}`))
}

/** `url` as written lies under `base` (same origin, path below it, no `..` or `.` that a URL parser would resolve away). */
export function isUnder(url: string, base: string): boolean {
  try {
    const parsed = new URL(url)
    return parsed.href === url && parsed.href.startsWith(base)
  } catch {
    return false
  }
}
