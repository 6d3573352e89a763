/**
 * Server-side failures reach System Logs with what identifies them (docs/decisions/0040-server-failures-in-system-logs.md): a refusal or an
 * outage at Vipps behind a request, with that request's id (the X-Request-Id the caller got), and
 * a failed job with its name. A caller's own mistake (a plain 4xx) is not logged.
 */
import pino from 'pino'
import { describe, expect, it } from 'vitest'
import { paymentProviders } from '../../db/schema/payments'
import { EMULATOR_PATH, type VippsWiring } from '../../integrations/vipps/built-in'
import { wireTestVipps } from '../../test/test-vipps'
import { JobRunner } from '../../jobs/runner'
import { WriteLock } from '../../lib/write-lock'
import { createLogger } from '../../logger'
import { demo, testApp } from '../../test/harness'
import { createLogsService, systemLogSink } from './logs.service'

/** The app as main.ts wires it: the logger copies warnings and errors to the system log. */
async function appWithSystemLog() {
  const lock = new WriteLock()
  let wiring: VippsWiring | undefined
  let log: pino.Logger | undefined
  const t = await testApp({}, async ({ database, clock, config, deliverTo }) => {
    log = createLogger('info', systemLogSink(createLogsService({ db: database.db, clock }), lock), { write: () => {} })
    wiring = await wireTestVipps({
      publicUrl: config.publicUrl,
      clock,
      db: database.db,
      log,
      deliverTo,
      hangMs: 30,
      clientOptions: { timeoutMs: 20, sleep: async () => {} },
    })
    return { log, lock, vipps: wiring.environment, vippsLogin: wiring.login, mounts: [{ path: EMULATOR_PATH, app: wiring.emulator!.app }] }
  })
  const sa = await t.login(demo.superadmin)
  const entries = async (search: string) => {
    await lock.run(() => undefined)
    return (await t.call('GET', `/logger?search=${encodeURIComponent(search)}`, { token: sa })).json as {
      level: string
      source: string
      message: string
      context: Record<string, any>
    }[]
  }
  return { ...t, sa, lock, log: log!, emulator: wiring!.emulator!, entries }
}

describe('server errors in System Logs', () => {
  it('records a refusal by Vipps behind a request, with the request id the caller got', async () => {
    const t = await appWithSystemLog()
    const provider = (await t.db.select().from(paymentProviders).get())!
    // Vipps takes at most 25 webhooks per event type: the 26th is refused (400 at Vipps, 422 here).
    const client = t.services.providers.vippsClient(provider)
    for (let i = 0; i < 25; i++) await client.registerWebhook({ url: `https://hooks.example/${i}`, events: ['recurring.charge-failed.v1'] }, `hook-${i}`)
    const res = await t.app.request(`/api/webhook/register/${provider.id}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${t.sa}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ webhookUrl: 'https://hooks.example/26', events: ['recurring.charge-failed.v1'] }),
    })
    expect(res.status).toBe(422)
    const requestId = res.headers.get('X-Request-Id')
    expect(requestId).toBeTruthy()
    const [entry, ...more] = await t.entries('/webhook/register')
    expect(more).toEqual([])
    expect(entry).toMatchObject({
      level: 'WARN',
      source: 'server',
      message: expect.stringMatching(/^POST \/api\/webhook\/register\/\S+ answered 422 BUSINESS_RULE: Input validation failed/),
      context: {
        requestId,
        status: 422,
        code: 'BUSINESS_RULE',
        err: { name: 'VippsRejected', status: 400, problem: { extraDetails: [expect.objectContaining({ name: 'events' })] } },
      },
    })
  })

  it("records Vipps being unreachable as an error with the request id, and not a caller's own mistake", async () => {
    const t = await appWithSystemLog()
    const provider = (await t.db.select().from(paymentProviders).get())!
    await t.app.request(`${EMULATOR_PATH}/_control/fail-next-calls`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ count: 20, mode: '500' }),
    })
    const res = await t.app.request(`/api/webhook/register/${provider.id}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${t.sa}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ webhookUrl: 'https://hooks.example/down', events: ['recurring.charge-failed.v1'] }),
    })
    expect(res.status).toBe(503)
    const [entry] = await t.entries('PROVIDER_UNAVAILABLE')
    expect(entry).toMatchObject({ level: 'ERROR', context: { requestId: res.headers.get('X-Request-Id'), status: 503, err: { name: 'VippsUnavailable' } } })

    const mistake = await t.call('POST', `/webhook/register/${provider.id}`, { token: t.sa, body: { webhookUrl: 'nope', events: [] } })
    expect(mistake.status).toBe(400)
    expect(await t.entries('answered 400')).toEqual([])
  })

  it('records a failed job with its name', async () => {
    const t = await appWithSystemLog()
    const runner = new JobRunner({ lock: t.lock, log: t.log })
    await runner.runNow({ name: 'billing', everyMs: 10_000, run: () => Promise.reject(new Error('disk I/O error')) })
    const [entry] = await t.entries('disk I/O')
    expect(entry).toMatchObject({
      level: 'ERROR',
      source: 'server',
      message: 'job billing failed: disk I/O error',
      context: { job: 'billing', err: { name: 'Error', message: 'disk I/O error' } },
    })
  })
})
