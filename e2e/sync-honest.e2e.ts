/**
 * Offline a board can trust, in what it says (docs/OFFLINE.md "Conflicts and refusals", "Triggers"):
 * (a) a notification deleted on another device and marked read here while offline simply
 *     succeeds: no error, the indicator returns to synced;
 * (d) a message written and sent offline is "1 change waiting" (not two internal steps), and
 *     the sync panel names money actions ("Refund", not "Change");
 * (b) a board member removed from the association while offline reads, in words, that they no
 *     longer have access to it and that their change was not applied — and it was sent once;
 * (c) with the server answering 503 (the browser still online) a refund says queued, never
 *     success; once the server answers it goes through exactly once and then says so;
 * (e) when the device cannot store the change (quota), the form says plainly it was NOT kept,
 *     and what was typed stays;
 * (f) with the server answering 503 and nothing queued the indicator says offline; the message
 *     form then says queued (never "sent"), the message goes once the server answers, a message
 *     written while it answers says sent, and one the device cannot store is NOT kept.
 * The server logs every request (LOG_LEVEL info), so "sent once" is counted where it arrives.
 */
import { describe, expect, it } from 'vitest'
import type { BrowserContext, Page } from 'playwright-core'
import { DEMO_PASSWORD, danish } from './harness'
import { journeySuite, signIn, snapBoth, syncState } from './journeys'

const { suite, clientIp, journey, serverRows } = journeySuite('sync-honest', 21, { LOG_LEVEL: 'info' })

const DAY = 24 * 3600 * 1000

async function call(method: string, path: string, token: string | null, body?: unknown) {
  const res = await fetch(`${suite.server.url}${path.startsWith('/vipps-emulator') ? '' : '/api'}${path}`, {
    method,
    headers: { ...clientIp(), 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await res.text()
  return { status: res.status, json: text ? JSON.parse(text) : undefined }
}

async function apiLogin(email: string): Promise<string> {
  const { status, json } = await call('POST', '/auth/login', null, { type: 'email', email, password: DEMO_PASSWORD })
  expect(status).toBe(200)
  return json.accessToken
}

/** Signs the user in through the API first, in English (these journeys read English sentences). */
async function englishUser(email: string): Promise<string> {
  const token = await apiLogin(email)
  expect((await call('PATCH', '/account/profile/language', token, { value: 'EN' })).status).toBe(200)
  return token
}

/** Requests the server answered, from its log: `method path` of each (LOG_LEVEL info logs every request). */
function served(method: string, path: string): number {
  return suite.server
    .output()
    .split('\n')
    .filter((line) => line.includes('"msg":"request"') && line.includes(`"method":"${method}"`) && line.includes(`"path":"${path}"`)).length
}

/** The page's /api cut off (aborted, as without a network) while `offline` is set. */
async function cutApi(target: Page | BrowserContext) {
  const api = { offline: true }
  await target.route('**/api/**', (route) => (api.offline ? route.abort('internetdisconnected') : route.fallback()))
  return api
}

/** Every /api call answers 503 while `down` is set: the server is down, the browser still says online. */
async function serverDown(context: BrowserContext) {
  const server = { down: true }
  await context.route('**/api/**', (route) =>
    server.down ?
      route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ code: 'UNAVAILABLE', message: 'Service unavailable' }) })
    : route.fallback(),
  )
  return server
}

/**
 * The outbox store of every page of the context refuses writes with a QuotaExceededError (as a
 * full disk would) once `storageFull` has set the page's flag; until then it stores as usual.
 */
async function failOutboxWrites(context: BrowserContext) {
  await context.addInitScript(() => {
    const w = window as unknown as { __quotaFull?: boolean }
    for (const method of ['add', 'put'] as const) {
      const original = IDBObjectStore.prototype[method]
      IDBObjectStore.prototype[method] = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['add']>) {
        if (w.__quotaFull && this.name === 'outbox') throw new DOMException('The quota has been exceeded.', 'QuotaExceededError')
        return original.apply(this, args)
      } as IDBObjectStore['add']
    }
  })
}

const storageFull = (page: Page) => page.evaluate(() => ((window as unknown as { __quotaFull?: boolean }).__quotaFull = true))

async function restoreApi(api: { offline: boolean }, page: Page) {
  api.offline = false
  await page.evaluate(() => dispatchEvent(new Event('online')))
}

const indicator = (page: Page) => page.locator('.sync-indicator:visible')

describe('honest sync', () => {
  it('(a) a notification deleted on another device, marked read here offline: no error, back to synced', () =>
    journey('quiet', async (_context, page) => {
      const email = 'beboer05@solgaarden.dk'
      const token = await englishUser(email)
      for (const identifier of ['Key A', 'Key B'])
        expect((await call('POST', '/account/auth-methods', token, { type: 'LOGIN_TOKEN', identifier, currentPassword: DEMO_PASSWORD })).status).toBe(201)
      await signIn(page, email)
      await page
        .locator('nav.sidebar-nav')
        .getByRole('link', { name: /^Notifications/ })
        .click()
      const item = (key: string) => page.locator('li.notification', { hasText: key })
      await item('Key B').waitFor()
      await expect.poll(() => syncState(page)).toBe('synced')

      const api = await cutApi(page)
      // Both are deleted on the user's phone meanwhile.
      const list = (await call('GET', '/notifications', token)).json as Array<{ id: string; message: string }>
      for (const key of ['Key A', 'Key B']) {
        const n = list.find((x) => x.message.includes(`<strong>${key}</strong>`))!
        expect((await call('DELETE', `/notifications/${n.id}`, token)).status).toBe(204)
      }
      await item('Key A').getByRole('button', { name: 'Mark as read' }).click()
      await item('Key B')
        .getByRole('button', { name: /^Delete notification/ })
        .click()
      await expect.poll(() => indicator(page).innerText()).toMatch(/2 changes waiting/)

      await restoreApi(api, page)
      await expect.poll(() => syncState(page), { timeout: 20_000 }).toBe('synced')
      await expect.poll(() => item('Key A').count()).toBe(0)
      expect(await page.locator('.change-problem').count()).toBe(0)
      expect(await page.getByText('Failed to mark notification as read').count()).toBe(0)
      expect(await indicator(page).innerText()).not.toMatch(/rejected/)
    }))

  it('(d) a message written and sent offline is one change waiting; the panel names it', () =>
    journey('count', async (_context, page) => {
      const email = 'formand@solgaarden.dk'
      await englishUser(email)
      await signIn(page, email)
      await page.goto('/messages/create')
      const form = page.locator('form.message-form')
      await form.getByLabel('Recipient').waitFor()
      await expect.poll(() => syncState(page)).toBe('synced')
      const api = await cutApi(page)
      await form.getByLabel('Recipient').selectOption('ALL_MEMBERS')
      await form.getByLabel('Subject').fill('Vinduespolering')
      await form.getByLabel('Content').fill('Vinduerne poleres på fredag.')
      await form.getByRole('button', { name: 'Send', exact: true }).click()
      await page.waitForURL(/\/messages$/)
      await expect.poll(() => indicator(page).innerText()).toMatch(/Offline\s+1 change waiting/)
      await indicator(page).click()
      const panel = page.getByRole('dialog', { name: 'Sync status' })
      await panel.getByText('1 change waiting to be sent').waitFor()
      await expect.poll(() => panel.locator('.pending-item').count()).toBe(1)
      expect(await panel.locator('.pending-item').innerText()).toMatch(/Write message[\s\S]*Send message/)
      await snapBoth(page, 'sync-honest-one-change')
      await panel.getByRole('button', { name: 'Close' }).click()
      await restoreApi(api, page)
      await expect.poll(() => syncState(page), { timeout: 20_000 }).toBe('synced')
    }))

  it('(b) a board member removed while offline reads that access is gone, and the change was sent once', () =>
    journey('lost-access', async (_context, page) => {
      const email = 'bestyrelse@solgaarden.dk'
      // Messages posted by earlier journeys of this file.
      const postedBefore = served('POST', '/api/messages')
      await englishUser(email)
      await signIn(page, email)
      await page.goto('/messages/create')
      const form = page.locator('form.message-form')
      await form.getByLabel('Recipient').waitFor()
      await expect.poll(() => syncState(page)).toBe('synced')

      const api = await cutApi(page)
      await form.getByLabel('Recipient').selectOption('ALL_MEMBERS')
      await form.getByLabel('Subject').fill('Cykelkælderen')
      await form.getByLabel('Content').fill('Oprydning i cykelkælderen lørdag.')
      await form.getByRole('button', { name: 'Send', exact: true }).click()
      await page.waitForURL(/\/messages$/)
      await expect.poll(() => indicator(page).innerText()).toMatch(/1 change waiting/)

      // Meanwhile the administrator removes the board member from the association.
      const admin = await apiLogin('admin@solgaarden.dk')
      const company = ((await call('GET', '/account/info', admin)).json as { currentCompany: { id: string; name: string } }).currentCompany
      const members = (await call('GET', `/company/${company.id}/members`, admin)).json as Array<{ id: string; email: string }>
      const member = members.find((m) => m.email === email)!
      expect((await call('DELETE', `/company/${company.id}/member/${member.id}`, admin)).status).toBe(204)

      await restoreApi(api, page)
      await expect.poll(() => indicator(page).innerText(), { timeout: 20_000 }).toMatch(/rejected/)
      const sentence = `You no longer have access to ${company.name}; your change to the message “Cykelkælderen” was not applied.`
      await page.getByText(sentence).first().waitFor({ timeout: 20_000 })
      await indicator(page).click()
      const panel = page.getByRole('dialog', { name: 'Sync status' })
      await panel.getByText(sentence).waitFor()
      expect(await panel.getByText('Message not found').count()).toBe(0)
      // Retrying cannot help without access: only Discard is offered, and the panel says why.
      await panel.getByText('Sending it again cannot help without access.', { exact: false }).waitFor()
      expect(await panel.getByRole('button', { name: 'Retry' }).count()).toBe(0)
      expect(await panel.getByRole('button', { name: 'Discard' }).count()).toBeGreaterThan(0)
      await snapBoth(page, 'sync-honest-lost-access')

      // Sent once, and not again however often the queue runs.
      await panel.getByRole('button', { name: 'Sync now' }).click()
      await expect.poll(() => syncState(page)).not.toBe('syncing')
      expect(served('POST', '/api/messages') - postedBefore).toBe(1)
      const key = await page.evaluate(async () => {
        const userId = JSON.parse(localStorage.getItem('boligkasse.session')!).user.id
        return new Promise<string>((resolve, reject) => {
          const open = indexedDB.open(`boligkasse-${userId}`)
          open.onerror = () => reject(open.error)
          open.onsuccess = () => {
            const all = open.result.transaction('outbox').objectStore('outbox').getAll()
            all.onsuccess = () => resolve((all.result as Array<{ kind: string; mutationId: string }>).find((m) => m.kind === 'message.create')!.mutationId)
          }
        })
      })
      expect(serverRows<{ n: number }>('SELECT count(*) AS n FROM idempotency_keys WHERE key = ?', key)[0]!.n).toBe(1)
    }))

  it('(c) with the server answering 503 a refund says queued, never success; then it goes through once; (e) a change the device cannot store is NOT kept', () =>
    journey('server-down', async (context, page) => {
      // A month passes and is collected: a charge to refund.
      const accepted = serverRows<{ n: number }>("SELECT count(*) AS n FROM agreements WHERE status = 'ACCEPTED'")[0]!.n
      const before = serverRows<{ n: number }>('SELECT count(*) AS n FROM charges')[0]!.n
      expect((await call('POST', '/vipps-emulator/_control/clock', null, { advanceMs: 31 * DAY })).status).toBe(200)
      await expect
        .poll(() => serverRows<{ n: number }>('SELECT count(*) AS n FROM charges WHERE vipps_charge_id IS NOT NULL')[0]!.n - before, { timeout: 40_000 })
        .toBe(accepted)
      expect((await call('POST', '/vipps-emulator/_control/clock', null, { advanceMs: 2 * DAY })).status).toBe(200)
      const charge = async () =>
        serverRows<{ id: string; agreement_id: string; refunded_ore: number }>("SELECT * FROM charges WHERE status = 'EXECUTED' ORDER BY due")[0]
      await expect.poll(charge, { timeout: 40_000 }).toBeDefined()
      const paid = (await charge())!

      const email = 'kasserer@solgaarden.dk'
      await englishUser(email)
      // (e) The outbox store refuses writes once the storage is full (storageFull below).
      await failOutboxWrites(context)
      await signIn(page, email)
      await page.goto(`/refunds/create?chargeId=${paid.id}&agreementId=${paid.agreement_id}`)
      await page.getByLabel('Amount (DKK)').waitFor()
      // The hint writes money the English way (docs/decisions/0084).
      await page.getByText('At least DKK\u00a01.00, e.g. 250.00').waitFor()
      await expect.poll(() => syncState(page)).toBe('synced')

      // (c) The server answers 503 to everything; the browser says online.
      const server = await serverDown(context)
      const path = `/api/agreement/${paid.agreement_id}/refund`
      await page.getByLabel('Amount (DKK)').fill('25')
      await page.getByLabel('Description', { exact: true }).fill('For meget opkrævet')
      await page.getByRole('button', { name: 'Create refund' }).click()
      await page.getByText('Queued — will be sent when the server answers.').waitFor({ timeout: 15_000 })
      expect(await page.getByText('Refund created successfully!', { exact: false }).count()).toBe(0)
      expect(await page.evaluate(() => navigator.onLine)).toBe(true)
      // The panel names it by what it is.
      await indicator(page).click()
      const panel = page.getByRole('dialog', { name: 'Sync status' })
      await panel.locator('.pending-item', { hasText: 'Refund' }).waitFor()
      expect(await panel.getByText('Change', { exact: true }).count()).toBe(0)
      await snapBoth(page, 'sync-honest-queued-refund')
      await panel.getByRole('button', { name: 'Close' }).click()
      expect(served('POST', path)).toBe(0)

      server.down = false
      await page.getByText('Refund created successfully!', { exact: false }).waitFor({ timeout: 45_000 })
      expect(served('POST', path)).toBe(1)
      await expect.poll(async () => (await charge())!.refunded_ore, { timeout: 20_000 }).toBe(2_500)
      await expect.poll(() => syncState(page), { timeout: 20_000 }).toBe('synced')

      // (e) Now the device cannot store the next one.
      await storageFull(page)
      await page.getByLabel('Amount (DKK)').fill('10')
      await page.getByLabel('Description', { exact: true }).fill('Rest af fejlen')
      await page.getByRole('button', { name: 'Create refund' }).click()
      await page.getByText(/Your change was NOT kept: this device has no storage space left/).waitFor()
      expect(await page.getByLabel('Amount (DKK)').inputValue()).toBe('10')
      expect(await page.getByLabel('Description', { exact: true }).inputValue()).toBe('Rest af fejlen')
      expect(await page.getByText('Queued —', { exact: false }).count()).toBe(0)
      await snapBoth(page, 'sync-honest-not-kept')
      expect(served('POST', path)).toBe(1)
      void danish
    }))
  it('(f) with the server answering 503 an empty queue shows offline, and the message form says queued, then sent, or NOT kept', () =>
    journey('message-server-down', async (context, page) => {
      const email = 'formand@solgaarden.dk'
      await englishUser(email)
      // The outbox store refuses writes once the storage is full (storageFull below).
      await failOutboxWrites(context)
      await signIn(page, email)
      await page.goto('/messages/create')
      const form = page.locator('form.message-form')
      await form.getByLabel('Recipient').waitFor()
      await expect.poll(() => syncState(page)).toBe('synced')
      expect(await indicator(page).innerText()).toMatch(/Online/)

      // The server answers 503 to everything; the browser says online; nothing is queued.
      const server = await serverDown(context)
      await page.evaluate(() => dispatchEvent(new Event('online')))
      await expect.poll(() => indicator(page).innerText(), { timeout: 15_000 }).toMatch(/^Offline/)
      expect(await indicator(page).innerText()).not.toMatch(/waiting/)
      expect(await page.evaluate(() => navigator.onLine)).toBe(true)

      const posted = served('POST', '/api/messages')
      await form.getByLabel('Recipient').selectOption('ALL_MEMBERS')
      await form.getByLabel('Subject').fill('Generalforsamling')
      await form.getByLabel('Content').fill('Indkaldelse følger.')
      await form.getByRole('button', { name: 'Send', exact: true }).click()
      await page.getByText('Queued — will be sent when the server answers.').waitFor({ timeout: 15_000 })
      await page.waitForURL(/\/messages$/)
      expect(await page.getByText('The message was sent.').count()).toBe(0)
      await expect.poll(() => indicator(page).innerText()).toMatch(/Offline\s+1 change waiting/)
      await snapBoth(page, 'sync-honest-queued-message')
      expect(served('POST', '/api/messages')).toBe(posted)

      // The server answers again: the message goes, once.
      server.down = false
      await page.evaluate(() => dispatchEvent(new Event('online')))
      await expect.poll(() => syncState(page), { timeout: 30_000 }).toBe('synced')
      expect(await indicator(page).innerText()).toMatch(/Online/)
      expect(served('POST', '/api/messages')).toBe(posted + 1)

      // While the server answers, "sent" comes after it confirmed.
      await page.goto('/messages/create')
      await form.getByLabel('Recipient').selectOption('ALL_MEMBERS')
      await form.getByLabel('Subject').fill('Vandet lukkes')
      await form.getByLabel('Content').fill('Vandet lukkes tirsdag kl. 9-12.')
      await form.getByRole('button', { name: 'Send', exact: true }).click()
      await page.getByText('The message was sent.').waitFor({ timeout: 15_000 })
      expect(served('POST', '/api/messages')).toBe(posted + 2)

      // The device cannot store the next one: NOT kept, and what was typed stays.
      await page.goto('/messages/create')
      await form.getByLabel('Recipient').selectOption('ALL_MEMBERS')
      await form.getByLabel('Subject').fill('Haveudvalget')
      await form.getByLabel('Content').fill('Møde torsdag.')
      await storageFull(page)
      await form.getByRole('button', { name: 'Send', exact: true }).click()
      await page.getByText(/Your change was NOT kept: this device has no storage space left/).waitFor()
      expect(page.url()).toMatch(/\/messages\/create$/)
      expect(await form.getByLabel('Subject').inputValue()).toBe('Haveudvalget')
      expect(await form.getByLabel('Content').inputValue()).toBe('Møde torsdag.')
      expect(await page.getByText('Queued —', { exact: false }).count()).toBe(0)
      await snapBoth(page, 'sync-honest-message-not-kept')
      expect(served('POST', '/api/messages')).toBe(posted + 2)
    }))
})
