/**
 * Vipps Login journey (docs/DOMAIN.md "Vipps Login"): sign in with the Vipps MobilePay button through the built-in emulator's page
 * (OIDC with PKCE), and a person without a Boligkasse account gets a clear message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { danish, launchBrowser, snap, startServer, withPage, type RunningServer } from './harness'

let server: RunningServer
let browser: Browser

beforeAll(async () => {
  server = await startServer()
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

describe('Vipps MobilePay sign-in', () => {
  it("signs a resident in through the emulator's Vipps Login page", () =>
    withPage(browser, server.url, 'vipps-login', async (page) => {
      await page.goto('/login')
      await page.getByRole('link', { name: 'Vipps MobilePay' }).click()
      await page.getByRole('button', { name: /Sofie Jensen/ }).click()
      await page.locator('nav.sidebar-nav').waitFor()
      expect(page.url()).not.toContain('authToken')
      await page.getByRole('link', { name: danish('Profile') }).click()
      await expect.poll(() => page.locator('main').innerText()).toContain('beboer01@solgaarden.dk')
      await snap(page, 'vipps-signed-in')
    }))

  it('explains when no account has the phone number', () =>
    withPage(browser, server.url, 'vipps-no-account', async (page) => {
      await page.goto('/login')
      await page.getByRole('link', { name: 'Vipps MobilePay' }).click()
      await page.getByLabel('Another number').fill('4599999999')
      await page.getByRole('button', { name: 'Continue' }).click()
      await page.waitForURL(/\/login/)
      await expect.poll(() => page.locator('main').getByRole('alert').first().innerText()).toContain('No Boligkasse account has the phone number')
    }))
})
