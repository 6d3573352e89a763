/**
 * Decisions 0001 and 0002 in the browser: an e-mail address counts as a sign-in only once its owner
 * clicks the link mailed to it, security changes ask for the current password, and a Vipps
 * MobilePay sign-in never guesses between accounts by a phone number nobody proved.
 */
import { describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { DEMO_PASSWORD, danish, latestMailTo, snap } from './harness'
import { journeySuite, signIn } from './journeys'

const { suite, clientIp, journey, serverRows } = journeySuite('identity', 15)
const serverRow = <T>(sql: string, ...params: unknown[]): T | undefined => serverRows<T>(sql, ...params)[0]

/** The confirmation or invitation link of a mail, by its path. */
function linkIn(text: string | undefined, path: 'confirm-email' | 'reset-password'): string {
  const link = new RegExp(`https?://\\S+/${path}\\?\\S+`).exec(text ?? '')?.[0]
  expect(link, text).toBeTruthy()
  return link!
}

/** A Danish catalog text with its placeholders filled in. */
const danishWith = (english: string, values: Record<string, string>) =>
  Object.entries(values).reduce((text, [key, value]) => text.replace(`{${key}}`, value), danish(english))

/** The Danish name of a profile field's Edit or Save button ("Rediger E-mailadresse"). */
const danishButton = (action: 'Edit' | 'Save', label: string) => danish(`${action} <0>{label}</0>`).replace('<0>{label}</0>', label)

/** Screenshots at 1280 and 375 px; at 375 px neither the page nor a table may scroll sideways. */
async function snapWidths(page: Page, name: string) {
  const size = page.viewportSize()!
  await snap(page, `${name}-1280`)
  await page.setViewportSize({ width: 375, height: 812 })
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)
  const tablesOverflowing = () => page.evaluate(() => [...document.querySelectorAll('.table-wrap')].filter((t) => t.scrollWidth > t.clientWidth).length)
  await expect.poll(tablesOverflowing).toBe(0)
  await snap(page, `${name}-375`)
  await page.setViewportSize(size)
}

/** Goes through the emulator's Vipps Login page with a typed number (the page is in English here). */
async function chooseVippsNumber(page: Page, phoneNumber: string) {
  await page.waitForURL(/vipps-emulator/)
  await page.getByLabel('Another number').fill(phoneNumber)
  await page.getByRole('button', { name: 'Continue' }).click()
}

describe('identity journeys', () => {
  it('(a) an invited address cannot be claimed by someone else first; the invitee lands in their own account', () =>
    journey('invite-claim', async (context, page) => {
      const invitee = { name: 'Nanna Nabo', email: 'nanna.nabo@example.dk' }
      // The administrator invites a new person from the company's Users tab.
      await signIn(page, 'admin@solgaarden.dk')
      const companyId = serverRow<{ id: string }>('SELECT id FROM companies WHERE cvr = ?', '10150817')!.id
      await page.goto(`/company/${companyId}`)
      await page.getByRole('tab', { name: 'Users' }).click()
      await page.getByRole('button', { name: 'Add user' }).click()
      const invitedAt = Date.now() - 1000
      await page.getByRole('combobox', { name: 'Email' }).fill(invitee.email)
      await page.getByLabel('Name', { exact: true }).fill(invitee.name)
      await page.getByRole('form', { name: 'Add user' }).getByLabel('Role').selectOption('BOARDMEMBER')
      await page.getByRole('form', { name: 'Add user' }).getByRole('button', { name: 'Add user' }).click()
      await page.getByRole('rowheader', { name: new RegExp(invitee.name) }).waitFor({ timeout: 10_000 })
      const invitation = await latestMailTo(suite.server.mailDir, invitee.email, invitedAt)

      // A resident (Lars Pedersen, in Danish) tries to make that address a sign-in of their own.
      const attacker = await context.browser()!.newContext({ baseURL: suite.server.url, locale: 'en-GB', extraHTTPHeaders: clientIp() })
      try {
        const attackerPage = await attacker.newPage()
        await signIn(attackerPage, 'beboer02@solgaarden.dk')
        await attackerPage.goto('/user')
        await attackerPage.getByRole('button', { name: danish('Add authentication method') }).click()
        const dialog = attackerPage.getByRole('dialog')
        await dialog.getByLabel(danish('Email'), { exact: true }).fill(invitee.email)
        await dialog.getByLabel(danish('Password'), { exact: true }).fill('Overtag-konto-1')
        await dialog.getByLabel(danish('Confirm password'), { exact: true }).fill('Overtag-konto-1')
        await dialog.getByLabel(danish('Current password'), { exact: true }).fill(DEMO_PASSWORD)
        await dialog.getByRole('button', { name: danish('Add'), exact: true }).click()
        await dialog.getByText(danish('This e-mail address is already in use.')).waitFor()
        expect(danish('This e-mail address is already in use.')).toBe('Denne e-mailadresse er allerede i brug.')
        await snap(attackerPage, 'identity-claim-refused')
      } finally {
        await attacker.close()
      }
      expect(serverRows('SELECT 1 FROM auth_methods WHERE identifier = ?', invitee.email)).toHaveLength(0)

      // The invitee chooses a password from the invitation and lands in their own account.
      const guest = await context.browser()!.newContext({ baseURL: suite.server.url, locale: 'en-GB', extraHTTPHeaders: clientIp() })
      try {
        const inviteePage = await guest.newPage()
        await inviteePage.goto(linkIn(invitation.text, 'reset-password'))
        await inviteePage.getByLabel(/^New password/).fill('Nanna-Nabo-2026')
        await inviteePage.getByLabel(/^Confirm/).fill('Nanna-Nabo-2026')
        await inviteePage.getByRole('button', { name: 'Reset password' }).click()
        await expect.poll(() => inviteePage.locator('main').innerText()).toMatch(/password has been changed/i)
        await signIn(inviteePage, invitee.email, 'Nanna-Nabo-2026')
        await inviteePage.goto('/user')
        await expect.poll(() => inviteePage.locator('main').innerText()).toContain(invitee.name)
        expect(await inviteePage.locator('main').innerText()).toContain(invitee.email)
      } finally {
        await guest.close()
      }
    }))

  it('(b) an added e-mail sign-in works only after the link mailed to it is clicked', () =>
    journey('add-email', async (context, page) => {
      const added = 'emma.privat@example.dk'
      const password = 'Emma-privat-55'
      // Emma Hansen uses the app in English.
      await signIn(page, 'beboer03@solgaarden.dk')
      await page.goto('/user')
      await page.getByRole('button', { name: 'Add authentication method' }).click()
      const dialog = page.getByRole('dialog')
      await dialog.getByLabel('Email', { exact: true }).fill(added)
      await dialog.getByLabel('Password', { exact: true }).fill(password)
      await dialog.getByLabel('Confirm password', { exact: true }).fill(password)
      // The current password is asked for, and a wrong one is refused under its field.
      await dialog.getByRole('button', { name: 'Add', exact: true }).click()
      await dialog.getByText('Please enter your current password to confirm it is you.').waitFor()
      await dialog.getByLabel('Current password', { exact: true }).fill('not-my-password')
      await dialog.getByRole('button', { name: 'Add', exact: true }).click()
      await dialog.getByText('Your current password is not correct.').waitFor()
      const addedAt = Date.now() - 1000
      await dialog.getByLabel('Current password', { exact: true }).fill(DEMO_PASSWORD)
      await dialog.getByRole('button', { name: 'Add', exact: true }).click()
      await page
        .getByRole('status')
        .filter({ hasText: `We sent a confirmation link to ${added}. You can sign in with this address only after you click the link in that e-mail.` })
        .waitFor()
      await page
        .getByRole('row', { name: new RegExp(added) })
        .getByText('Waiting for confirmation')
        .waitFor()
      await snapWidths(page, 'identity-email-waiting')
      const mail = await latestMailTo(suite.server.mailDir, added, addedAt)
      expect(mail.subject).toBe('Confirm your e-mail address for Boligkasse')

      // A guest (in Danish) cannot sign in with the address yet.
      const guest = await context.browser()!.newContext({ baseURL: suite.server.url, locale: 'en-GB', extraHTTPHeaders: clientIp() })
      try {
        const other = await guest.newPage()
        await other.goto('/login')
        await other.getByLabel('Language').selectOption('da')
        await other.getByRole('heading', { name: danish('Sign in') }).waitFor()
        const tryAddedSignIn = async () => {
          await other.getByLabel(danish('Email'), { exact: true }).fill(added)
          await other.getByLabel(danish('Password'), { exact: true }).fill(password)
          await other.getByRole('button', { name: danish('Sign in'), exact: true }).click()
        }
        await tryAddedSignIn()
        await expect.poll(() => other.locator('main').getByRole('alert').first().innerText()).toContain(danish('Login failed.'))

        // The link confirms the address (once) and offers the way to sign in.
        const link = linkIn(mail.text, 'confirm-email')
        await other.goto(link)
        await other
          .getByRole('status')
          .filter({ hasText: danish('Your e-mail address is confirmed. You can now sign in with it.') })
          .waitFor()
        expect(other.url()).toContain('/confirm-email')
        await snapWidths(other, 'identity-confirm-email-da')
        await other.goto(link)
        await other
          .getByRole('alert')
          .filter({ hasText: danish('This confirmation link has expired or was already used. Please ask for a new one from your profile.') })
          .waitFor()
        await other.getByRole('link', { name: danish('Go to sign in') }).click()
        await other.waitForURL(/\/login/)
        await tryAddedSignIn()
        await other.locator('nav.sidebar-nav').waitFor()
        await other.goto('/user')
        await expect.poll(() => other.locator('main').innerText()).toContain('Emma Hansen')
        expect(serverRow<{ verified_at: string | null }>('SELECT verified_at FROM auth_methods WHERE identifier = ?', added)?.verified_at).not.toBeNull()
      } finally {
        await guest.close()
      }
    }))

  it('(c) an e-mail change asks for the password, waits for the link, and the old address is told', () =>
    journey('change-email', async (_context, page) => {
      const old = 'beboer05@solgaarden.dk'
      const next = 'ida.christensen@example.dk'
      // Ida Christensen uses the app in Danish.
      await signIn(page, old)
      await page.goto('/user')
      await page.getByRole('button', { name: danishButton('Edit', danish('Email Address')) }).click()
      await page.getByLabel(danish('Email Address'), { exact: true }).fill(next)
      const save = page.getByRole('button', { name: danishButton('Save', danish('Email Address')) })
      await save.click()
      await page.getByText(danish('Please enter your current password to confirm it is you.')).waitFor()
      await page.getByLabel(danish('Current password'), { exact: true }).fill('forkert-kode')
      await save.click()
      await page.getByText(danish('Your current password is not correct.')).first().waitFor()
      const changedAt = Date.now() - 1000
      await page.getByLabel(danish('Current password'), { exact: true }).fill(DEMO_PASSWORD)
      await save.click()
      await page
        .getByRole('status')
        .filter({
          hasText: danishWith('We sent a confirmation link to {pending}. Your e-mail address changes only when you click the link in that e-mail.', {
            pending: next,
          }),
        })
        .waitFor()
      // The address stays the old one until the link is clicked.
      await page.getByText(danishWith('Waiting for confirmation: {pendingEmail} — we sent a link to that address.', { pendingEmail: next })).waitFor()
      expect(await page.getByRole('definition').filter({ hasText: next }).innerText()).toContain(old)
      await snapWidths(page, 'identity-profile-pending-da')

      const notice = await latestMailTo(suite.server.mailDir, old, changedAt)
      expect(notice.subject).toBe('Der er bedt om at ændre e-mailadressen på din Boligkasse-konto')
      expect(notice.text).toContain(next)
      const confirmation = await latestMailTo(suite.server.mailDir, next, changedAt)

      // In English the profile says the same.
      await page.getByRole('button', { name: danishButton('Edit', danish('Language')) }).click()
      await page.getByLabel(danish('Language'), { exact: true }).selectOption('EN')
      await page.getByRole('button', { name: danishButton('Save', danish('Language')) }).click()
      await page.getByText(`Waiting for confirmation: ${next} — we sent a link to that address.`).waitFor()
      await snapWidths(page, 'identity-profile-pending-en')

      // The link, opened while signed in, moves the account to the new address.
      await page.goto(linkIn(confirmation.text, 'confirm-email'))
      await page.getByRole('status').filter({ hasText: 'Your new e-mail address is confirmed and is now the address of your account.' }).waitFor()
      await snapWidths(page, 'identity-confirm-email-en')
      await page.getByRole('link', { name: 'Go to your profile' }).click()
      await page.waitForURL(/\/user$/)
      await page.getByRole('heading', { name: 'Personal information' }).waitFor()
      await expect.poll(() => page.locator('main').innerText()).toContain(next)
      expect(await page.locator('main').innerText()).not.toContain('Waiting for confirmation')
      expect(serverRow<{ email_address: string }>('SELECT email_address FROM users WHERE full_name = ?', 'Ida Christensen')?.email_address).toBe(next)
    }))

  it('(d) two users and one phone: Vipps sign-in explains instead of guessing, until the owner links Vipps', () =>
    journey('vipps-link', async (context, page) => {
      const number = '+45 40 40 40 40'
      const digits = '4540404040'
      // Oliver Møller (English) types a new mobile number into his profile: it is not proven.
      await signIn(page, 'beboer06@solgaarden.dk')
      await page.goto('/user')
      await page.getByRole('button', { name: 'Edit Mobile Number' }).click()
      await page.getByLabel('Mobile Number', { exact: true }).fill(number)
      await page.getByRole('button', { name: 'Save Mobile Number' }).click()
      await page.getByRole('status').filter({ hasText: 'Profile updated successfully' }).waitFor()

      // Another resident (Freja Rasmussen, in Danish) cannot save the same number.
      const second = await context.browser()!.newContext({ baseURL: suite.server.url, locale: 'en-GB', extraHTTPHeaders: clientIp() })
      try {
        const secondPage = await second.newPage()
        await signIn(secondPage, 'beboer07@solgaarden.dk')
        await secondPage.goto('/user')
        const mobile = danish('Mobile Number')
        await secondPage.getByRole('button', { name: danishButton('Edit', mobile) }).click()
        await secondPage.getByLabel(mobile, { exact: true }).fill(number)
        await secondPage.getByRole('button', { name: danishButton('Save', mobile) }).click()
        await secondPage
          .locator('.field-error')
          .filter({ hasText: danish('This mobile number is already in use.') })
          .waitFor()
        await snap(secondPage, 'identity-mobile-taken')
      } finally {
        await second.close()
      }

      // A Vipps sign-in with that number does not open Oliver's account: the login page explains.
      const guest = await context.browser()!.newContext({ baseURL: suite.server.url, locale: 'en-GB', extraHTTPHeaders: clientIp() })
      try {
        const other = await guest.newPage()
        await other.goto('/login')
        await other.getByRole('link', { name: 'Vipps MobilePay' }).click()
        await chooseVippsNumber(other, digits)
        await other.waitForURL(/\/login\?error=vipps_not_linked/)
        await expect
          .poll(() => other.locator('main').getByRole('alert').first().innerText())
          .toContain(
            'We could not tell which account this Vipps MobilePay number belongs to. Sign in with your e-mail and password, then link Vipps MobilePay from your profile.',
          )
        await snap(other, 'identity-vipps-not-linked')

        // Signed in with his password, Oliver links Vipps from the profile.
        await signIn(other, 'beboer06@solgaarden.dk')
        await other.goto('/user')
        await other.getByRole('button', { name: 'Link Vipps MobilePay' }).click()
        // Linking adds a way to sign in: the owner confirms with the current password first.
        const dialog = other.getByRole('dialog', { name: 'Link Vipps MobilePay' })
        await dialog.getByLabel('Current password').fill('wrong-password')
        await dialog.getByRole('button', { name: 'Continue to Vipps MobilePay' }).click()
        await dialog.getByText('Your current password is not correct.').waitFor()
        await dialog.getByLabel('Current password').fill(DEMO_PASSWORD)
        await dialog.getByRole('button', { name: 'Continue to Vipps MobilePay' }).click()
        await chooseVippsNumber(other, digits)
        await other.waitForURL(/\/user/)
        await other.getByRole('status').filter({ hasText: 'Vipps MobilePay is linked; you can sign in with it.' }).waitFor()
        await expect.poll(() => other.url()).not.toContain('vipps=')
        await other.getByRole('cell', { name: 'Vipps MobilePay', exact: true }).waitFor()
        expect(await other.getByRole('button', { name: 'Link Vipps MobilePay' }).count()).toBe(0)
        await snap(other, 'identity-vipps-linked')
        expect(
          serverRow<{ mobile_verified_at: string | null }>('SELECT mobile_verified_at FROM users WHERE email_address = ?', 'beboer06@solgaarden.dk')
            ?.mobile_verified_at,
        ).not.toBeNull()

        // Signed out and in again with Vipps, the same number now opens Oliver's account.
        await other.getByRole('button', { name: 'Sign out' }).first().click()
        await other.waitForURL((url) => !url.pathname.startsWith('/user'))
        await other.goto('/login')
        await other.getByRole('link', { name: 'Vipps MobilePay' }).click()
        await chooseVippsNumber(other, digits)
        await other.locator('nav.sidebar-nav').waitFor()
        await other.goto('/user')
        await expect.poll(() => other.locator('main').innerText()).toContain('beboer06@solgaarden.dk')
        expect(await other.locator('main').innerText()).toContain('Oliver Møller')
      } finally {
        await guest.close()
      }
    }))
})
