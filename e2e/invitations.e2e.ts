/**
 * Invitations at scale (docs/PRODUCT.md "Invitations", decision 0091), in Danish: three new
 * residents with agreements and one household resident without an agreement (as the import leaves
 * them, decision 0090) have never signed in; the accountant (Danish) invites everyone who has
 * not signed in at once; each gets one invitation mail in their language (the household resident's
 * with the sign-in link alone); two choose a password
 * from it, one of them accepts the agreement in the Vipps MobilePay emulator; one address bounces
 * (the mail provider's signed notice); the screen shows the right n of m, who is not done, and the
 * bounce. Screenshots in Danish and English at 1280 and 375 px (no sideways scroll, axe-clean).
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { simpleParser, type ParsedMail } from 'mailparser'
import { describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { signBounce } from '../server/features/invitations/bounce-signature'
import { danish } from './harness'
import { checkScreen, journeySuite, signIn } from './journeys'

const SECRET = 'e2e-mail-webhook-secret-0123456789'
const { suite, clientIp, journey, serverRows, api, tokenOf } = journeySuite('invitations', 91, { MAIL_WEBHOOK_SECRET: SECRET })

const people = [
  {
    name: 'Ida Invitation',
    email: 'ida.invitation@example.dk',
    by: 'kasserer@solgaarden.dk',
    subject: 'Andelsboligforeningen Solgården inviterer dig til Boligkasse',
  },
  {
    name: 'Oscar Invitation',
    email: 'oscar.invitation@example.dk',
    by: 'admin@solgaarden.dk',
    subject: 'Andelsboligforeningen Solgården invites you to Boligkasse',
  },
  {
    name: 'Alma Invitation',
    email: 'alma.invitation@example.dk',
    by: 'kasserer@solgaarden.dk',
    subject: 'Andelsboligforeningen Solgården inviterer dig til Boligkasse',
  },
] as const

/** Every mail to `to` in the .eml folder whose subject is `subject`, parsed; waits up to 30 s for at least one. */
async function mailsTo(to: string, subject: string): Promise<ParsedMail[]> {
  let found: ParsedMail[] = []
  await expect
    .poll(
      async () => {
        const dir = suite.server.mailDir
        let files: string[]
        try {
          files = readdirSync(dir).filter((f) => f.endsWith('.eml'))
        } catch {
          files = []
        }
        const mails = await Promise.all(files.map((f) => simpleParser(readFileSync(join(dir, f)))))
        found = mails.filter((m) => m.subject === subject && [m.to].flat().some((a) => a?.value.some((v) => v.address === to)))
        return found.length
      },
      { timeout: 30_000 },
    )
    .toBeGreaterThan(0)
  return found
}

/** A household's resident without an agreement. */
const householder = { name: 'Bo Beboer', email: 'bo.beboer@example.dk', subject: 'Andelsboligforeningen Solgården invites you to Boligkasse' } as const

/** "n af m beboere" / "n af m med en aftale" as [n, m]. */
const nOfM = (text: string) => (/^(\d+) af (\d+)/.exec(text) ?? []).slice(1).map(Number) as [number, number]

/** The figures of the screen: "n af m beboere" signed in, "n af m med en aftale" accepted, and the bounced count. */
async function figures(page: Page) {
  const text = async (name: string) => (await page.locator(`[data-figure="${name}"] dd`).innerText()).trim()
  return { signedIn: await text('signed-in'), accepted: await text('accepted'), bounced: await text('bounced') }
}

/** The person chooses a password from their invitation, signs in and, if asked, accepts their agreement in the Vipps emulator. */
async function takeUp(browser: Browser, mail: ParsedMail, email: string, accept: boolean) {
  const context = await browser.newContext({ baseURL: suite.server.url, locale: 'en-GB', extraHTTPHeaders: clientIp() })
  try {
    const page = await context.newPage()
    const link = /https?:\/\/\S+\/reset-password\?\S+/.exec(mail.text ?? '')?.[0]
    expect(link, mail.text).toBeTruthy()
    await page.goto(link!)
    const password = 'Invitation-Kasse-2027'
    await page.getByLabel(/^New password|^Ny adgangskode/).fill(password)
    await page.getByLabel(/^Confirm|^Bekræft/).fill(password)
    await page.getByRole('button', { name: /Reset password|Nulstil adgangskode/ }).click()
    await expect.poll(() => page.locator('main').innerText()).toMatch(/password has been changed|adgangskode er ændret/i)
    await signIn(page, email, password)
    if (!accept) return
    const agreementUrl = /https?:\/\/\S+\/agreements\/[0-9a-f-]{36}/.exec(mail.text ?? '')![0]
    await page.goto(agreementUrl)
    await page.getByRole('button', { name: /^(Accept|Godkend)$/ }).click()
    await page.waitForURL(/vipps-emulator/)
    await page.getByLabel(/Mobile number|Mobilnummer/).fill('4531009911')
    await page.getByRole('button', { name: /^(Approve|Godkend)$/ }).click()
    await page.waitForURL(/\/agreements\//)
    await expect
      .poll(
        () =>
          serverRows<{ status: string }>('SELECT a.status FROM agreements a JOIN users u ON u.id = a.member_user_id WHERE u.email_address = ?', email)[0]
            ?.status,
        { timeout: 30_000 },
      )
      .toBe('ACCEPTED')
  } finally {
    await context.close()
  }
}

describe('invitations', () => {
  it(
    'the accountant invites everyone not signed in at once; two sign in, one accepts in Vipps MobilePay, one address bounces; the screen counts them right',
    () =>
      journey('invite-all', async (context, page) => {
        // Three residents as an import leaves them: an agreement each, never signed in.
        const company = serverRows<{ id: string }>("SELECT id FROM companies WHERE cvr = '10150817'")[0]!.id
        const provider = serverRows<{ id: string }>('SELECT id FROM payment_providers WHERE company_id = ?', company)[0]!.id
        const address = serverRows<{ id: string }>('SELECT id FROM addresses WHERE company_id = ? ORDER BY id', company)[0]!.id
        for (const p of people)
          await api(await tokenOf(p.by), 'POST', '/agreement', {
            memberName: p.name,
            emailAddress: p.email,
            companyId: company,
            paymentProviderId: provider,
            linkedAddress: [address],
            currency: 'DKK',
            startPaymentDate: '2027-02-01',
            paymentPeriod: 'MONTHLY',
            parts: [{ type: 'COMMON_EXPENSES', description: 'Boligafgift', price: 450_000 }],
          })

        // Bo lives in one of the households and has no agreement (the invitation he got when added is not this one).
        await api(await tokenOf('admin@solgaarden.dk'), 'POST', `/households/${address}/residents`, {
          fullName: householder.name,
          emailAddress: householder.email,
          kind: 'OWNER',
          moveInDate: '2020-01-01',
        })

        // Karen Holm's accountant, Mette, uses the app in Danish.
        await signIn(page, 'kasserer@solgaarden.dk')
        await page
          .locator('nav.sidebar-nav')
          .getByRole('link', { name: danish('Invitations') })
          .click()
        await page.getByRole('heading', { level: 1, name: danish('Invitations') }).waitFor()
        const before = await figures(page)
        const [signedIn0, total] = nOfM(before.signedIn)
        const [accepted0, withAgreement] = nOfM(before.accepted)
        expect(before.signedIn).toBe(`${signedIn0} af ${total} beboere`)
        expect(before.accepted).toBe(`${accepted0} af ${withAgreement} med en aftale`)
        expect(withAgreement).toBeGreaterThanOrEqual(3)
        expect(total).toBeGreaterThan(withAgreement)

        await page.getByRole('button', { name: danish('Invite all who have not signed in') }).click()
        await page.getByRole('button', { name: danish('Send the invitations') }).click()
        await page.locator('.alert', { hasText: danish('{0} invitations are on their way.').replace('{0}', '4') }).waitFor()

        // One invitation each, in their language; a second click invites nobody twice.
        const mails = await Promise.all(people.map(async (p) => (await mailsTo(p.email, p.subject))[0]!))
        const bo = await mailsTo(householder.email, householder.subject)
        expect(bo).toHaveLength(1)
        expect(bo[0]!.text).toMatch(/\/reset-password\?token=/)
        expect(bo[0]!.text).not.toContain('/agreements/')
        await page.getByRole('button', { name: danish('Invite all who have not signed in') }).waitFor()
        expect(await page.getByRole('button', { name: danish('Invite all who have not signed in') }).isDisabled()).toBe(true)

        await takeUp(context.browser()!, mails[0]!, people[0].email, true)
        await takeUp(context.browser()!, mails[1]!, people[1].email, false)

        // The mail provider says Alma's address does not exist.
        const body = JSON.stringify({ type: 'bounce', bounceType: 'hard', email: people[2].email, reason: '550 5.1.1 user unknown' })
        const res = await fetch(`${suite.server.url}/api/webhooks/mail-bounce`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', ...signBounce(SECRET, crypto.randomUUID(), body, new Date()), ...clientIp() },
          body,
        })
        expect(res.status).toBe(202)

        await page.reload()
        await page.getByRole('heading', { level: 1, name: danish('Invitations') }).waitFor()
        await expect.poll(async () => (await figures(page)).signedIn).toBe(`${signedIn0 + 2} af ${total} beboere`)
        expect(await figures(page)).toEqual({
          signedIn: `${signedIn0 + 2} af ${total} beboere`,
          accepted: `${accepted0 + 1} af ${withAgreement} med en aftale`,
          bounced: '1',
        })
        const row = (name: string) => page.locator('.invitations-person', { hasText: name })
        await expect.poll(() => row(people[0].name).count()).toBe(0)
        expect(await row(people[1].name).innerText()).toContain('1 aftale at godkende')
        expect(await row(people[2].name).innerText()).toContain(danish('Address bounced'))
        expect(await row(householder.name).innerText()).toContain(danish('No agreement'))
        await checkScreen(page, 'invitations-da')
      }),
    180_000,
  )

  it('the administrator sees the same screen in English', () =>
    journey('english', async (_context, page) => {
      await signIn(page, 'admin@solgaarden.dk')
      await page.locator('nav.sidebar-nav').getByRole('link', { name: 'Invitations' }).click()
      await page.getByRole('heading', { level: 1, name: 'Invitations' }).waitFor()
      await page.locator('[data-figure="signed-in"] dd').waitFor()
      await checkScreen(page, 'invitations-en')
    }))
})
