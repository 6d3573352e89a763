import pino from 'pino'
import { expect } from 'vitest'
import { createApp } from '../app'
import { openDatabase } from '../db/client'
import { seedDemoData, DEMO_PASSWORD } from '../db/seed'
import { parseConfig, type Config } from '../env'
import { TestClock } from '../lib/clock'
import { mailOutbox } from '../db/schema/platform'
import { createSecretBox } from '../lib/secret-box'

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
export async function testApp(env: Record<string, string> = {}, overrides: Partial<Parameters<typeof createApp>[0]> = {}) {
  const config: Config = parseConfig({ APP_ENV: 'test', DATABASE_PATH: ':memory:', PUBLIC_URL: 'http://localhost:3000', APP_SECRET_KEY: 'test-secret-key', ...env })
  const clock = new TestClock('2026-11-23T09:00:00.000Z')
  const database = openDatabase(':memory:')
  await seedDemoData(database.db, clock, createSecretBox(config.appSecretKey!))
  const log = pino({ level: 'silent' })
  const { app, services, lock } = createApp({ config, database, clock, log, ...overrides })

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
