import { describe, expect, it } from 'vitest'
import { TestClock } from '../../lib/clock'
import { createVippsEmulator } from './emulator/emulator.app'
import { remoteEmulator } from './remote-emulator'

/**
 * The standalone emulator seen from a product instance (docs/decisions/0055), here with the
 * emulator app behind a fetch that stands in for the network.
 */
const BASE = 'http://emulator.test:3900'
const silentLog = { info() {}, warn() {} }

function setup(opts: { loginUsers?: { phoneNumber: string; name?: string }[] } = {}) {
  const clock = new TestClock('2026-11-23T09:00:00.000Z')
  const emulator = createVippsEmulator({ clock, baseUrl: BASE })
  const calls: string[] = []
  let down = false
  const network = ((input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : input)
    calls.push(`${init?.method ?? 'GET'} ${url.pathname}`)
    if (down) return Promise.reject(new TypeError('fetch failed'))
    return Promise.resolve(emulator.app.request(url.pathname + url.search, init))
  }) as typeof fetch
  const remote = remoteEmulator({ baseUrl: `${BASE}/`, clock, log: silentLog, loginUsers: opts.loginUsers ?? [], fetch: network })
  const control = (path: string, body: unknown) =>
    emulator.app.request(`/_control/${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })
  return { clock, emulator, remote, calls, control, setDown: (value: boolean) => (down = value) }
}

describe('remoteEmulator: the standalone emulator over HTTP', () => {
  it('follows the emulator clock: this instance’s clock plus the offset read at each refresh', async () => {
    const s = setup()
    await s.remote.start()
    expect(s.remote.clock.now().toISOString()).toBe('2026-11-23T09:00:00.000Z')
    await s.control('clock', { advanceMs: 31 * 86_400_000 })
    expect(s.remote.clock.now().toISOString()).toBe('2026-11-23T09:00:00.000Z') // cached until the next round
    await s.remote.refresh()
    expect(s.remote.clock.now().toISOString()).toBe('2026-12-24T09:00:00.000Z')
    s.clock.advance(60_000)
    expect(s.remote.clock.now().toISOString()).toBe('2026-12-24T09:01:00.000Z')
    expect(s.remote.baseUrl).toBe(BASE)
    s.remote.stop()
  })

  it('keeps the last offset while the emulator cannot be reached, and picks up again when it can', async () => {
    const s = setup()
    await s.control('clock', { advanceMs: 3_600_000 })
    s.setDown(true)
    await s.remote.start() // never rejects
    expect(s.remote.clock.now().toISOString()).toBe('2026-11-23T09:00:00.000Z')
    s.setDown(false)
    await s.remote.refresh()
    expect(s.remote.clock.now().toISOString()).toBe('2026-11-23T10:00:00.000Z')
    s.setDown(true)
    await s.remote.refresh()
    expect(s.remote.clock.now().toISOString()).toBe('2026-11-23T10:00:00.000Z')
    s.remote.stop()
  })

  it('a base without emulator controls (the real Vipps) leaves the offset at 0 and is not asked again', async () => {
    const clock = new TestClock('2026-11-23T09:00:00.000Z')
    let asked = 0
    const vipps = (() => {
      asked++
      return Promise.resolve(new Response('{"type":"not-found"}', { status: 404, headers: { 'Content-Type': 'application/problem+json' } }))
    }) as typeof fetch
    const remote = remoteEmulator({ baseUrl: 'https://apitest.vipps.no', clock, log: silentLog, loginUsers: [{ phoneNumber: '4520112233' }], fetch: vipps })
    await remote.start()
    await remote.refresh()
    expect(asked).toBe(1)
    expect(remote.clock.now().toISOString()).toBe('2026-11-23T09:00:00.000Z')
    remote.stop()
  })

  it('registers the product’s people for the sign-in page once, after the emulator answers', async () => {
    const s = setup({ loginUsers: [{ phoneNumber: '+45 20 11 22 33', name: 'Karen Holm' }] })
    s.setDown(true)
    await s.remote.start()
    expect(s.emulator.state.data.loginUsers).toEqual([])
    s.setDown(false)
    await s.remote.refresh()
    await s.remote.refresh()
    expect(s.calls.filter((c) => c === 'PUT /_control/login-users')).toHaveLength(1)
    expect(s.emulator.state.data.loginUsers).toEqual([expect.objectContaining({ phoneNumber: '4520112233', name: 'Karen Holm' })])
    const page = await s.emulator.app.request('/access-management-1.0/access/oauth2/auth?client_id=c&redirect_uri=http://p/cb&response_type=code&scope=openid')
    expect(await page.text()).toContain('Karen Holm')
    s.remote.stop()
  })

  it('asks once when the emulator refuses the list (more than it takes), and says so, instead of sending it every round', async () => {
    const many = Array.from({ length: 501 }, (_, i) => ({ phoneNumber: `45${String(20000000 + i)}` }))
    const clock = new TestClock('2026-11-23T09:00:00.000Z')
    const emulator = createVippsEmulator({ clock, baseUrl: BASE })
    let puts = 0
    const warnings: string[] = []
    const network = ((input: string | URL | Request, init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : input)
      if (init?.method === 'PUT') puts++
      return Promise.resolve(emulator.app.request(url.pathname + url.search, init))
    }) as typeof fetch
    const remote = remoteEmulator({
      baseUrl: BASE,
      clock,
      log: { info() {}, warn: (_o: object, msg?: string) => warnings.push(msg ?? '') },
      loginUsers: many,
      fetch: network,
    })
    await remote.start()
    await remote.refresh()
    await remote.refresh()
    remote.stop()
    expect(puts).toBe(1)
    expect(warnings.some((w) => /sign-in/.test(w))).toBe(true)
  })

  it('approves an agreement through /_control/approve, and says so when the emulator refuses', async () => {
    const s = setup()
    await expect(s.remote.approve('agr_unknown')).rejects.toThrow(/did not approve agr_unknown: 404/)
    expect(s.calls).toContain('POST /_control/approve/agr_unknown')
  })

  it('the emulator refuses a login-users list with a number that is not one', async () => {
    const s = setup()
    const res = await s.emulator.app.request('/_control/login-users', {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ users: [{ phoneNumber: 'abc' }] }),
    })
    expect(res.status).toBe(400)
    expect(s.emulator.state.data.loginUsers).toEqual([])
  })
})
