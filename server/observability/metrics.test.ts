import { afterEach, describe, expect, it } from 'vitest'
import pino from 'pino'
import type { AddressInfo } from 'node:net'
import { demo, testApp } from '../test/harness'
import { JobRunner } from '../jobs/runner'
import { WriteLock } from '../lib/write-lock'
import { queueMail } from '../integrations/mail/mail-outbox'
import { metrics } from './metrics'
import { serveMetrics } from './metrics-route'
import { outboxDepths } from './outbox-depths'

const TOKEN = 'operator-token-0123456789'

/** The value of a sample line `name{labels} value` in the text format, or undefined. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue
    const m = /^([^{\s]+)(?:\{(.*)\})? (\S+)$/.exec(line)
    if (!m || m[1] !== name) continue
    const has = Object.entries(labels).every(([k, v]) => (m[2] ?? '').split(',').includes(`${k}="${v}"`))
    if (has) return Number(m[3])
  }
  return undefined
}

afterEach(() => metrics().watch({}))

describe('metrics for operators', () => {
  it('are not on the public port without METRICS_TOKEN, and need the token when it is set', async () => {
    const closed = await testApp()
    expect((await closed.app.request('/metrics')).status).toBe(404)

    const t = await testApp({ METRICS_TOKEN: TOKEN })
    expect((await t.app.request('/metrics')).status).toBe(401)
    expect((await t.app.request('/metrics', { headers: { Authorization: 'Bearer wrong-token-0123456789' } })).status).toBe(401)
    const res = await t.app.request('/metrics', { headers: { Authorization: `Bearer ${TOKEN}` } })
    expect(res.status).toBe(200)
    expect(res.headers.get('Content-Type')).toContain('text/plain')
  })

  it('count requests by route pattern, never by id, with the event-loop delay beside them', async () => {
    const t = await testApp({ METRICS_TOKEN: TOKEN })
    const token = await t.login(demo.admin)
    const route = '/api/agreement/:id'
    const before = sample(await read(t), 'boligkasse_http_request_duration_seconds_count', { method: 'GET', route, status: '4xx' }) ?? 0
    for (const id of ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002'])
      expect((await t.call('GET', `/agreement/${id}`, { token })).status).toBe(404)
    const text = await read(t)
    expect(sample(text, 'boligkasse_http_request_duration_seconds_count', { method: 'GET', route, status: '4xx' })).toBe(before + 2)
    expect(text).not.toContain('00000000-0000-4000-8000-000000000001')
    expect(sample(text, 'nodejs_eventloop_lag_p99_seconds')).toBeGreaterThanOrEqual(0)
  })

  it('tell how many e-mails wait in the outbox, and the job runs and failures', async () => {
    const t = await testApp({ METRICS_TOKEN: TOKEN })
    metrics().watch({ depths: () => outboxDepths(t.db) })
    const queued = (await outboxDepths(t.db)).find((d) => d.outbox === 'mail' && d.status === 'queued')?.rows ?? 0
    await t.lock.run(() => queueMail(t.db, t.clock, { to: 'kasserer@example.dk', subject: 'Test', text: 'Hej' }))
    const runner = new JobRunner({ lock: new WriteLock(), log: pino({ level: 'silent' }) })
    await runner.runNow({ name: 'metrics-test-ok', everyMs: 60_000, run: async () => undefined })
    await runner.runNow({
      name: 'metrics-test-failing',
      everyMs: 60_000,
      run: () => Promise.reject(new Error('the provider is down')),
    })
    const text = await read(t)
    expect(sample(text, 'boligkasse_outbox_rows', { outbox: 'mail', status: 'queued' })).toBe(queued + 1)
    expect(sample(text, 'boligkasse_job_runs_total', { job: 'metrics-test-ok', outcome: 'ok' })).toBeGreaterThanOrEqual(1)
    expect(sample(text, 'boligkasse_job_runs_total', { job: 'metrics-test-failing', outcome: 'failed' })).toBeGreaterThanOrEqual(1)
    expect(sample(text, 'boligkasse_write_lock_wait_seconds_count')).toBeGreaterThan(0)
  })

  it('are answered without a token on METRICS_PORT, and nothing else there', async () => {
    const server = serveMetrics({ port: 0, host: '127.0.0.1' })
    await new Promise((done) => server.once('listening', done))
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      const res = await fetch(`${base}/metrics`)
      expect(res.status).toBe(200)
      expect(await res.text()).toContain('boligkasse_http_request_duration_seconds')
      expect((await fetch(`${base}/api/agreements`)).status).toBe(404)
    } finally {
      server.close()
    }
  })
})

async function read(t: { app: { request: (path: string, init: RequestInit) => Response | Promise<Response> } }): Promise<string> {
  const res = await t.app.request('/metrics', { headers: { Authorization: `Bearer ${TOKEN}` } })
  expect(res.status).toBe(200)
  return await res.text()
}
