/**
 * A new association moves in (docs/PRODUCT.md "Importing households", "Invitations"; decisions
 * 0090–0093), in Danish. Each test starts from an association of its own, made through the API
 * by the super admin with an active Vipps MobilePay provider pointing at the built-in emulator, and
 * Henrik Dahl (Danish) as its administrator:
 * 1. he imports a CSV of 50 households (Danish headers, `;`, comma decimals, rent and on-account
 *    amounts) whose three broken rows the screen names by row and column, then the corrected file:
 *    50 households and 50 agreements in CREATED, nobody invited; screenshots in Danish and English;
 * 2. he invites everyone; ten residents accept their agreement in the Vipps MobilePay emulator (one
 *    in the browser, nine through the same HTTP paths: the invitation's password link, accept, the
 *    emulator's confirmation form); the invitations screen shows 10 of 50 accepted;
 * 3. a resident who accepted moves out with a final settlement and a new owner moves in: the last
 *    payment (FINAL charge and its invoice) is the share of the period up to the move date, in øre,
 *    and the new owner's agreement starts on the move date with the same parts.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { simpleParser, type ParsedMail } from 'mailparser'
import { describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { danish } from './harness'
import { checkScreen, journeySuite, signIn } from './journeys'

const { suite, clientIp, journey, serverRows, api, tokenOf } = journeySuite('move-in', 93)

const SUPER_ADMIN = 'superadmin@boligkasse.dk'
const STAFF = 'admin@havnehuset.dk' // Henrik Dahl, Danish
const PASSWORD = 'Indflytning-Kasse-2027'
const HOUSEHOLDS = 50

/** A CVR number with a valid modulus-11 check (docs/DOMAIN.md "CVR"), different each time. */
function newCvr(): string {
  const weights = [2, 7, 6, 5, 4, 3, 2, 1]
  for (;;) {
    const digits = Array.from({ length: 7 }, (_, i) => (i === 0 ? 1 + Math.floor(Math.random() * 9) : Math.floor(Math.random() * 10)))
    const sum = digits.reduce((s, d, i) => s + d * weights[i]!, 0)
    const last = (11 - (sum % 11)) % 11
    if (last < 10) return [...digits, last].join('')
  }
}

/** A new association, no households, an active provider at the emulator, and Henrik as its administrator (his current association). */
async function association(name: string) {
  const admin = await tokenOf(SUPER_ADMIN)
  const { id } = await api<{ id: string }>(admin, 'POST', '/company', { name, acronym: name.slice(0, 20), cvr: newCvr(), unionType: 'COOP' })
  await api(admin, 'POST', `/company/${id}/payment-providers`, {
    isTest: true,
    isActive: true,
    // The demo sales unit's test credentials: the built-in emulator knows them (server/db/seed.ts DEMO_VIPPS).
    config: {
      providerName: 'Vipps MobilePay',
      merchantSerialNumber: '212121',
      clientId: 'solgaarden-client',
      clientSecret: 'solgaarden-client-secret',
      subscriptionKey: 'solgaarden-subscription-key',
      useTestMode: true,
    },
  })
  const henrik = serverRows<{ id: string }>('SELECT id FROM users WHERE email_address = ?', STAFF)[0]!.id
  await api(admin, 'POST', `/company/${id}/member`, { userId: henrik, role: 'ADMINISTRATOR' })
  const staff = await tokenOf(STAFF)
  await api(staff, 'POST', '/account/current-company', { companyId: id })
  return { id, name, staff, tag: id.slice(-6) }
}

/** The register's dwellings the file lives at (the built-in sample the server checks against). */
const dwellings = (
  JSON.parse(readFileSync(join(import.meta.dirname, '../server/integrations/addresses/builtin-addresses.json'), 'utf8')) as {
    street: string
    number: string
    floor: string | null
    side: string | null
    zip: string
    city: string
  }[]
).slice(0, HOUSEHOLDS)
const emailOf = (tag: string, i: number) => `beboer-${i}-${tag}@indflytning.example.dk`
const nameOf = (i: number) => `Beboer ${i + 1} Jensen`

/** The association's file: one payer a household with rent, heating and water on account, as Danish Excel saves it. */
function sheet(tag: string, broken = false): Buffer {
  const header =
    'Eksternt nr.;Adresse;Nummer;Etage;Side;Postnr;By;Type;Areal m²;Fordelingstal;Beboer;E-mail;Indflytning;Ejer/lejer;Betaler;Boligafgift;Aconto varme;Aconto vand'
  const rows = dwellings.map((d, i) => {
    const cells = [
      `L-${i + 1}`,
      d.street,
      d.number,
      d.floor ?? '',
      d.side ?? '',
      d.zip,
      d.city,
      'Lejlighed',
      '74,5',
      '1,25',
      nameOf(i),
      emailOf(tag, i),
      '01-02-2024',
      'Ejer',
      'Ja',
      '4.250,00',
      '600,00',
      '250,50',
    ]
    if (broken && i === 4) cells[12] = '31-02-2024' // row 6: no such date
    if (broken && i === 19) cells[5] = '80A0' // row 21: no postcode
    if (broken && i === 41) cells[15] = '4.250,005' // row 43: a third decimal
    return cells.join(';')
  })
  return Buffer.from('\uFEFF' + [header, ...rows].join('\r\n'))
}
const PRICE = 425_000 + 60_000 + 25_050

/** The corrected file imported through the API (a test's own state). */
async function imported(a: Awaited<ReturnType<typeof association>>) {
  const form = new FormData()
  form.set('file', new File([new Uint8Array(sheet(a.tag))], 'husstande.csv'))
  const res = await fetch(`${suite.server.url}/api/companies/${a.id}/import`, {
    method: 'POST',
    headers: { ...clientIp(), Authorization: `Bearer ${a.staff}`, 'Accept-Language': 'da' },
    body: form,
  })
  expect(res.status, await res.clone().text()).toBe(200)
}

/** Every mail to `to` whose subject is `subject`, parsed; waits up to 30 s for one. */
async function mailTo(to: string, subject: string): Promise<ParsedMail> {
  let found: ParsedMail | undefined
  await expect
    .poll(
      async () => {
        let files: string[]
        try {
          files = readdirSync(suite.server.mailDir).filter((f) => f.endsWith('.eml'))
        } catch {
          files = []
        }
        for (const f of files) {
          const text = readFileSync(join(suite.server.mailDir, f))
          if (!text.includes(to)) continue
          const mail = await simpleParser(text)
          if (mail.subject === subject && [mail.to].flat().some((x) => x?.value.some((v) => v.address === to))) found = mail
        }
        return found !== undefined
      },
      { timeout: 30_000 },
    )
    .toBe(true)
  return found!
}

const statusOf = (email: string) =>
  serverRows<{ status: string }>('SELECT a.status FROM agreements a JOIN users u ON u.id = a.member_user_id WHERE u.email_address = ?', email)[0]?.status

/** A resident takes up the invitation without the browser: sets a password from the link, signs in, accepts, approves in the emulator's form. */
async function acceptOverHttp(mail: ParsedMail, email: string) {
  const link = new URL(/https?:\/\/\S+\/reset-password\?\S+/.exec(mail.text ?? '')![0])
  await api(null, 'POST', '/auth/reset-password', { token: link.searchParams.get('token'), email, newPassword: PASSWORD })
  const { accessToken } = await api<{ accessToken: string }>(null, 'POST', '/auth/login', { type: 'email', email, password: PASSWORD })
  const agreementId = /\/agreements\/([0-9a-f-]{36})/.exec(mail.text ?? '')![1]!
  const { confirmationUrl } = await api<{ confirmationUrl: string }>(accessToken, 'POST', `/agreement/${agreementId}/accept`)
  // The emulator's confirmation page posts this form (server/integrations/vipps/emulator/confirmation.routes.ts).
  const approved = await fetch(confirmationUrl, {
    method: 'POST',
    headers: { ...clientIp(), 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ action: 'approve', phoneNumber: '4531009911', lang: 'da' }),
    redirect: 'manual',
  })
  expect(approved.status).toBe(303)
}

/** The same in the browser, as a resident does it. */
async function acceptInBrowser(page: Page, mail: ParsedMail, email: string) {
  await page.goto(/https?:\/\/\S+\/reset-password\?\S+/.exec(mail.text ?? '')![0])
  await page.getByLabel(/^New password|^Ny adgangskode/).fill(PASSWORD)
  await page.getByLabel(/^Confirm|^Bekræft/).fill(PASSWORD)
  await page.getByRole('button', { name: /Reset password|Nulstil adgangskode/ }).click()
  await expect.poll(() => page.locator('main').innerText()).toMatch(/password has been changed|adgangskode er ændret/i)
  await signIn(page, email, PASSWORD)
  await page.goto(/https?:\/\/\S+\/agreements\/[0-9a-f-]{36}/.exec(mail.text ?? '')![0])
  await page.getByRole('button', { name: /^(Accept|Godkend)$/ }).click()
  await page.waitForURL(/vipps-emulator/)
  await page.getByLabel(/Mobile number|Mobilnummer/).fill('4531009912')
  await page.getByRole('button', { name: /^(Approve|Godkend)$/ }).click()
  await page.waitForURL(/\/agreements\//)
}

/** Everyone invited through the API, and the invitation mails of the first `n` residents. */
async function invited(a: Awaited<ReturnType<typeof association>>, n: number): Promise<ParsedMail[]> {
  await api(a.staff, 'POST', `/companies/${a.id}/invitations`, {})
  const subject = `${a.name} inviterer dig til Boligkasse`
  return await Promise.all(Array.from({ length: n }, (_, i) => mailTo(emailOf(a.tag, i), subject)))
}

describe('move in', () => {
  it(
    'the administrator imports 50 households in Danish: three broken rows named by row and column, then the corrected file',
    () =>
      journey('import', async (_context, page) => {
        const a = await association('Andelsboligforeningen Indflytningen')
        await signIn(page, STAFF)
        await page.goto('/households/import')
        await page.getByRole('heading', { level: 1, name: danish('Import households') }).waitFor()
        await page.getByLabel(danish('Spreadsheet')).setInputFiles({ name: 'husstande.csv', mimeType: 'text/csv', buffer: sheet(a.tag, true) })
        await page.getByRole('button', { name: danish('Check the file') }).click()
        const problems = page.getByRole('table', { name: danish('Problems by row and column') })
        await problems.waitFor()
        const lines = (await problems.locator('tbody tr').allInnerTexts()).map((l) => l.replace(/\s+/g, ' ').trim())
        expect(lines).toHaveLength(3)
        expect(lines[0]).toMatch(/^6 Indflytning “31-02-2024” er ikke en dato/)
        expect(lines[1]).toMatch(/^21 Postnr /)
        expect(lines[2]).toMatch(/^43 Boligafgift “4\.250,005”/)
        // Importing all is not offered while rows are broken.
        expect(await page.getByRole('button', { name: danish('Import all') }).isDisabled()).toBe(true)
        await checkScreen(page, 'move-in-import-problems-da')

        // The corrected file: 50 new households and 50 agreements to create from the first of next month.
        await page.getByLabel(danish('Spreadsheet')).setInputFiles({ name: 'husstande.csv', mimeType: 'text/csv', buffer: sheet(a.tag) })
        await page.getByRole('button', { name: danish('Check the file') }).click()
        await expect.poll(() => page.getByRole('region', { name: danish('What the import will do') }).innerText()).toContain('50')
        const summary = await page.locator('.household-import-report').innerText()
        expect(summary).toContain(danish('Agreements to create: {0}, from {1} · Already had one: {2}').split(':')[0]!)
        await checkScreen(page, 'move-in-import-dry-run-da')
        await page.getByRole('button', { name: danish('Import all') }).click()
        await page.getByRole('heading', { level: 2, name: danish('Imported') }).waitFor()
        const agreements = serverRows<{ status: string; price_ore: number; payment_period: string; n: number }>(
          'SELECT status, price_ore, payment_period, COUNT(*) AS n FROM agreements WHERE company_id = ? GROUP BY status, price_ore, payment_period',
          a.id,
        )
        expect(agreements).toEqual([{ status: 'CREATED', price_ore: PRICE, payment_period: 'MONTHLY', n: HOUSEHOLDS }])
        expect(serverRows('SELECT * FROM household_residents WHERE company_id = ?', a.id)).toHaveLength(HOUSEHOLDS)
        // Nobody is invited by the import.
        expect(serverRows('SELECT * FROM invitation_sends WHERE company_id = ?', a.id)).toHaveLength(0)
        await page.locator('.toast-close').click()
        await page.locator('.toast').waitFor({ state: 'detached' })
        await checkScreen(page, 'move-in-imported-da')
      }),
    120_000,
  )

  it('the import screen in English', () =>
    journey('import-en', async (_context, page) => {
      await signIn(page, 'admin@solgaarden.dk')
      await page.goto('/households/import')
      await page.getByRole('heading', { level: 1, name: 'Import households' }).waitFor()
      await page.getByLabel('First payment date of new agreements').waitFor()
      await checkScreen(page, 'move-in-import-en')
    }))

  it(
    'everyone is invited, ten accept in Vipps MobilePay, and the invitations screen shows 10 of 50 accepted',
    () =>
      journey('accept', async (context, page) => {
        const a = await association('Andelsboligforeningen Godkendelsen')
        await imported(a)
        await signIn(page, STAFF)
        await page
          .locator('nav.sidebar-nav')
          .getByRole('link', { name: danish('Invitations') })
          .click()
        await page.getByRole('heading', { level: 1, name: danish('Invitations') }).waitFor()
        await page.getByRole('button', { name: danish('Invite all who have not signed in') }).click()
        await page.getByRole('button', { name: danish('Send the invitations') }).click()
        await page.locator('.alert', { hasText: danish('{0} invitations are on their way.').replace('{0}', String(HOUSEHOLDS)) }).waitFor()

        const subject = `${a.name} inviterer dig til Boligkasse`
        const mails = await Promise.all(Array.from({ length: 10 }, (_, i) => mailTo(emailOf(a.tag, i), subject)))
        const resident = await context.browser()!.newContext({ baseURL: suite.server.url, locale: 'en-GB', extraHTTPHeaders: clientIp() })
        try {
          await acceptInBrowser(await resident.newPage(), mails[0]!, emailOf(a.tag, 0))
        } finally {
          await resident.close()
        }
        for (let i = 1; i < 10; i++) await acceptOverHttp(mails[i]!, emailOf(a.tag, i))
        // Vipps MobilePay tells Boligkasse (webhook, or the poll): each agreement becomes ACCEPTED.
        for (let i = 0; i < 10; i++) await expect.poll(() => statusOf(emailOf(a.tag, i)), { timeout: 30_000 }).toBe('ACCEPTED')

        await page.reload()
        await page.getByRole('heading', { level: 1, name: danish('Invitations') }).waitFor()
        await expect.poll(() => page.locator('[data-figure="accepted"] dd').innerText()).toMatch(new RegExp(`^10 af ${HOUSEHOLDS}\\b`))
        await checkScreen(page, 'move-in-invitations-da')
      }),
    120_000,
  )

  it(
    'a resident who accepted moves out with a final settlement and a new owner moves in: the right amounts in øre',
    () =>
      journey('move', async (_context, page) => {
        const a = await association('Andelsboligforeningen Flytningen')
        await imported(a)
        const [mail] = await invited(a, 1)
        const email = emailOf(a.tag, 0)
        await acceptOverHttp(mail!, email)
        await expect.poll(() => statusOf(email), { timeout: 30_000 }).toBe('ACCEPTED')
        const agreement = serverRows<{ id: string; price_ore: number; next: string }>(
          `SELECT a.id, a.price_ore, a.next_regular_payment_date AS next FROM agreements a JOIN users u ON u.id = a.member_user_id WHERE u.email_address = ?`,
          email,
        )[0]!
        // The 11th of the first month: the share of the period's days up to the move date, rounded as the last payment rounds.
        const moveDate = `${agreement.next.slice(0, 8)}11`
        const periodEnd = (() => {
          const d = new Date(`${agreement.next}T00:00:00Z`)
          return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate())).toISOString().slice(0, 10)
        })()
        const days = (x: string, y: string) => Math.round((Date.parse(y) - Date.parse(x)) / 86_400_000)
        const share = Math.round((agreement.price_ore * days(agreement.next, moveDate)) / days(agreement.next, periodEnd))

        await signIn(page, STAFF)
        // The resident's household (a search by name would find Beboer 10–19 Jensen too).
        const household = serverRows<{ id: string }>(
          'SELECT r.household_id AS id FROM household_residents r JOIN users u ON u.id = r.user_id WHERE u.email_address = ?',
          email,
        )[0]!.id
        await page.goto(`/households/${household}`)
        await page.getByRole('heading', { level: 2, name: danish('Register a move') }).waitFor()
        await page.getByLabel(danish('Move date')).fill(moveDate)
        await page
          .getByRole('group', { name: danish('Moving out') })
          .getByLabel(nameOf(0))
          .check()
        const arriving = page.getByRole('group', { name: danish('Moving in') })
        await arriving.getByLabel(danish('Name')).fill('Ny Ejer Nielsen')
        await arriving.getByLabel(danish('E-mail')).fill(`ny.ejer-${a.tag}@indflytning.example.dk`)
        await page.getByRole('button', { name: danish('Show final settlement') }).click()
        const preview = page.getByRole('region', { name: danish('Final settlement') })
        await preview.waitFor()
        const kroner = (ore: number) => (ore / 100).toLocaleString('da-DK', { minimumFractionDigits: 2, maximumFractionDigits: 2 })
        await expect.poll(() => preview.innerText()).toContain(kroner(share))
        await checkScreen(page, 'move-in-settlement-da')
        await preview.getByRole('button', { name: danish('Confirm move') }).click()
        await page.getByText(danish('The move is registered.')).waitFor()

        // The last payment: a FINAL charge and its invoice of exactly the share; the new owner's agreement from the move date at the same price.
        // The move goes through the outbox (a money action): the server has it once it is sent.
        await expect.poll(() => serverRows('SELECT id FROM household_moves WHERE company_id = ?', a.id).length, { timeout: 30_000 }).toBe(1)
        const ended = serverRows<{ termination_date: string; final_payment_required: number }>(
          'SELECT termination_date, final_payment_required FROM agreements WHERE id = ?',
          agreement.id,
        )[0]!
        expect(ended).toEqual({ termination_date: moveDate, final_payment_required: 1 })
        const final = serverRows<{ amount_ore: number; invoice: number }>(
          `SELECT c.amount_ore, (SELECT i.total_ore FROM invoices i WHERE i.charge_id = c.id AND i.kind = 'INVOICE') AS invoice FROM charges c WHERE c.agreement_id = ? AND c.kind = 'FINAL'`,
          agreement.id,
        )
        expect(final).toEqual([{ amount_ore: share, invoice: share }])
        const started = serverRows<{ start_payment_date: string; price_ore: number; status: string }>(
          `SELECT a.start_payment_date, a.price_ore, a.status FROM agreements a JOIN users u ON u.id = a.member_user_id WHERE u.email_address = ?`,
          `ny.ejer-${a.tag}@indflytning.example.dk`,
        )
        expect(started).toEqual([{ start_payment_date: moveDate, price_ore: PRICE, status: 'CREATED' }])
        const parts = serverRows<{ type: string; price_ore: number }>(
          `SELECT p.type, p.price_ore FROM agreement_parts p JOIN agreements a ON a.id = p.agreement_id JOIN users u ON u.id = a.member_user_id
          WHERE u.email_address = ? ORDER BY p.position`,
          `ny.ejer-${a.tag}@indflytning.example.dk`,
        )
        expect(parts).toEqual([
          { type: 'FEE', price_ore: 425_000 },
          { type: 'HEAT', price_ore: 60_000 },
          { type: 'HOT_AND_COLD_WATER', price_ore: 25_050 },
        ])
      }),
    120_000,
  )
})
