/**
 * The standalone emulator (`npm run emulator`, server/emulator-main.ts) as several instances use
 * it (docs/decisions/0055): a spawned emulator process and a product app reaching it only through
 * VIPPS_BASE_URL over HTTP, the product served on a port of its own so the emulator's webhooks and
 * the confirmation page's return reach it. An agreement goes through the emulator's confirmation
 * page to ACCEPTED, a regular charge through to paid by webhook; both sides agree; Vipps sign-in
 * offers the people the product registered; and the emulator stopped with SIGTERM and started
 * again still has all of it.
 */
import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import type { Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { vippsWebhookEvents } from '../../../../shared/contract/webhooks'
import { agreements, charges, providerOutbox } from '../../../db/schema/agreements'
import { agreementFixtures, createAgreement } from '../../../features/agreements/test-helpers'
import { createNodeServer } from '../../../http/node-server'
import { demo, testApp, type TestApp } from '../../../test/harness'
import { emulatorControl, freePort, startEmulator, stopProcess } from '../../../test/processes'
import { wireVipps, type VippsWiring } from '../built-in'

const DAY = 86_400_000

describe('the standalone Vipps emulator shared through VIPPS_BASE_URL', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bk-standalone-emulator-'))
  const statePath = join(dir, 'vipps-emulator.json')
  let emulatorPort: number
  let emulatorUrl: string
  let productUrl: string
  let emulator: ChildProcess
  let product: Server
  let wiring: VippsWiring
  let t: TestApp

  /** A `/_control` lever of the emulator, over HTTP. */
  const control = (method: 'GET' | 'POST', path: string, body?: unknown) => emulatorControl(emulatorUrl)(method, path, body)

  beforeAll(async () => {
    emulatorPort = await freePort()
    emulatorUrl = `http://localhost:${emulatorPort}`
    const productPort = await freePort()
    productUrl = `http://localhost:${productPort}`
    emulator = (await startEmulator(emulatorPort, statePath)).child
    t = await testApp({ PUBLIC_URL: productUrl, VIPPS_BASE_URL: emulatorUrl }, async ({ database, clock, config, deliverTo }) => {
      // The emulator signs webhooks and issues tokens on the real clock; the product checks them on its own.
      clock.set(new Date())
      wiring = await wireVipps({
        publicUrl: config.publicUrl,
        vippsBaseUrl: config.vippsBaseUrl,
        isProduction: false,
        loginClient: undefined,
        clock,
        db: database.db,
        dataDir: dir,
        log: pino({ level: 'silent' }),
        deliverTo,
      })
      return { vipps: wiring.environment, vippsLogin: wiring.login, billing: wiring.businessClock ? { clock: wiring.businessClock } : undefined }
    })
    product = createNodeServer(t.app.fetch)
    await new Promise<void>((resolve) => product.listen(productPort, resolve))
    await wiring.remote!.start()
  }, 60_000)

  afterAll(async () => {
    wiring?.stop()
    await new Promise((resolve) => (product ? product.close(resolve) : resolve(undefined)))
    if (emulator) await stopProcess(emulator, 'SIGKILL')
    rmSync(dir, { recursive: true, force: true })
  })

  it('nothing runs in the product: no built-in emulator, no /vipps-emulator mount', async () => {
    expect(wiring.emulator).toBeUndefined()
    expect(wiring.remote?.baseUrl).toBe(emulatorUrl)
    expect((await fetch(`${productUrl}/vipps-emulator/_control/clock`)).status).not.toBe(200)
  })

  it('agreement: the emulator’s confirmation page → ACCEPTED; a charge → paid by webhook; both sides agree; the state survives SIGTERM', async () => {
    const f = await agreementFixtures(t)
    const webhookUrl = `${productUrl}/api/webhooks/vipps/${f.provider}`
    const hook = await t.call('POST', `/webhook/register/${f.provider}`, {
      token: await t.login(demo.superadmin),
      body: { webhookUrl, events: [...vippsWebhookEvents] },
    })
    expect(hook.status, JSON.stringify(hook.json)).toBe(201)
    expect(Object.values((await control('GET', 'state')).hooks as Record<string, { url: string }>).map((h) => h.url)).toEqual([webhookUrl])

    // Due in two days: inside the billing lead time, so the first billing run makes the charge.
    const due = new Date(t.clock.now().getTime() + 2 * DAY).toISOString().slice(0, 10)
    const admin = await t.login(demo.admin)
    const a = await createAgreement(t, { startPaymentDate: due }, admin)
    const accept = await t.call('POST', `/agreement/${a.id}/accept`, { token: await t.login(demo.resident) })
    expect(accept.status, JSON.stringify(accept.json)).toBe(200)
    const confirmationUrl = accept.json.confirmationUrl as string
    expect(confirmationUrl.startsWith(`${emulatorUrl}/confirm/agr_`), confirmationUrl).toBe(true)

    // The member's browser: the landing page, then Approve, and back to the product.
    const page = await fetch(confirmationUrl)
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('name="action" value="approve"')
    const approved = await fetch(confirmationUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ action: 'approve' }).toString(),
      redirect: 'manual',
    })
    expect(approved.status).toBe(303)
    expect(approved.headers.get('Location')!.startsWith(productUrl), approved.headers.get('Location')!).toBe(true)

    // The emulator posts the signed webhook to the product over HTTP; the product's job acts on it.
    expect((await control('POST', 'deliver-webhooks', { all: true })).pending).toBe(0)
    await t.services.webhooks.processDue()
    const ours = async () => (await t.db.select().from(agreements).where(eq(agreements.id, a.id)).get())!
    expect((await ours()).status).toBe('ACCEPTED')
    const vippsAgreementId = (await ours()).vippsAgreementId!
    expect((await control('GET', 'state')).agreements[vippsAgreementId]).toMatchObject({ status: 'ACTIVE', pricing: { amount: a.price } })

    // Billing makes the charge, the outbox sends it to the emulator.
    await t.services.billing.run()
    await t.services.providerOutbox.run()
    expect((await t.db.select().from(providerOutbox).all()).every((o) => o.status === 'sent')).toBe(true)
    const charge = async () => (await t.db.select().from(charges).where(eq(charges.agreementId, a.id)).get())!
    expect((await charge()).vippsChargeId).toBeTruthy()

    // The emulator's day comes: it charges, and every instance's billing sees its clock.
    await control('POST', 'clock', { set: `${due}T08:00:00.000Z` })
    await wiring.remote!.refresh()
    expect(Math.abs(wiring.businessClock!.now().getTime() - Date.parse(`${due}T08:00:00.000Z`))).toBeLessThan(60_000)
    await control('POST', 'process-due')
    expect((await control('POST', 'deliver-webhooks', { all: true })).pending).toBe(0)
    await t.services.webhooks.processDue()
    expect(await charge()).toMatchObject({ status: 'EXECUTED', vippsStatus: 'CHARGED', capturedOre: a.price })

    const atVipps = async () => (await control('GET', 'state')).charges as Record<string, { id: string; agreementId: string; status: string; amount: number }>
    const before = Object.values(await atVipps())
    expect(before).toEqual([
      expect.objectContaining({ id: (await charge()).vippsChargeId, agreementId: vippsAgreementId, status: 'CHARGED', amount: (await charge()).amountOre }),
    ])

    // SIGTERM: the emulator writes its state and exits cleanly; started again on the same file, it has it all.
    expect(await stopProcess(emulator)).toBe(0)
    emulator = (await startEmulator(emulatorPort, statePath)).child
    const after = await control('GET', 'state')
    expect(Object.values(after.charges)).toEqual(before)
    expect(after.agreements[vippsAgreementId]).toMatchObject({ status: 'ACTIVE' })
    expect(after.offsetMs).toBeGreaterThan(DAY)
    // The product carries on against the restarted emulator (its access token, kept in the state, still valid).
    await t.services.vippsPoll.run()
    expect((await ours()).status).toBe('ACCEPTED')
    expect(await charge()).toMatchObject({ status: 'EXECUTED', vippsStatus: 'CHARGED' })
  })

  it('Vipps sign-in goes to the standalone emulator, which offers the people the product registered', async () => {
    const start = await t.app.request('/api/auth/vipps')
    expect(start.status).toBe(302)
    const authorize = new URL(start.headers.get('Location')!)
    expect(authorize.origin).toBe(emulatorUrl)
    const html = await (await fetch(authorize)).text()
    expect(html).toContain('Karen Holm')
    const request = /name="request" value="([^"]+)"/.exec(html)?.[1]
    expect(request, html.slice(0, 500)).toBeTruthy()
    const chosen = await fetch(`${authorize.origin}${authorize.pathname}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ request: request!, phoneNumber: '4531000001' }).toString(),
      redirect: 'manual',
    })
    expect(chosen.status).toBe(302)
    const callback = new URL(chosen.headers.get('Location')!)
    expect(callback.origin).toBe(productUrl)
    const landed = await t.app.request(callback.pathname + callback.search, { headers: { Cookie: start.headers.get('Set-Cookie')!.split(';')[0]! } })
    expect(landed.status).toBe(302)
    expect(landed.headers.get('Location')).toMatch(/authToken=/)
  })
})
