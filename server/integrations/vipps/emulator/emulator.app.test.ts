import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { TestClock } from '../../../lib/clock'
import { createVippsEmulator } from './emulator.app'

/** The product mounts the emulator under /vipps-emulator; everything must work below that prefix. */
describe('Vipps emulator: mounted under a prefix', () => {
  for (const how of ['mount', 'route'] as const) {
    it(`serves the API and pages under /vipps-emulator (app.${how})`, async () => {
      const clock = new TestClock()
      const emulator = createVippsEmulator({ clock, baseUrl: 'http://localhost:3000/vipps-emulator/' })
      const product = new Hono()
      if (how === 'mount') product.mount('/vipps-emulator', emulator.app.fetch)
      else product.route('/vipps-emulator', emulator.app)
      product.get('*', (c) => c.text('product shell'))

      const tokenRes = await product.request('/vipps-emulator/accesstoken/get', {
        method: 'POST',
        headers: { client_id: 'a', client_secret: 'b', 'Ocp-Apim-Subscription-Key': 'c', 'Merchant-Serial-Number': '123456' },
      })
      const { access_token } = (await tokenRes.json()) as { access_token: string }
      const created = await product.request('/vipps-emulator/recurring/v3/agreements', {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${access_token}`,
          'Ocp-Apim-Subscription-Key': 'c',
          'Merchant-Serial-Number': '123456',
          'Idempotency-Key': 'k1',
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({
          pricing: { currency: 'DKK', amount: 100 },
          interval: { unit: 'MONTH', count: 1 },
          productName: 'P',
          merchantRedirectUrl: 'http://localhost:3000/back',
        }),
      })
      expect(created.status).toBe(201)
      const { agreementId, vippsConfirmationUrl } = (await created.json()) as { agreementId: string; vippsConfirmationUrl: string }
      expect(vippsConfirmationUrl).toBe(`http://localhost:3000/vipps-emulator/confirm/${agreementId}`)

      const page = await product.request(new URL(vippsConfirmationUrl).pathname)
      const html = await page.text()
      // The form posts relative to the page, so it lands on the emulator again.
      const action = /<form method="post" action="([^"]+)">/.exec(html)?.[1] ?? ''
      const target = new URL(action, vippsConfirmationUrl)
      expect(target.pathname).toBe(`/vipps-emulator/confirm/${agreementId}`)
      expect(new URL(/href="([^"]*lang=[^"]*)"/.exec(html)?.[1] ?? '', vippsConfirmationUrl).pathname).toBe(target.pathname)
      const approved = await product.request(target.pathname, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'action=approve',
      })
      expect(approved.status).toBe(303)

      const discovery = (await (await product.request('/vipps-emulator/.well-known/openid-configuration')).json()) as { issuer: string }
      expect(discovery.issuer).toBe('http://localhost:3000/vipps-emulator/access-management-1.0/access/')
      expect(await (await product.request('/vipps-emulator/unknown')).json()).toMatchObject({ status: 404 })
    })
  }

  it('processes charges and delivers webhooks on its own with tickMs', async () => {
    const clock = new TestClock()
    const received: string[] = []
    const emulator = createVippsEmulator({
      clock,
      baseUrl: 'http://localhost:3900',
      tickMs: 10,
      fetch: (async (_input: string | URL | Request, init?: RequestInit) => {
        received.push(String(init?.body))
        return new Response(null, { status: 204 })
      }) as typeof fetch,
    })
    try {
      const token = (await (
        await emulator.app.request('/accesstoken/get', {
          method: 'POST',
          headers: { client_id: 'a', client_secret: 'b', 'Ocp-Apim-Subscription-Key': 'c', 'Merchant-Serial-Number': '1' },
        })
      ).json()) as { access_token: string }
      const headers = {
        Authorization: `Bearer ${token.access_token}`,
        'Ocp-Apim-Subscription-Key': 'c',
        'Merchant-Serial-Number': '1',
        'Content-Type': 'application/json',
      }
      await emulator.app.request('/webhooks/v1/webhooks', {
        method: 'POST',
        headers,
        body: JSON.stringify({ url: 'http://localhost:3000/hook', events: ['recurring.agreement-activated.v1', 'recurring.charge-captured.v1'] }),
      })
      const created = await emulator.app.request('/recurring/v3/agreements', {
        method: 'POST',
        headers: { ...headers, 'Idempotency-Key': 'a1' },
        body: JSON.stringify({
          pricing: { currency: 'DKK', amount: 100 },
          interval: { unit: 'MONTH', count: 1 },
          productName: 'P',
          merchantRedirectUrl: 'http://localhost:3000/back',
        }),
      })
      const { agreementId } = (await created.json()) as { agreementId: string }
      await emulator.app.request(`/_control/approve/${agreementId}`, { method: 'POST' })
      await emulator.app.request(`/recurring/v3/agreements/${agreementId}/charges`, {
        method: 'POST',
        headers: { ...headers, 'Idempotency-Key': 'c1' },
        body: JSON.stringify({ amount: 100, description: 'x', due: '2026-11-24', retryDays: 0, transactionType: 'DIRECT_CAPTURE' }),
      })
      await emulator.app.request('/_control/clock', { method: 'POST', body: JSON.stringify({ advanceMs: 86_400_000 }) })
      await expect
        .poll(() => received.map((b) => (JSON.parse(b) as { eventType: string }).eventType), { timeout: 2000 })
        .toEqual(['recurring.agreement-activated.v1', 'recurring.charge-captured.v1'])
    } finally {
      emulator.stop()
    }
  })
})
