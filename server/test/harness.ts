import pino from 'pino'
import { expect } from 'vitest'
import { createApp } from '../app'
import { openDatabase } from '../db/client'
import { seedDemoData, DEMO_PASSWORD } from '../db/seed'
import { parseConfig, type Config } from '../env'
import { TestClock } from '../lib/clock'
import { mailOutbox } from '../db/schema/platform'
import { createSecretBox } from '../lib/secret-box'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { EMULATOR_PATH, wireVipps, type VippsWiring } from '../integrations/vipps/built-in'

export { DEMO_PASSWORD }

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
 * A whole app on a private in-memory database with the demo data, a fixed clock and silent logs.
 * `call` sends JSON like a client; `login` signs in a demo user.
 */
type Overrides = Partial<Parameters<typeof createApp>[0]>

export async function testApp(
  env: Record<string, string> = {},
  overrides: Overrides | ((ctx: { database: ReturnType<typeof openDatabase>; clock: TestClock; config: Config; deliverTo: () => (r: Request) => Response | Promise<Response> }) => Overrides) = {},
) {
  const config: Config = parseConfig({ APP_ENV: 'test', DATABASE_PATH: ':memory:', PUBLIC_URL: 'http://localhost:3000', APP_SECRET_KEY: 'test-secret-key', ...env })
  const clock = new TestClock('2026-11-23T09:00:00.000Z')
  const database = openDatabase(':memory:')
  // Without the demo agreements: tests create the agreements they need (numbers start at 1001).
  await seedDemoData(database.db, clock, createSecretBox(config.appSecretKey!), { demoAgreements: false })
  const log = pino({ level: 'silent' })
  let appRef: { fetch: (r: Request) => Response | Promise<Response> } | undefined
  const extra = typeof overrides === 'function' ? overrides({ database, clock, config, deliverTo: () => (r) => appRef!.fetch(r) }) : overrides
  const { app, services, lock } = createApp({ config, database, clock, log, ...extra })
  appRef = app

  async function call(method: string, path: string, opts: { token?: string; body?: unknown; headers?: Record<string, string> } = {}) {
    const headers: Record<string, string> = { ...opts.headers }
    if (opts.token) headers.Authorization = `Bearer ${opts.token}`
    if (opts.body !== undefined) headers['Content-Type'] = 'application/json'
    const res = await app.request(`/api${path}`, {
      method,
      headers,
      body: opts.body === undefined ? undefined : typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body),
    })
    const text = await res.text()
    let json: any = undefined
    try {
      json = text ? JSON.parse(text) : undefined
    } catch {
      json = text
    }
    return { status: res.status, headers: res.headers, json }
  }

  async function login(email: string, password = DEMO_PASSWORD): Promise<string> {
    const res = await call('POST', '/auth/login', { body: { type: 'email', email, password } })
    expect(res.status, JSON.stringify(res.json)).toBe(200)
    return res.json.accessToken as string
  }

  const mails = () => database.db.select().from(mailOutbox).all()

  return { app, call, login, clock, database, db: database.db, services, lock, mails, config }
}

export type TestApp = Awaited<ReturnType<typeof testApp>>

/** A test app wired to the built-in Vipps emulator exactly as `npm start` does (in-process, no timers). */
export async function testAppWithVipps(env: Record<string, string> = {}, options: { fastFaults?: boolean; billing?: Overrides['billing'] } = {}) {
  let wiring: VippsWiring | undefined
  // fastFaults: injected timeouts hang 30 ms and the client gives up after 20 ms without backoff waits.
  const fast = options.fastFaults ? { hangMs: 30, clientOptions: { timeoutMs: 20, sleep: async () => {} } } : {}
  const t = await testApp(env, ({ database, clock, config, deliverTo }) => {
    wiring = wireVipps({ publicUrl: config.publicUrl, vippsBaseUrl: undefined, isProduction: false, loginClient: undefined, clock, db: database.db, dataDir: mkdtempSync(join(tmpdir(), 'bk-vipps-')), log: pino({ level: 'silent' }), deliverTo, tickMs: 0, ...fast })
    return { vipps: wiring.environment, vippsLogin: wiring.login, mounts: [{ path: EMULATOR_PATH, app: wiring.emulator!.app }], billing: options.billing }
  })
  return { ...t, emulator: wiring!.emulator! }
}
