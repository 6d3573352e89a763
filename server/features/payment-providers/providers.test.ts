import { describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { demo, testApp, testAppWithVipps } from '../../test/harness'
import { DEMO_VIPPS } from '../../db/seed'
import { paymentProviders } from '../../db/schema/payments'
import { companyIds } from '../companies/test-helpers'
import { TestClock } from '../../lib/clock'
import { createVippsClient } from '../../integrations/vipps/vipps.client'
import type { VippsEnvironment } from '../../integrations/vipps/vipps-environment'

const config = {
  providerName: 'Vipps MobilePay',
  merchantSerialNumber: '123456',
  subscriptionKey: 'sub-key-abcd1234',
  clientId: 'client-1',
  clientSecret: 'client-secret-wxyz9876',
}

async function setup() {
  const t = await testApp()
  const { main, second } = await companyIds(t)
  const sa = await t.login(demo.superadmin)
  const provider = (await t.db.select().from(paymentProviders).where(eq(paymentProviders.companyId, main)).get())!
  return { t, main, second, sa, provider }
}

describe('payment providers', () => {
  it('adds a Vipps provider (test by default) with sealed secrets, masked in every answer', async () => {
    const { t, second, sa } = await setup()
    const res = await t.call('POST', `/company/${second}/payment-providers`, { token: sa, body: { config } })
    expect(res.status).toBe(201)
    expect(res.json).toMatchObject({
      type: 'VIPPS',
      isTest: true,
      isActive: true,
      companyId: second,
      version: 1,
      hooks: [],
      webhookCount: 0,
      config: { ...config, subscriptionKey: '••••1234', clientSecret: '••••9876', useTestMode: true },
    })
    expect(JSON.stringify(res.json)).not.toContain('client-secret')
    const row = (await t.db.select().from(paymentProviders).where(eq(paymentProviders.id, res.json.id)).get())!
    expect(row.clientSecretSealed).not.toContain('client-secret')
    expect(t.services.secrets.open(row.clientSecretSealed)).toBe(config.clientSecret)
    const list = await t.call('GET', `/company/${second}/payment-providers`, { token: sa })
    expect(list.json).toEqual([res.json])
    const one = await t.call('GET', `/company/${second}/payment-providers/${res.json.id}`, { token: sa })
    expect(one.json).toEqual(res.json)
    expect(one.headers.get('ETag')).toBe('"1"')
  })

  it('answers "This field is required" for each missing config field and refuses other types', async () => {
    const { t, second, sa } = await setup()
    const res = await t.call('POST', `/company/${second}/payment-providers`, { token: sa, body: { config: {} } })
    expect(res.status).toBe(400)
    const paths = res.json.issues.map((i: { path: string }) => i.path).sort()
    expect(paths).toEqual(['config.clientId', 'config.clientSecret', 'config.merchantSerialNumber', 'config.providerName', 'config.subscriptionKey'])
    expect(new Set(res.json.issues.map((i: { message: string }) => i.message))).toEqual(new Set(['This field is required']))
    expect((await t.call('POST', `/company/${second}/payment-providers`, { token: sa, body: { type: 'MOBILEPAY', config } })).status).toBe(400)
  })

  it('changes config and toggles, keeping a secret sent back masked, with If-Match', async () => {
    const { t, main, sa, provider } = await setup()
    const path = `/company/${main}/payment-providers/${provider.id}`
    const patch = await t.call('PATCH', path, {
      token: sa,
      body: { isTest: false, config: { providerName: 'Solgården Vipps', clientSecret: '••••cret', subscriptionKey: 'new-subscription-5555' } },
      headers: { 'If-Match': '"1"' },
    })
    expect(patch.status).toBe(200)
    expect(patch.json).toMatchObject({
      isTest: false,
      version: 2,
      config: { providerName: 'Solgården Vipps', clientSecret: '••••cret', subscriptionKey: '••••5555' },
    })
    const row = (await t.db.select().from(paymentProviders).where(eq(paymentProviders.id, provider.id)).get())!
    expect(t.services.secrets.open(row.clientSecretSealed)).toBe(DEMO_VIPPS.clientSecret)
    expect(t.services.secrets.open(row.subscriptionKeySealed)).toBe('new-subscription-5555')
    const stale = await t.call('PATCH', `${path}/toggle-active`, { token: sa, headers: { 'If-Match': '"1"' } })
    expect(stale).toMatchObject({ status: 412, json: { code: 'VERSION_CONFLICT', current: { version: 2 } } })
    expect(JSON.stringify(stale.json)).not.toContain(DEMO_VIPPS.clientSecret)
    const off = await t.call('PATCH', `${path}/toggle-active`, { token: sa })
    expect(off.json).toMatchObject({ isActive: false, version: 3 })
    expect((await t.call('PATCH', `${path}/toggle-active`, { token: sa })).json).toMatchObject({ isActive: true, version: 4 })
  })

  it('lets staff read providers (masked) and only the super admin manage them', async () => {
    const { t, main, second, provider } = await setup()
    const admin = await t.login(demo.admin)
    const other = await t.login(demo.otherAdmin)
    const resident = await t.call('GET', `/company/${main}/payment-providers`, { token: await t.login(demo.resident) })
    expect(resident.status).toBe(404)
    expect((await t.call('GET', `/company/${main}/payment-providers`, { token: admin })).json[0].config.clientSecret).toBe('••••cret')
    expect((await t.call('POST', `/company/${main}/payment-providers`, { token: admin, body: { config } })).status).toBe(403)
    expect((await t.call('PATCH', `/company/${main}/payment-providers/${provider.id}/toggle-active`, { token: admin })).status).toBe(403)
    expect((await t.call('GET', `/company/${main}/payment-providers/${provider.id}`, { token: other })).status).toBe(404)
    // A provider asked for under another company is not found, even for the super admin.
    const sa = await t.login(demo.superadmin)
    expect((await t.call('GET', `/company/${second}/payment-providers/${provider.id}`, { token: sa })).json).toMatchObject({
      code: 'NOT_FOUND',
      message: 'Payment provider not found',
    })
  })

  it('refuses provider changes while the company is suspended', async () => {
    const { t, main, sa, provider } = await setup()
    await t.call('POST', `/company/${main}/suspend`, { token: sa })
    expect((await t.call('PATCH', `/company/${main}/payment-providers/${provider.id}/toggle-active`, { token: sa })).json.code).toBe('INVALID_STATE')
    expect((await t.call('POST', `/company/${main}/payment-providers`, { token: sa, body: { config } })).json.code).toBe('INVALID_STATE')
  })
})

describe('test connection', () => {
  it('fetches a Vipps access token with the stored credentials (emulator)', async () => {
    const t = await testAppWithVipps()
    const { main, second } = await companyIds(t)
    const sa = await t.login(demo.superadmin)
    const provider = (await t.db.select().from(paymentProviders).where(eq(paymentProviders.companyId, main)).get())!
    const ok = await t.call('POST', `/company/${main}/payment-providers/${provider.id}/test-connection`, { token: sa })
    expect(ok).toMatchObject({ status: 200, json: { ok: true, environment: 'test', message: 'Connected: Vipps MobilePay issued an access token.' } })
    expect((await t.call('POST', `/company/${second}/payment-providers/${provider.id}/test-connection`, { token: sa })).status).toBe(404)
    const admin = await t.login(demo.admin)
    expect((await t.call('POST', `/company/${main}/payment-providers/${provider.id}/test-connection`, { token: admin })).status).toBe(403)
    expect((await t.call('POST', `/company/${main}/payment-providers/${provider.id}/test-connection`)).status).toBe(401)
  })
})

describe('test connection when Vipps refuses or is down', () => {
  const fakeVipps = (status: number): VippsEnvironment => {
    const fetch = (async () =>
      status === 0 ?
        Promise.reject(new TypeError('fetch failed'))
      : new Response(JSON.stringify({ type: 'about:blank', title: 'Unauthorized', status, detail: 'Invalid client credentials' }), {
          status,
          headers: { 'Content-Type': 'application/problem+json' },
        })) as typeof globalThis.fetch
    return {
      clientFor: (c) => createVippsClient(c, { clock: new TestClock(), baseUrl: 'http://fake-vipps', fetch, sleep: async () => {} }),
      publicBaseUrl: () => 'http://fake-vipps',
    }
  }

  it('answers 422 when Vipps refuses the credentials and 503 when it cannot be reached', async () => {
    for (const [status, expected] of [
      [401, 422],
      [0, 503],
    ] as const) {
      const t = await testApp({}, { vipps: fakeVipps(status) })
      const { main } = await companyIds(t)
      const provider = (await t.db.select().from(paymentProviders).where(eq(paymentProviders.companyId, main)).get())!
      const res = await t.call('POST', `/company/${main}/payment-providers/${provider.id}/test-connection`, { token: await t.login(demo.superadmin) })
      expect(res.status, JSON.stringify(res.json)).toBe(expected)
    }
  })
})
