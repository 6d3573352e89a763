import pino from 'pino'
import { expect } from 'vitest'
import { createApp } from '../app'
import type { Database_ } from '../db/client'
import { DEMO_PASSWORD } from '../db/seed'
import { parseConfig, type Config } from '../env'
import { TestClock } from '../lib/clock'
import { mailOutbox } from '../db/schema/platform'
import { authRepository } from '../features/auth/auth.repository'
import { openTemplateCopy, TEST_SECRET_KEY, TEST_START } from './template-db'
import { EMULATOR_PATH, type VippsWiring } from '../integrations/vipps/built-in'
import { wireTestVipps } from './test-vipps'
import { routeRules, type RouteRules } from '../http/route'

export { DEMO_PASSWORD }

/**
 * `body` broken: an unknown field and none a route needs, but with what its scope reads from the
 * body (server/access/scope.ts: the id, and the fields its action check reads), so that who may act
 * is still decided.
 */
function brokenBody(rules: RouteRules | undefined, body: unknown): string {
  const scope = rules?.scope
  const names = [...(scope?.in === 'body' ? [scope.param ?? 'id'] : []), ...(scope?.reads ?? [])]
  const fields = body && typeof body === 'object' ? (body as Record<string, unknown>) : {}
  return JSON.stringify({ __broken: [1], ...Object.fromEntries(names.filter((n) => n in fields).map((n) => [n, fields[n]])) })
}

export const demo = {
  superadmin: 'superadmin@boligkasse.dk',
  chairman: 'formand@solgaarden.dk',
  admin: 'admin@solgaarden.dk',
  accountant: 'kasserer@solgaarden.dk',
  boardmember: 'bestyrelse@solgaarden.dk',
  otherAdmin: 'admin@havnehuset.dk',
  resident: 'beboer01@solgaarden.dk',
  residentDa: 'beboer02@solgaarden.dk',
} as const

/**
 * A whole app on a private in-memory database with the demo data (a copy of the template in
 * template-db.ts), a fixed clock and silent logs. `call` sends JSON like a client (a `FormData` body
 * as multipart, as a file upload is sent); `login` signs a user in.
 */
type Overrides = Partial<Parameters<typeof createApp>[0]>

export async function testApp(
  env: Record<string, string> = {},
  overrides:
    | Overrides
    | ((ctx: {
        database: Database_
        clock: TestClock
        config: Config
        deliverTo: () => (r: Request) => Response | Promise<Response>
      }) => Overrides | Promise<Overrides>) = {},
) {
  const config: Config = parseConfig({
    APP_ENV: 'test',
    DATABASE_PATH: ':memory:',
    PUBLIC_URL: 'http://localhost:3000',
    APP_SECRET_KEY: TEST_SECRET_KEY,
    ...env,
  })
  const clock = new TestClock(TEST_START)
  // Migrated and seeded without the demo agreements: tests create the agreements they need (numbers start at 1001).
  const database = await openTemplateCopy(config.appSecretKey!)
  // Every seeded account shares this hash of DEMO_PASSWORD (until a test changes a password).
  const seededHash = (await authRepository.verifiedMethod(database.db, 'EMAIL_PASSWORD', demo.superadmin))!.secretHash
  const log = pino({ level: 'silent' })
  let appRef: { fetch: (r: Request) => Response | Promise<Response> } | undefined
  const extra = typeof overrides === 'function' ? await overrides({ database, clock, config, deliverTo: () => (r) => appRef!.fetch(r) }) : overrides
  const { app, services, lock, jobs } = createApp({ config, database, clock, log, ...extra })
  appRef = app
  const rulesOf = routeRules(app)

  async function call(method: string, path: string, opts: { token?: string; body?: unknown; headers?: Record<string, string> } = {}) {
    const headers: Record<string, string> = { ...opts.headers }
    if (opts.token) headers.Authorization = `Bearer ${opts.token}`
    if (opts.body !== undefined && !(opts.body instanceof FormData)) headers['Content-Type'] = 'application/json'
    const res = await app.request(`/api${path}`, {
      method,
      headers,
      body:
        opts.body === undefined ? undefined
        : typeof opts.body === 'string' || opts.body instanceof FormData ? opts.body
        : JSON.stringify(opts.body),
    })
    const text = await res.text()
    let json: any
    try {
      json = text ? JSON.parse(text) : undefined
    } catch {
      json = text
    }
    // Access before the body (docs/API.md "Refusals", docs/decisions/0083): a caller refused 403 is
    // refused 403 whatever the body, so every 403 a test sees on a request with a body is tried
    // once more with a broken one (`brokenBody`). Only 403s pay for it.
    if (res.status === 403 && opts.body !== undefined && method !== 'GET') {
      const again = await app.request(`/api${path}`, {
        method,
        headers: { ...headers, 'Idempotency-Key': crypto.randomUUID(), 'Content-Type': 'application/json' },
        body: brokenBody(rulesOf(method, `/api${path.split('?')[0]}`), opts.body),
      })
      if (again.status !== 403)
        throw new Error(
          `${method} ${path} answered 403, but ${again.status} to the same caller with a broken body: access is decided before the body (docs/decisions/0083)`,
        )
    }
    return { status: res.status, headers: res.headers, json }
  }

  /**
   * Signs a user in and returns the bearer token. Without a password: when the account still has
   * its seeded e-mail sign-in (so DEMO_PASSWORD would be accepted), the session is started directly,
   * as the login route does after the password check, without the ~70 ms scrypt check; otherwise,
   * and with an explicit password, it goes through POST /auth/login. auth.test.ts tests that route.
   */
  async function login(email: string, password?: string): Promise<string> {
    if (password === undefined) {
      const method = await authRepository.verifiedMethod(database.db, 'EMAIL_PASSWORD', email)
      if (method?.secretHash === seededHash) return (await lock.run(() => services.auth.startSession(method.userId, 'password'))).accessToken
    }
    const res = await call('POST', '/auth/login', { body: { type: 'email', email, password: password ?? DEMO_PASSWORD } })
    expect(res.status, JSON.stringify(res.json)).toBe(200)
    return res.json.accessToken as string
  }

  const mails = async () => await database.db.select().from(mailOutbox).all()

  return { app, call, login, clock, database, db: database.db, services, lock, jobs, mails, config }
}

export type TestApp = Awaited<ReturnType<typeof testApp>>

/** A test app wired to the built-in Vipps emulator exactly as `npm start` does (in-process, no timers). */
export async function testAppWithVipps(env: Record<string, string> = {}, options: { fastFaults?: boolean; billing?: Overrides['billing'] } = {}) {
  let wiring: VippsWiring | undefined
  // fastFaults: injected timeouts hang 30 ms and the client gives up after 20 ms without backoff waits.
  const fast = options.fastFaults ? { hangMs: 30, clientOptions: { timeoutMs: 20, sleep: async () => {} } } : {}
  const t = await testApp(env, async ({ database, clock, config, deliverTo }) => {
    wiring = await wireTestVipps({ publicUrl: config.publicUrl, clock, db: database.db, deliverTo, ...fast })
    return { vipps: wiring.environment, vippsLogin: wiring.login, mounts: [{ path: EMULATOR_PATH, app: wiring.emulator!.app }], billing: options.billing }
  })
  return { ...t, emulator: wiring!.emulator! }
}
