import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { TestClock } from '../../../lib/clock'
import { createVippsEmulator } from './emulator.app'
import { BASE_URL, MSN, setup } from './emulator.test-support'

const dirs: string[] = []
const tempFile = () => {
  const dir = mkdtempSync(join(tmpdir(), 'vipps-emulator-'))
  dirs.push(dir)
  return join(dir, 'nested', 'vipps-emulator.json')
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe('Vipps emulator: state', () => {
  it('keeps agreements, charges, hooks and tokens across a restart (persistPath)', async () => {
    const persistPath = tempFile()
    const first = setup({ persistPath })
    const id = await first.activeAgreement()
    const chargeId = await first.createCharge(id)
    const token = await first.token()
    await first.call('POST', '/webhooks/v1/webhooks', { body: { url: 'http://localhost:3000/hook', events: ['recurring.charge-captured.v1'] } })
    first.emulator.stop()
    expect(existsSync(persistPath)).toBe(true)
    expect(readdirSync(join(persistPath, '..')).filter((f) => f.endsWith('.tmp'))).toEqual([]) // written via temp file + rename

    const second = createVippsEmulator({ clock: first.clock, baseUrl: BASE_URL, persistPath })
    const headers = { Authorization: `Bearer ${token}`, 'Ocp-Apim-Subscription-Key': 'k', 'Merchant-Serial-Number': MSN }
    const charge = await second.app.request(`/recurring/v3/agreements/${id}/charges/${chargeId}`, { headers })
    expect(charge.status).toBe(200)
    expect(await charge.json()).toMatchObject({ status: 'DUE', amount: 45000 })
    expect(await (await second.app.request('/webhooks/v1/webhooks', { headers })).json()).toMatchObject({ webhooks: [{ url: 'http://localhost:3000/hook' }] })
  })

  it('writes what a processing run changed', async () => {
    const persistPath = tempFile()
    const t = setup({ persistPath })
    const id = await t.activeAgreement()
    await t.createCharge(id, { due: '2026-11-24' })
    await t.advanceDays(1)
    await t.emulator.processDue()
    const saved = JSON.parse(readFileSync(persistPath, 'utf8')) as { charges: Record<string, { status: string }> }
    expect(Object.values(saved.charges).map((c) => c.status)).toEqual(['CHARGED'])
  })

  it('starts empty, and keeps the broken file aside, when the file cannot be read', () => {
    const persistPath = tempFile()
    const first = setup({ persistPath })
    first.emulator.state.changed()
    first.emulator.state.flush()
    writeFileSync(persistPath, '{ half a file')
    const warnings: string[] = []
    const emulator = createVippsEmulator({
      clock: new TestClock(),
      baseUrl: BASE_URL,
      persistPath,
      log: { info() {}, error() {}, warn: (_o, msg) => warnings.push(msg ?? '') },
    })
    expect(emulator.state.data.agreements).toEqual({})
    expect(warnings).toEqual([expect.stringContaining('unreadable')])
    expect(readdirSync(join(persistPath, '..')).some((f) => f.includes('.corrupt-'))).toBe(true)
  })
})

describe('Vipps emulator: control endpoints', () => {
  it('moves the emulator clock without moving the injected clock', async () => {
    const t = setup()
    const res = await t.control('clock', { advanceMs: 86_400_000 })
    expect(await res.json()).toEqual({ now: '2026-11-24T09:00:00.000Z', offsetMs: 86_400_000 })
    expect(t.clock.now().toISOString()).toBe('2026-11-23T09:00:00.000Z')
    expect(await (await t.control('clock', { set: '2027-01-01T00:00:00.000Z' })).json()).toMatchObject({ now: '2027-01-01T00:00:00.000Z' })
    expect((await t.control('clock', {})).status).toBe(400)
    expect((await t.control('clock', { set: 'tomorrow' })).status).toBe(400)
  })

  it('processes due charges on request and reports how many moved', async () => {
    const t = setup()
    const id = await t.activeAgreement()
    await t.createCharge(id, { due: '2026-11-24' })
    await t.advanceDays(1)
    expect(await (await t.control('process-due')).json()).toEqual({ moved: 1 })
  })

  it('approves and rejects without a browser, and refuses what is not PENDING', async () => {
    const t = setup()
    const a = await t.createAgreement()
    const b = await t.createAgreement()
    expect(await (await t.control(`approve/${a}`, { phoneNumber: '4512345678' })).json()).toMatchObject({ id: a, status: 'ACTIVE' })
    expect(await (await t.control(`reject/${b}`)).json()).toMatchObject({ id: b, status: 'STOPPED' })
    expect((await t.control(`approve/${a}`)).status).toBe(400)
    expect((await t.control('approve/agr_missing')).status).toBe(404)
  })

  it('stops an agreement as the member would in the app, leaving RESERVED charges to the merchant', async () => {
    const t = setup()
    const id = await t.activeAgreement()
    const due = await t.createCharge(id, { due: '2026-12-10' })
    const reserved = await t.createCharge(id, { due: '2026-11-24', transactionType: 'RESERVE_CAPTURE' })
    await t.advanceDays(1)
    await t.emulator.processDue()
    expect(await (await t.control(`stop/${id}`)).json()).toMatchObject({ status: 'STOPPED' })
    expect((await t.getJson(`/recurring/v3/agreements/${id}/charges/${due}`)).status).toBe('CANCELLED')
    expect((await t.getJson(`/recurring/v3/agreements/${id}/charges/${reserved}`)).status).toBe('RESERVED')
    expect(t.emulator.state.eventsOfType('recurring.agreement-stopped.v1').map((e) => e.payload.agreementId)).toEqual([id])
    expect((await t.control(`stop/${id}`)).status).toBe(400)
  })

  it('dumps the state and resets it', async () => {
    const t = setup()
    await t.createAgreement()
    await t.control('fail-next-charges', { count: 3 })
    const state = (await (await t.app.request('/_control/state')).json()) as { agreements: object; faults: { failNextCharges: { count: number } } }
    expect(Object.keys(state.agreements)).toHaveLength(1)
    expect(state.faults.failNextCharges.count).toBe(3)
    expect((await t.control('reset')).status).toBe(200)
    expect(t.emulator.state.data.agreements).toEqual({})
    expect(t.emulator.state.data.faults.failNextCharges.count).toBe(0)
  })

  it('keeps the sign-in people the products registered across a reset (they register once, at start)', async () => {
    const t = setup()
    const put = await t.app.request('/_control/login-users', {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ users: [{ phoneNumber: '+45 20 11 22 33', name: 'Karen Holm' }] }),
    })
    expect(put.status).toBe(200)
    await t.createAgreement()
    expect((await t.control('reset')).status).toBe(200)
    expect(t.emulator.state.data.agreements).toEqual({})
    expect(t.emulator.state.data.loginUsers).toEqual([expect.objectContaining({ phoneNumber: '4520112233', name: 'Karen Holm' })])
  })

  it('answers unknown emulator paths with a 404 problem', async () => {
    const t = setup()
    const res = await t.app.request('/recurring/v4/agreements')
    expect(res.status).toBe(401) // the API guard answers first for API paths
    const other = await t.app.request('/nothing-here')
    expect(other.status).toBe(404)
    expect(other.headers.get('Content-Type')).toBe('application/problem+json')
  })
})
