/**
 * Names with markup stay text. A resident with an agreement, the
 * administrator (a staff user) and the board member who writes a message get names that look
 * like markup or like the translation layer's own syntax: `<b>…</b>`, `<script>`, `{name}`,
 * `<0>x</0>`, `<1/>`. Every screen that shows a person's name is opened in English and in Danish,
 * and on each the name shows literally, with no console error, no page error and no dialog. The
 * e-mails sent for the message carry the name escaped in their HTML part.
 */
import { describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { DEMO_PASSWORD, latestMailTo, snap } from './harness'
import { journeySuite, signIn, snapBoth } from './journeys'

const { suite, clientIp, serverRows, writeDb, writeHistory, api } = journeySuite('markup-names', 23)

const RESIDENT = 'beboer03@solgaarden.dk' // Emma, the member of agreement 1001
const ADMIN = 'admin@solgaarden.dk'
const BOARD = 'bestyrelse@solgaarden.dk'
const NAMES = {
  [RESIDENT]: '<b>Bo</b> {name} <0>x</0> Jensen',
  [ADMIN]: '<i>Ida</i> <1/> {0} Holm',
  [BOARD]: '<script>alert(1)</script> Jonas Berg',
} as const
const member = NAMES[RESIDENT]
const staff = NAMES[ADMIN]
const author = NAMES[BOARD]

const login = (email: string) =>
  api<{ accessToken: string }>(null, 'POST', '/auth/login', { type: 'email', email, password: DEMO_PASSWORD }).then((r) => r.accessToken)

interface Ids {
  company: string
  agreement: string
  invoice: string
  notice: string
}
let ids: Ids

async function prepare(): Promise<Ids> {
  // The resident renames herself through the API (the profile's own validation); the others in the database.
  const own = await login(RESIDENT)
  await api(own, 'PATCH', '/account/profile/fullName', { value: member })
  writeDb((db) => {
    const rename = db.prepare('UPDATE users SET full_name = ? WHERE email_address = ?')
    rename.run(staff, ADMIN)
    rename.run(author, BOARD)
  })
  expect(serverRows<{ full_name: string }>('SELECT full_name FROM users WHERE email_address = ?', RESIDENT)[0]!.full_name).toBe(member)

  const company = serverRows<{ id: string }>("SELECT id FROM companies WHERE cvr = '10150817'")[0]!.id
  const agreement = serverRows<{ id: string }>('SELECT id FROM agreements WHERE external_seq = 1001')[0]!.id
  // A collected month and a failed one: invoices with the member's name, and a debtor.
  const invoice = await writeHistory(async (w, db) => {
    const lines = db
      .prepare<[string], { type: 'COMMON_EXPENSES'; price_ore: number }>('SELECT type, price_ore FROM agreement_parts WHERE agreement_id = ? ORDER BY position')
      .all(agreement)
    const paid = await w.charge({ agreementId: agreement, paymentDate: '2026-10-01', lines: lines.map((p) => ({ type: p.type, amount: p.price_ore })) })
    await w.charge({ agreementId: agreement, paymentDate: '2026-11-01', lines: lines.map((p) => ({ type: p.type, amount: p.price_ore })), status: 'FAILED' })
    return paid.invoiceId
  })
  // The board member writes to every member: the resident and the administrator get it.
  const board = await login(BOARD)
  const m = await api<{ id: string }>(board, 'POST', '/messages', {
    companyId: company,
    type: 'NOTICE',
    subject: 'Generalforsamling',
    body: 'Kære beboere,<br>mødet er den 12. marts.',
    recipient: { kind: 'ALL_MEMBERS' },
  })
  await api(board, 'POST', `/messages/${m.id}/send`, {})
  return { company, agreement, invoice, notice: m.id }
}

/** A screen, the names it must show literally, and what to do there first (a tab). */
interface Step {
  path: string
  names: string[]
  tab?: RegExp
  /** Screenshots at 1280 and 375 px under this name, for a person to look at. */
  snap?: string
}

const adminSteps = (i: Ids): Step[] => [
  { path: '/messages', names: [] },
  { path: `/messages/${i.notice}`, names: [author], snap: 'message-footer' },
  { path: `/messages/${i.notice}`, names: [member, staff], tab: /^Recipients|^Modtagere/ },
  { path: `/company/messages/${i.notice}`, names: [author] },
  { path: '/agreements', names: [member] },
  { path: `/agreements/${i.agreement}`, names: [member] },
  { path: `/charges/${i.agreement}`, names: [] },
  { path: '/invoices', names: [member] },
  { path: `/invoices/${i.invoice}`, names: [member] },
  { path: '/debtors', names: [member] },
  { path: `/company/${i.company}`, names: [staff, author], tab: /^Users|^Brugere/, snap: 'company-users' },
  { path: '/user', names: [staff] },
  { path: '/notifications', names: [author] },
]

const residentSteps = (i: Ids): Step[] => [
  { path: '/member/messages', names: [] },
  { path: `/member/messages/${i.notice}`, names: [author], snap: 'member-message' },
  { path: `/agreements/${i.agreement}`, names: [member] },
  { path: `/invoices/${i.invoice}`, names: [member] },
  { path: '/user', names: [member] },
  { path: '/notifications', names: [author] },
]

/** Opens a route through the app's router (a history push, no page load) and waits for it to settle. */
async function open(page: Page, path: string) {
  await page.evaluate((p) => {
    for (const el of document.querySelectorAll('main > *')) el.setAttribute('data-old', '')
    history.pushState({ ...history.state, __TSR_index: (history.state?.__TSR_index ?? 0) + 1 }, '', p)
  }, path)
  await page.waitForFunction(() => !document.querySelector('main > [data-old]'), null, { timeout: 2_500 }).catch(() => undefined)
  await page.waitForFunction(() => !document.querySelector('main .spinner-wrap, .overlay') && !!document.querySelector('h1'), null, { timeout: 10_000 })
}

const text = (page: Page) => page.evaluate(() => document.body.textContent ?? '')

async function walk(email: string, lang: 'en' | 'da', steps: Step[]) {
  writeDb((db) => db.prepare('UPDATE users SET language = ? WHERE email_address = ?').run(lang.toUpperCase(), email))
  const context = await suite.browser.newContext({
    baseURL: suite.server.url,
    viewport: { width: 1280, height: 900 },
    locale: 'en-GB',
    extraHTTPHeaders: clientIp(),
  })
  const page = await context.newPage()
  const problems: string[] = []
  let where = 'sign-in'
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`${where}: console error: ${m.text()}`)
  })
  page.on('pageerror', (e) => problems.push(`${where}: page error: ${e.message}`))
  page.on('dialog', (d) => {
    problems.push(`${where}: dialog ${d.type()}: ${d.message()}`)
    void d.dismiss()
  })
  try {
    await signIn(page, email)
    await expect.poll(() => page.locator('html').getAttribute('lang')).toBe(lang)
    await expect.poll(() => page.locator('.sync-indicator:visible').first().getAttribute('data-state'), { timeout: 20_000 }).toBe('synced')
    for (const step of steps) {
      where = step.path
      await open(page, step.path)
      if (step.tab) {
        await page.getByRole('tab', { name: step.tab }).click()
        where = `${step.path} ${step.tab.source}`
      }
      for (const name of step.names) {
        const shown = await expect
          .poll(async () => (await text(page)).includes(name), { timeout: 5_000 })
          .toBe(true)
          .then(
            () => true,
            () => false,
          )
        if (!shown) problems.push(`${where}: the name ${JSON.stringify(name)} is not shown literally`)
      }
      // Nothing of a name was turned into an element.
      const made = await page.evaluate(() => [...document.querySelectorAll('main script, main i')].map((e) => e.outerHTML))
      if (made.length) problems.push(`${where}: elements made from a name: ${made.join(' ')}`)
      if (step.snap) await snapBoth(page, `markup-names-${step.snap}-${lang}`)
      if (problems.length) await snap(page, `markup-names-${email.split('@')[0]}-${lang}-${step.path.replace(/\W+/g, '_')}`).catch(() => undefined)
    }
    await snap(page, `markup-names-${email.split('@')[0]}-${lang}-last`)
  } finally {
    await context.close()
  }
  return problems
}

describe('names with markup stay text', () => {
  it('prepares names with markup for a member, a staff user and a message author', async () => {
    ids = await prepare()
  })

  for (const lang of ['en', 'da'] as const) {
    it(`the administrator sees every name literally (${lang})`, async () => {
      expect(await walk(ADMIN, lang, adminSteps(ids))).toEqual([])
    })
    it(`the resident sees every name literally (${lang})`, async () => {
      expect(await walk(RESIDENT, lang, residentSteps(ids))).toEqual([])
    })
  }

  it('the e-mails of the message carry the names escaped in HTML and literally in text', async () => {
    const mail = await latestMailTo(suite.server.mailDir, RESIDENT)
    expect(mail, 'the resident got the message by e-mail').toBeTruthy()
    const html = String(mail!.html)
    expect(html).not.toContain('<script>alert(1)</script>')
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; Jonas Berg')
    expect(html).toContain('&lt;b&gt;Bo&lt;/b&gt; {name} &lt;0&gt;x&lt;/0&gt; Jensen')
    expect(String(mail!.text)).toContain(author)
    expect(String(mail!.text)).toContain(member)
  })
})
