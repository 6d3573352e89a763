/**
 * Every screen a signed-in person opened works offline (docs/OFFLINE.md "Tests"), Profile
 * included; a deep link to a record this device never had says "not available offline yet" (and
 * "not found" only online); the sync indicator is in view without scrolling on a 1366×768 laptop
 * and a 375×812 phone for the super admin, staff with many menu entries and a resident.
 *
 * Offline is the browser's own (`context.setOffline(true)`): the page reloads from the service
 * worker and every request to /api fails, as on a train.
 */
import { describe, expect, it } from 'vitest'
import type { BrowserContext, Page } from 'playwright-core'
import { danish, snap } from './harness'
import { journeySuite, signIn } from './journeys'

const { journey, serverRows } = journeySuite('offline-screens', 22)

const serviceWorkerReady = (page: Page) => page.evaluate(async () => void (await navigator.serviceWorker.ready))
const userIdOf = (page: Page): Promise<string> => page.evaluate(() => JSON.parse(localStorage.getItem('boligkasse.session')!).user.id)

/** What this device kept of the profile (local-db.ts `snapshots`), straight from IndexedDB. */
function storedProfile(page: Page, userId: string): Promise<{ fullName: string } | null> {
  return page.evaluate(
    (name) =>
      new Promise((resolve) => {
        const open = indexedDB.open(name)
        open.onerror = () => resolve(null)
        open.onsuccess = () => {
          const db = open.result
          if (!db.objectStoreNames.contains('snapshots')) return resolve(null)
          const get = db.transaction('snapshots').objectStore('snapshots').get('profile')
          get.onsuccess = () => resolve((get.result?.value as { fullName: string } | undefined) ?? null)
          get.onerror = () => resolve(null)
        }
      }),
    `boligkasse-${userId}`,
  )
}

interface Person {
  email: string
  fullName: string
  mobile: string | null
  language: 'EN' | 'DA'
  /** A catalog text in the person's language. */
  tr: (english: string) => string
}
const person = (email: string): Person => {
  const [row] = serverRows<{ full_name: string; mobile_number: string | null; language: 'EN' | 'DA' }>(
    'SELECT full_name, mobile_number, language FROM users WHERE email_address = ?',
    email,
  )
  return { email, fullName: row!.full_name, mobile: row!.mobile_number, language: row!.language, tr: (text) => (row!.language === 'DA' ? danish(text) : text) }
}
const languageOf = (email: string) => serverRows<{ language: string }>('SELECT language FROM users WHERE email_address = ?', email)[0]!.language
const personalSection = (page: Page) => page.locator('section[aria-labelledby="personal-title"]')
const methodsSection = (page: Page) => page.locator('section[aria-labelledby="auth-methods-title"]')

/** Signs in, opens Profile online and waits until this device has kept it. */
async function openProfileOnline(page: Page, who: Person) {
  await signIn(page, who.email)
  await serviceWorkerReady(page)
  await page.goto('/user')
  await page.getByRole('heading', { name: who.tr('Profile'), level: 1 }).waitFor()
  await methodsSection(page).getByRole('table').getByText(who.email).first().waitFor()
  const userId = await userIdOf(page)
  await expect.poll(() => storedProfile(page, userId), { timeout: 10_000 }).toMatchObject({ fullName: who.fullName })
}

const offlineReload = async (context: BrowserContext, page: Page) => {
  await context.setOffline(true)
  await page.reload()
}

/** Profile offline: the person's data from this device, server-only actions disabled with the reason. */
async function expectProfileOffline(page: Page, who: Person, company: string | null) {
  const { tr } = who
  await page.getByRole('heading', { name: tr('Profile'), level: 1 }).waitFor()
  await page.locator('.profile-offline').waitFor()
  const personal = personalSection(page)
  await personal.getByText(who.fullName, { exact: true }).waitFor()
  await personal.getByText(who.email, { exact: true }).waitFor()
  if (who.mobile) await personal.getByText(who.mobile, { exact: true }).waitFor()
  await personal.getByText(tr(who.language === 'DA' ? 'Danish' : 'English'), { exact: true }).waitFor()
  // Sign-in methods and companies as the server last gave them.
  await methodsSection(page).getByRole('table').getByText(who.email).first().waitFor()
  const companies = page.locator('section[aria-labelledby="companies-title"]')
  await (company ? companies.getByRole('table').getByText(company).first() : companies.getByText(tr('You are not a member of any company.'))).waitFor()

  // Actions that need the server: disabled, and each says why.
  await personal
    .getByText(tr('You are offline. Your name, e-mail address and mobile number can be changed when you are online; the language can be changed now.'))
    .waitFor()
  const edits = personal.locator('button[aria-describedby="personal-offline"]')
  expect(await edits.count()).toBe(3)
  for (const edit of await edits.all()) expect(await edit.isDisabled()).toBe(true)
  // The language is a preference of this device: it stays changeable (the fourth Edit).
  const buttons = await personal.getByRole('button').all()
  expect(buttons.length).toBe(4)
  expect(await buttons[3]!.isDisabled()).toBe(false)
  const methods = methodsSection(page)
  await methods.getByText(tr('You are offline. Adding, removing or linking a sign-in method needs a connection to the server.')).waitFor()
  const add = methods.getByRole('button', { name: tr('Add authentication method') })
  expect(await add.isDisabled()).toBe(true)
  expect(await add.getAttribute('aria-describedby')).toBe('auth-methods-offline')
  const actions = await methods.getByRole('button').all()
  expect(actions.length).toBeGreaterThan(1)
  for (const button of actions) expect(await button.isDisabled()).toBe(true)
  // Never the server's "could not load" error.
  expect(await page.getByText(tr('Failed to load profile information')).count()).toBe(0)
}

describe('Offline screens', () => {
  it('a resident opens Profile online, then offline after a reload it shows their data; a language chosen offline reaches the account later', () =>
    journey('resident-profile', async (context, page) => {
      const who = person('beboer01@solgaarden.dk')
      await openProfileOnline(page, who)
      await offlineReload(context, page)
      // A resident is a member of agreements, not of the association's staff: no companies.
      await expectProfileOffline(page, who, null)
      const first = who.language.toLowerCase()
      await snap(page, `offline-screens-profile-${first}-1280`)
      await page.setViewportSize({ width: 375, height: 812 })
      await snap(page, `offline-screens-profile-${first}-375`)

      // The language offline: this device switches at once…
      const other = who.language === 'DA' ? 'EN' : 'DA'
      const now = (text: string) => (other === 'DA' ? danish(text) : text)
      const personal = personalSection(page)
      await personal.getByRole('button').nth(3).click()
      await personal.locator('select').selectOption(other)
      await personal.locator('button[type="submit"]').click()
      await page.getByRole('heading', { name: now('Profile'), level: 1 }).waitFor()
      await page.getByText(now('Language changed on this device. Your account gets it when you are online again.')).waitFor()
      await page.getByText(now('You are offline. Adding, removing or linking a sign-in method needs a connection to the server.')).waitFor()
      await snap(page, `offline-screens-profile-${other.toLowerCase()}-375`)
      await page.setViewportSize({ width: 1280, height: 900 })
      await snap(page, `offline-screens-profile-${other.toLowerCase()}-1280`)
      expect(languageOf(who.email)).toBe(who.language)

      // …a reload offline keeps it; back online the account gets it, and the actions come back.
      await page.reload()
      await page.getByRole('heading', { name: now('Profile'), level: 1 }).waitFor()
      await personal.getByText(now(other === 'DA' ? 'Danish' : 'English'), { exact: true }).waitFor()
      await context.setOffline(false)
      await page.evaluate(() => dispatchEvent(new Event('online')))
      await expect.poll(() => languageOf(who.email), { timeout: 15_000 }).toBe(other)
      const add = methodsSection(page).getByRole('button', { name: now('Add authentication method') })
      await expect.poll(() => add.isDisabled(), { timeout: 10_000 }).toBe(false)
      expect(await page.locator('.offline-reason').count()).toBe(0)
      await page.getByRole('heading', { name: now('Profile'), level: 1 }).waitFor()
    }))

  it('a board member opens Profile online, then offline after a reload it shows their data with server actions disabled', () =>
    journey('board-profile', async (context, page) => {
      const who = person('bestyrelse@solgaarden.dk')
      await openProfileOnline(page, who)
      await offlineReload(context, page)
      await expectProfileOffline(page, who, 'Solgården')
      await snap(page, `offline-screens-profile-board-${who.language.toLowerCase()}-1280`)
    }))

  it('a deep link to an invoice this device never had: "not available offline yet" offline, "not found" online', () =>
    journey('deep-link', async (context, page) => {
      // An invoice of another association: the resident's device never gets it.
      const [other] = serverRows<{ id: string }>("SELECT i.id FROM invoices i JOIN companies c ON c.id = i.company_id WHERE c.name NOT LIKE 'Solg%' LIMIT 1")
      const invoiceId = other?.id ?? crypto.randomUUID()
      await signIn(page, 'beboer01@solgaarden.dk')
      await serviceWorkerReady(page)
      // One invoice of their own, opened online, shows offline too.
      const [own] = serverRows<{ id: string; number: number }>(
        "SELECT i.id, i.number FROM invoices i JOIN users u ON u.id = i.member_user_id WHERE u.email_address = 'beboer01@solgaarden.dk' LIMIT 1",
      )

      const who = person('beboer01@solgaarden.dk')
      const notYet = 'Not available offline yet — open it once while online.'
      await page.goto(`/invoices/${invoiceId}`)
      await page.getByText(who.tr('Invoice not found')).waitFor()
      expect(await page.locator('.record-offline').count()).toBe(0)

      await offlineReload(context, page)
      await page.getByText(who.tr(notYet)).waitFor()
      expect(await page.getByText(who.tr('Invoice not found')).count()).toBe(0)
      // The same for the other detail pages.
      for (const path of [`/agreements/${crypto.randomUUID()}`, `/company/${crypto.randomUUID()}`]) {
        await page.goto(path)
        await page.getByText(who.tr(notYet)).waitFor()
      }
      if (own) {
        await page.goto(`/invoices/${own.id}`)
        await page.locator('article.invoice').waitFor()
      }

      // In both languages (offline the interface keeps the language last chosen on this device).
      for (const locale of ['da', 'en'] as const) {
        await page.evaluate((l) => localStorage.setItem('boligkasse.locale', l), locale)
        await page.setViewportSize({ width: 1280, height: 900 })
        await page.goto(`/invoices/${invoiceId}`)
        await page.getByText(locale === 'da' ? danish(notYet) : notYet).waitFor()
        await snap(page, `offline-screens-deep-link-${locale}-1280`)
        await page.setViewportSize({ width: 375, height: 812 })
        await snap(page, `offline-screens-deep-link-${locale}-375`)
      }
    }))

  const viewports = [
    { width: 1366, height: 768 },
    { width: 375, height: 812 },
  ]
  for (const email of ['superadmin@boligkasse.dk', 'admin@solgaarden.dk', 'beboer01@solgaarden.dk']) {
    it(`the sync indicator is in view without scrolling at 1366×768 and 375×812 (${email})`, () =>
      journey(`indicator-${email.split('@')[0]}`, async (context, page) => {
        await page.setViewportSize(viewports[0]!)
        await signIn(page, email)
        for (const viewport of viewports) {
          await page.setViewportSize(viewport)
          for (const offline of [false, true]) {
            await context.setOffline(offline)
            const indicator = page.locator('.sync-indicator:visible')
            await indicator.waitFor()
            if (offline) await expect.poll(() => indicator.getAttribute('data-state')).toBe('offline')
            const box = (await indicator.boundingBox())!
            const where = `${email} at ${viewport.width}×${viewport.height}${offline ? ' offline' : ''}: ${JSON.stringify(box)}`
            expect(box.x, where).toBeGreaterThanOrEqual(0)
            expect(box.y, where).toBeGreaterThanOrEqual(0)
            expect(box.x + box.width, where).toBeLessThanOrEqual(viewport.width)
            expect(box.y + box.height, where).toBeLessThanOrEqual(viewport.height)
            // Nothing hides it: the indicator itself is what the middle of its box shows.
            const onTop = await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.closest('.sync-indicator') !== null, {
              x: box.x + box.width / 2,
              y: box.y + box.height / 2,
            })
            expect(onTop, where).toBe(true)
          }
          await context.setOffline(false)
          await snap(page, `offline-screens-indicator-${email.split('@')[0]}-${viewport.width}`)
        }
      }))
  }
})
