/**
 * Foundation journeys: every demo role signs in and sees its own sidebar; the interface switches
 * to Danish; a password is reset through the link in the .eml file and the new one works.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { DEMO_PASSWORD, danish, latestMailTo, launchBrowser, snap, startServer, withPage, type RunningServer } from './harness'

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

async function signIn(page: Page, email: string, password = DEMO_PASSWORD) {
  await page.goto('/login')
  await page.getByLabel('Email', { exact: true }).fill(email)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  await page.locator('nav.sidebar-nav').waitFor()
}

async function sidebarLinks(page: Page): Promise<string[]> {
  const nav = page.locator('nav.sidebar-nav')
  await nav.getByRole('link').first().waitFor()
  const names = await nav.getByRole('link').allInnerTexts()
  return names.map((n) => n.split('\n')[0]!.trim()).filter(Boolean)
}

// Communication is everyone's: messages, the association's documents and its general assemblies.
const everyone = ['Notifications', 'Profile', 'Documents', 'General assembly']
/** The knowledge bank is everyone's (the super admin writes the platform's articles; decision 0065). */
const knowledge = ['Messages', 'Articles']
/** The association's market, lending, specialists and forum: its members', not the super admin's. */
const markets = ['Buy and sell', 'Share', 'Swap', 'Lending', 'Specialists', 'Forum']
/** Users whose language is Danish see the sidebar in Danish right after signing in. */
const expected: Record<string, { email: string; danish?: boolean; has: string[]; lacks: string[] }> = {
  superadmin: {
    email: 'superadmin@boligkasse.dk',
    has: [...everyone, 'Companies', 'System Logs', ...knowledge],
    lacks: ['Agreements', 'Invoices', 'Charges', ...markets],
  },
  chairman: {
    email: 'formand@solgaarden.dk',
    danish: true,
    has: [...everyone, 'Companies', 'Agreements', 'Invoices', 'Charges', 'Bookkeeping'],
    lacks: ['System Logs'],
  },
  administrator: { email: 'admin@solgaarden.dk', has: [...everyone, 'Companies', 'Agreements', 'Invoices', 'Charges', 'Bookkeeping'], lacks: ['System Logs'] },
  accountant: {
    email: 'kasserer@solgaarden.dk',
    danish: true,
    has: [...everyone, 'Companies', 'Agreements', 'Invoices', 'Charges', 'Bookkeeping'],
    lacks: ['System Logs'],
  },
  boardmember: {
    email: 'bestyrelse@solgaarden.dk',
    danish: true,
    has: [...everyone, 'Agreements', 'Invoices'],
    lacks: ['Companies', 'Charges', 'Bookkeeping', 'System Logs'],
  },
  resident: {
    email: 'beboer03@solgaarden.dk',
    has: [...everyone, 'Agreements', 'Invoices', ...markets],
    lacks: ['Companies', 'Charges', 'Bookkeeping', 'System Logs'],
  },
}

describe('foundation journeys', () => {
  for (const [role, { email, has, lacks, ...opts }] of Object.entries(expected)) {
    it(`${role} signs in and sees the sidebar of the role`, () =>
      withPage(browser, server.url, role, async (page) => {
        const label = (name: string) => (opts.danish ? danish(name) : name)
        await signIn(page, email)
        await expect.poll(() => page.locator('html').getAttribute('lang')).toBe(opts.danish ? 'da' : 'en')
        const links = await sidebarLinks(page)
        for (const name of has) expect(links, `${role} should see ${name}`).toContain(label(name))
        for (const name of lacks) expect(links, `${role} should not see ${name}`).not.toContain(label(name))
        await snap(page, `sidebar-${role}`)
      }))
  }

  it('a guest is sent to the login page from a private route', () =>
    withPage(browser, server.url, 'guest', async (page) => {
      await page.goto('/user')
      await page.waitForURL(/\/login/)
    }))

  it('shows "Login failed." for a wrong password', () =>
    withPage(browser, server.url, 'login-failed', async (page) => {
      await page.goto('/login')
      await page.getByLabel('Email', { exact: true }).fill('admin@solgaarden.dk')
      await page.getByLabel('Password', { exact: true }).fill('wrong-password')
      await page.getByRole('button', { name: 'Sign in', exact: true }).click()
      await expect.poll(() => page.locator('main').getByRole('alert').first().innerText()).toContain('Login failed.')
    }))

  it('switches the interface to Danish', () =>
    withPage(browser, server.url, 'danish', async (page) => {
      await page.goto('/login')
      await page.getByLabel('Language').selectOption('da')
      await expect.poll(() => page.locator('html').getAttribute('lang')).toBe('da')
      await page.getByRole('heading', { name: danish('Sign in') }).waitFor()
      await page.getByLabel(danish('Password'), { exact: true }).waitFor()
      await snap(page, 'login-da')
    }))

  it("follows a Danish browser on the first visit and remembers the switcher's choice", async () => {
    const context = await browser.newContext({ baseURL: server.url, locale: 'da-DK' })
    try {
      const page = await context.newPage()
      await page.goto('/')
      await expect.poll(() => page.locator('html').getAttribute('lang')).toBe('da')
      await page
        .getByRole('link', { name: danish('Sign in') })
        .first()
        .waitFor()
      await page.getByLabel(danish('Language')).selectOption('en')
      await expect.poll(() => page.locator('html').getAttribute('lang')).toBe('en')
      await page.reload()
      await page.getByRole('link', { name: 'Sign in' }).first().waitFor()
      expect(await page.locator('html').getAttribute('lang')).toBe('en')
    } finally {
      await context.close()
    }
  })

  it('resets a forgotten password through the e-mailed link and signs in with the new one', () =>
    withPage(browser, server.url, 'reset', async (page) => {
      const email = 'beboer04@solgaarden.dk'
      await page.goto('/login')
      await page.getByLabel('Email', { exact: true }).fill(email)
      await page.getByRole('button', { name: 'Forgot password' }).click()
      const requested = Date.now() - 1000
      await page.getByRole('button', { name: 'Send reset link' }).click()
      await expect
        .poll(() =>
          page
            .locator('main')
            .getByRole('status')
            .first()
            .innerText()
            .catch(() => ''),
        )
        .toMatch(/link to reset/i)

      const mail = await latestMailTo(server.mailDir, email, requested)
      const link = /https?:\/\/\S+\/reset-password\?\S+/.exec(mail.text ?? '')?.[0]
      expect(link, mail.text).toBeTruthy()
      await page.goto(link!)
      const newPassword = 'Ny-adgangskode-42'
      await page.getByLabel(/^New password/).fill(newPassword)
      await page.getByLabel(/^Confirm/).fill(newPassword)
      await page.getByRole('button', { name: /Reset password|Set new password|Save/ }).click()
      await expect.poll(() => page.locator('main').innerText()).toMatch(/password has been changed/i)

      await signIn(page, email, newPassword)
      expect(await sidebarLinks(page)).toContain(danish('Agreements'))
    }))
})
