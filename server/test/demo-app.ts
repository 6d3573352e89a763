import pino from 'pino'
import { createApp } from '../app'
import type { SqliteDatabase_ } from '../db/client'
import { parseConfig } from '../env'
import type { TestClock } from '../lib/clock'
import { EMULATOR_PATH } from '../integrations/vipps/built-in'
import { wireTestVipps } from './test-vipps'
import { DEMO_PASSWORD } from './harness'

/**
 * The app as `npm start` runs the demo (server/main.ts): the built-in Vipps emulator mounted and
 * billing on the emulator's business clock, over `database`. `login` signs a demo person in with
 * the demo password.
 */
export async function demoApp(database: SqliteDatabase_, clock: TestClock, secretKey: string) {
  const config = parseConfig({ APP_ENV: 'test', DATABASE_PATH: ':memory:', PUBLIC_URL: 'http://localhost:3000', APP_SECRET_KEY: secretKey })
  const log = pino({ level: 'silent' })
  let appRef: { fetch: (r: Request) => Response | Promise<Response> } | undefined
  const vipps = await wireTestVipps({ publicUrl: config.publicUrl, clock, db: database.db, log, deliverTo: () => (r) => appRef!.fetch(r) })
  const emulator = vipps.emulator!
  const made = createApp({
    config,
    database,
    clock,
    log,
    vipps: vipps.environment,
    vippsLogin: vipps.login,
    mounts: [{ path: EMULATOR_PATH, app: emulator.app }],
    billing: { clock: emulator.clock },
  })
  appRef = made.app
  const login = async (email: string): Promise<string> => {
    const res = await made.app.request('/api/auth/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ type: 'email', email, password: DEMO_PASSWORD }),
    })
    if (res.status !== 200) throw new Error(`${email} could not sign in: ${res.status}`)
    return ((await res.json()) as { accessToken: string }).accessToken
  }
  return { ...made, config, log, emulator, login }
}
