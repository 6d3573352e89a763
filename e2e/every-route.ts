/**
 * Every screen of client/routes (docs/decisions/0047-every-screen-is-walked.md), for the super admin, the
 * association's administrator, a board member and a resident (and signed out), in English and
 * Danish, at 375×812 and 1280×900. On each: no sideways page scroll
 * (`documentElement.scrollWidth <= clientWidth`), no serious or critical axe-core violation, and
 * in Danish no English text (e2e/axe.ts). One sign-in per role and language; routes are opened by
 * the app's own router (a history push, no page load) and each is checked at both sizes.
 *
 * The demo data gets what the screens need to show something real first: collected, failed and
 * one-off charges with their invoices, a refund (credit note), and messages of each type and
 * state, one with a 70-letter word in its subject.
 *
 * Every failure is collected and printed as one report per role and language (route, size, what),
 * then the test fails with it.
 */
import { describe, expect, it } from 'vitest'
import type { BrowserContext, Page } from 'playwright-core'
import { englishLeaks, englishMarkers, seriousViolations } from './axe'
import { DEMO_PASSWORD, danish, snap } from './harness'
import { journeySuite, signIn } from './journeys'

type Journey = ReturnType<typeof journeySuite>
// The walk's server and browser: set by `describeEveryRoute`, once per file.
let suite: Journey['suite']
let clientIp: Journey['clientIp']
let serverRows: Journey['serverRows']
let writeDb: Journey['writeDb']
let writeHistory: Journey['writeHistory']
let api: Journey['api']

const SIZES = [
  { width: 375, height: 812 },
  { width: 1280, height: 900 },
] as const
type Lang = 'en' | 'da'

/** A subject with one 70-letter word (it must not widen the page). */
const LONG_SUBJECT = 'Vedligeholdelsesplanlægningsudvalgsmødereferatsgodkendelsesprocedurerne i fælleshuset'

interface Then {
  name: string
  /** After the screen settled: e.g. open a tab or a dialog, submit a form. Its name is added to the report's route. */
  run: (page: Page, lang: Lang) => Promise<void>
  /** After the checks: e.g. close the dialog by keyboard; returns what went wrong. */
  after?: (page: Page, lang: Lang) => Promise<string[]>
}

interface Step {
  path: string
  then?: Then[]
  /** Saves a phone-width screenshot under test-results/ for a person to look at. */
  snap?: string
}

/** A catalog text in the walk's language, its placeholders filled and tags dropped. */
const text = (lang: Lang, english: string, values: Record<string, string> = {}) =>
  (lang === 'da' ? danish(english) : english)
    .replace(/\{(\w+)\}/g, (_, k: string) => values[k] ?? '')
    .replace(/<\/?\d+>/g, '')
    .trim()

interface Ids {
  company: string
  provider: string
  accepted: string
  /** The member of agreement 1001 (their account statement, for staff). */
  acceptedMember: string
  created: string
  invoice: string
  creditNote: string
  failedCharge: string
  refundable: string
  draft: string
  notice: string
  longSubject: string
  reminder: string
  document: string
  assembly: string
  listing: string
  lendingItem: string
  loan: string
  forumThread: string
  article: string
  platformArticle: string
  specialist: string
  /** A demo household with residents (decision 0090). */
  household: string
}
let ids: Ids
let allowed: string[]
const markers = englishMarkers()

async function prepareData(): Promise<Ids> {
  const company = serverRows<{ id: string }>("SELECT id FROM companies WHERE cvr = '10150817'")[0]!.id
  const provider = serverRows<{ id: string }>('SELECT id FROM payment_providers WHERE company_id = ?', company)[0]!.id
  const agreementOf = (seq: number) => serverRows<{ id: string }>('SELECT id FROM agreements WHERE external_seq = ?', seq)[0]!.id
  // History: two collected months, a failed third for every accepted agreement, a one-off payment and a refund on 1001.
  const written = await writeHistory(async (w, db) => {
    const agreements = db
      .prepare<[], { id: string; external_seq: number }>("SELECT id, external_seq FROM agreements WHERE status = 'ACCEPTED' ORDER BY external_seq")
      .all()
    const parts = db.prepare<[string], { type: 'COMMON_EXPENSES'; price_ore: number }>(
      'SELECT type, price_ore FROM agreement_parts WHERE agreement_id = ? ORDER BY position',
    )
    let out = { invoice: '', creditNote: '', failedCharge: '', refundable: '' }
    for (const a of agreements) {
      const lines = parts.all(a.id).map((p) => ({ type: p.type, amount: p.price_ore }))
      const first = await w.charge({ agreementId: a.id, paymentDate: '2026-09-01', lines })
      await w.charge({ agreementId: a.id, paymentDate: '2026-10-01', lines })
      const failed = await w.charge({ agreementId: a.id, paymentDate: '2026-11-01', lines, status: 'FAILED' })
      if (a.external_seq === 1001) {
        await w.charge({
          agreementId: a.id,
          paymentDate: '2026-10-15',
          lines: [{ type: 'COMMON_EXPENSES', amount: 125_000 }],
          kind: 'ONE_TIME',
          description: 'Udskiftning af vinduer',
        })
        const creditNote = await w.refund({ chargeId: first.chargeId, amount: 65_000, paymentDate: '2026-09-20' })
        out = { invoice: first.invoiceId, creditNote, failedCharge: failed.chargeId, refundable: first.chargeId }
      }
    }
    return out
  })

  // Messages of each type and state, written by the administrator through the API.
  const { accessToken: token } = await api<{ accessToken: string }>(null, 'POST', '/auth/login', {
    type: 'email',
    email: 'admin@solgaarden.dk',
    password: DEMO_PASSWORD,
  })
  const resident = serverRows<{ id: string }>("SELECT id FROM users WHERE email_address = 'beboer03@solgaarden.dk'")[0]!.id
  const message = async (body: Record<string, unknown>, send: boolean) => {
    const m = await api<{ id: string }>(token, 'POST', '/messages', { companyId: company, ...body })
    if (send) await api(token, 'POST', `/messages/${m.id}/send`, {})
    return m.id
  }
  const draft = await message(
    { type: 'MESSAGE', subject: 'Nøgle til cykelkælderen', body: 'Hej Emma,<br>nøglen ligger i postkassen.', recipient: { kind: 'MEMBER', userId: resident } },
    false,
  )
  const notice = await message(
    {
      type: 'NOTICE',
      subject: 'Generalforsamling 12. marts',
      body: 'Kære beboere,<br>der er ordinær generalforsamling den 12. marts kl. 19 i fælleshuset.',
      recipient: { kind: 'ALL_MEMBERS' },
    },
    true,
  )
  const longSubject = await message({ type: 'MESSAGE', subject: LONG_SUBJECT, body: 'Referatet er vedhæftet.', recipient: { kind: 'ALL_MEMBERS' } }, true)
  const reminder = await message({ type: 'REMINDER', subject: 'Husk bestyrelsesmødet', body: 'Mødet er på torsdag.', recipient: { kind: 'BOARD' } }, true)
  await message(
    { type: 'NOTICE', subject: 'Vandet lukkes mandag', body: 'Fra kl. 8 til 12.', recipient: { kind: 'ALL_MEMBERS' }, scheduledAt: '2030-01-07T07:00' },
    false,
  )

  // A document for every member, uploaded like the browser does.
  const form = new FormData()
  for (const [k, v] of Object.entries({ companyId: company, title: 'Vedtægter for Andelsboligforeningen Solgården', category: 'BYLAWS', audience: 'MEMBERS' }))
    form.set(k, v)
  form.set('file', new File([new TextEncoder().encode('%PDF-1.4\n% Vedtægter\n%%EOF\n')], 'vedtaegter.pdf'))
  const uploaded = await fetch(`${suite.server.url}/api/documents`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, ...clientIp() },
    body: form,
  })
  if (uploaded.status !== 201) throw new Error(`document upload: ${uploaded.status} ${await uploaded.text()}`)
  const document = ((await uploaded.json()) as { id: string }).id

  // A general assembly whose notice goes out at once (so residents see it too), with a proposal.
  const year = new Date().getFullYear() + 1
  const assembly = (
    await api<{ id: string }>(token, 'POST', '/assemblies', {
      companyId: company,
      title: `Ordinær generalforsamling ${year}`,
      heldAt: `${year}-03-12T19:00`,
      place: 'Fælleshuset, Solgårdsvej 2',
      agenda: ['Valg af dirigent', 'Bestyrelsens beretning', 'Godkendelse af årsregnskab', 'Indkomne forslag', 'Eventuelt'],
      proposalDeadline: `${year}-02-26T23:59`,
      reminderDays: [14, 2],
    })
  ).id
  await expect
    .poll(
      () =>
        serverRows<{ n: number }>("SELECT count(*) AS n FROM sendouts WHERE assembly_id = ? AND kind = 'ASSEMBLY_NOTICE' AND sent_at IS NOT NULL", assembly)[0]!
          .n,
      {
        timeout: 20_000,
      },
    )
    .toBe(1)

  // A swap listing of a resident, so every role opens a listing that is not theirs.
  const { accessToken: residentToken } = await api<{ accessToken: string }>(null, 'POST', '/auth/login', {
    type: 'email',
    email: 'beboer04@solgaarden.dk',
    password: DEMO_PASSWORD,
  })
  const listing = (
    await api<{ id: string }>(residentToken, 'POST', '/market', {
      companyId: company,
      kind: 'SWAP',
      title: 'Børnecykel, 16 tommer',
      description: 'Byttes gerne med en løbecykel.',
    })
  ).id

  // Lending: Mikkel (beboer04) asks to borrow the association's drill (demo data), so
  // the screens show a loan: the administration's to answer, a member's calendar with his name.
  const lendingItem = serverRows<{ id: string }>("SELECT id FROM lending_items WHERE company_id = ? AND title = 'Boremaskine' LIMIT 1", company)[0]!.id
  const dayAhead = (days: number) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Copenhagen' }).format(new Date(Date.now() + days * 86_400_000))
  const loan = (
    await api<{ id: string }>(residentToken, 'POST', `/lending/${lendingItem}/loans`, {
      fromDate: dayAhead(2),
      toDate: dayAhead(4),
      message: 'Til nye hylder i stuen.',
    })
  ).id

  return {
    company,
    provider,
    accepted: agreementOf(1001),
    acceptedMember: serverRows<{ id: string }>('SELECT member_user_id AS id FROM agreements WHERE external_seq = 1001')[0]!.id,
    created: agreementOf(1007),
    ...written,
    draft,
    notice,
    longSubject,
    reminder,
    document,
    assembly,
    listing,
    lendingItem,
    loan,
    // The demo's forum thread, started by Emma (beboer03) with two replies.
    forumThread: serverRows<{ id: string }>('SELECT id FROM forum_threads WHERE company_id = ? ORDER BY created_at LIMIT 1', company)[0]!.id,
    // The demo's knowledge bank: Solgården's laundry article, a platform guide, a specialist.
    article: serverRows<{ id: string }>('SELECT id FROM articles WHERE company_id = ? LIMIT 1', company)[0]!.id,
    platformArticle: serverRows<{ id: string }>("SELECT id FROM articles WHERE company_id IS NULL AND language = 'da' LIMIT 1")[0]!.id,
    specialist: serverRows<{ id: string }>('SELECT id FROM specialists WHERE company_id = ? ORDER BY name LIMIT 1', company)[0]!.id,
    // A demo household with residents (decision 0090): Emma's, with her partner.
    household: serverRows<{ id: string }>(
      'SELECT household_id AS id FROM household_residents WHERE company_id = ? GROUP BY household_id ORDER BY count(*) DESC, household_id LIMIT 1',
      company,
    )[0]!.id,
  }
}

/** Demo content shown as it is in either language: people, associations, addresses, e-mails, product names. */
function allowList(): string[] {
  const names = serverRows<{ v: string }>(
    'SELECT full_name AS v FROM users UNION SELECT email_address FROM users UNION SELECT name FROM companies UNION SELECT acronym FROM companies',
  )
  return [...names.map((r) => r.v), 'Vipps MobilePay', 'MobilePay', 'Vipps', 'Boligkasse'].sort((a, b) => b.length - a.length)
}

const tab = (name: RegExp): Then => ({ name: `tab ${name.source}`, run: (page: Page) => page.getByRole('tab', { name }).click() })

/**
 * A dialog opened by a button (its name's start, a catalog id): checked open, then used by
 * keyboard: Tab stays inside it, Escape closes it and focus returns to the button.
 */
const dialog = (english: string): Then => ({
  name: `dialog ${english.replace(/<.*$/, '').trim()}`,
  run: async (page, lang) => {
    const start = (lang === 'da' ? danish(english) : english).replace(/<0>.*<\/0>/, '').trim()
    await page
      .getByRole('button', { name: new RegExp(`^${start.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) })
      .first()
      .click()
    await page.getByRole('dialog').waitFor()
  },
  after: async (page) => {
    const problems: string[] = []
    await page.evaluate(() => document.activeElement?.setAttribute('data-walk-focus-start', ''))
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('Tab')
      const inside = await page.evaluate(() => !!document.activeElement?.closest('dialog[open]') || document.activeElement === document.body)
      if (!inside) {
        problems.push(`keyboard: Tab left the open dialog (focus on ${await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 80))})`)
        break
      }
    }
    await page.keyboard.press('Escape')
    const closed = await page
      .getByRole('dialog')
      .waitFor({ state: 'hidden', timeout: 3_000 })
      .then(
        () => true,
        () => false,
      )
    if (!closed) problems.push('keyboard: Escape did not close the dialog')
    else if (!(await page.evaluate(() => document.activeElement?.tagName === 'BUTTON' || document.activeElement?.tagName === 'A')))
      problems.push(`keyboard: focus did not return to the dialog's button (on ${await page.evaluate(() => document.activeElement?.tagName)})`)
    return problems
  },
})

/** The profile's mobile number with 26 characters: the schema's "too long" message in the walk's language. */
const mobileTooLong: Then = {
  name: 'mobile number too long',
  run: async (page, lang) => {
    const label = text(lang, 'Mobile Number')
    await page.getByRole('button', { name: text(lang, 'Edit <0>{label}</0>', { label }) }).click()
    await page.getByLabel(label, { exact: true }).fill('+45 12 34 56 78 90 12 34 56')
    await page.getByRole('button', { name: text(lang, 'Save <0>{label}</0>', { label }) }).click()
    await page.locator('.editable-form .field-error').waitFor()
  },
}

/** A message form sent empty: what is missing, in the walk's language. */
const emptyMessage: Then = {
  name: 'sent empty',
  run: async (page, lang) => {
    await page
      .locator('form.message-form')
      .getByRole('button', { name: text(lang, 'Send'), exact: true })
      .click()
    await page.locator('form.message-form .field-error').first().waitFor()
  },
}

/** A document's history (staff), opened: who uploaded it, in the walk's language. */
const documentHistory: Then = {
  name: 'history',
  run: async (page, lang) => {
    await page.locator('details.document-history summary').click()
    await page.locator('.document-events li').first().waitFor()
    await page.getByText(text(lang, 'uploaded'), { exact: false }).first().waitFor()
  },
}

function routesOf(role: string): Step[] {
  const i = ids
  const common: Step[] = [{ path: '/notifications' }, { path: '/user' }]
  /** The same for every member of an association (administrator, board member, resident). */
  const marketsAndLending: Step[] = [
    { path: '/markets/buy' },
    { path: '/markets/share' },
    { path: '/markets/swap' },
    { path: '/markets/new?kind=BUY' },
    { path: `/markets/listing/${i.listing}` },
    { path: '/lending' },
    { path: '/lending/new' },
    { path: `/lending/item/${i.lendingItem}` },
    { path: `/lending/item/${i.lendingItem}/edit` },
    { path: '/lending/loans' },
    { path: `/lending/loans/${i.loan}` },
  ]
  switch (role) {
    case 'superadmin':
      return [
        { path: '/companies' },
        { path: '/companies/create' },
        { path: `/company/${i.company}`, then: [tab(/Payment Providers|Betalingsudbydere/), tab(/^Addresses|^Adresser/), tab(/^Users|^Brugere/)] },
        { path: `/company/${i.company}/payment-provider/${i.provider}` },
        { path: '/logs' },
        { path: '/super-admin/messages' },
        { path: '/super-admin/messages/create' },
        { path: '/documents' },
        { path: '/articles' },
        { path: '/articles/new' },
        { path: `/articles/${i.platformArticle}` },
        { path: `/articles/edit/${i.platformArticle}` },
        { path: '/markets/buy' },
        { path: '/forum' },
        { path: '/markets/share' },
        { path: '/home' },
        { path: '/markets/swap' },
        ...common,
      ]
    case 'administrator':
      return [
        { path: '/company/dashboard' },
        { path: `/company/${i.company}`, then: [tab(/^Addresses|^Adresser/), tab(/^Users|^Brugere/)] },
        { path: '/agreements' },
        { path: `/agreements/${i.accepted}`, then: [dialog('Terminate')] },
        { path: '/agreements/status/accepted' },
        { path: '/agreements/create' },
        { path: `/agreements/${i.created}` },
        { path: `/agreements/${i.accepted}/edit` },
        { path: `/charges/${i.accepted}`, snap: 'charges' },
        { path: `/charges/${i.accepted}/oneTimeCharge` },
        { path: `/refunds/create?chargeId=${i.refundable}&agreementId=${i.accepted}` },
        { path: '/invoices' },
        { path: `/invoices/${i.invoice}`, snap: 'invoice' },
        { path: '/debtors', then: [dialog('Mark paid <0>invoice {number}</0>')] },
        { path: `/invoices/${i.creditNote}` },
        { path: '/statistics' },
        { path: '/account-statement' },
        { path: `/account-statement?userId=${i.acceptedMember}`, snap: 'account-statement-staff' },
        { path: '/bookkeeping' },
        { path: '/invitations' },
        { path: '/bookkeeping/accounts' },
        { path: '/messages/create', then: [emptyMessage] },
        { path: `/messages/${i.draft}` },
        { path: `/messages/${i.draft}/edit` },
        { path: '/messages' },
        { path: `/messages/${i.longSubject}` },
        { path: '/company/messages' },
        { path: '/company/messages/create' },
        { path: `/company/messages/${i.notice}` },
        { path: '/documents' },
        { path: '/documents/new' },
        { path: `/documents/${i.document}`, then: [documentHistory] },
        { path: '/assemblies' },
        { path: '/assemblies/new' },
        { path: `/assemblies/${i.assembly}` },
        { path: `/assemblies/${i.assembly}/edit` },
        ...marketsAndLending,
        { path: '/forum' },
        { path: '/forum/new' },
        { path: `/forum/thread/${i.forumThread}`, then: [dialog('Hide thread')] },
        { path: '/forum/reports' },
        { path: '/articles' },
        { path: '/articles?q=vaskeri' },
        { path: '/articles/new' },
        { path: `/articles/${i.article}` },
        { path: `/articles/edit/${i.article}` },
        { path: '/specialists' },
        { path: '/specialists/new' },
        { path: `/specialists/${i.specialist}` },
        { path: '/households' },
        { path: `/households/${i.household}` },
        { path: `/agreements/create?household=${i.household}` },
        ...common,
      ]
    case 'boardmember':
      return [
        { path: '/households' },
        { path: '/agreements' },
        { path: `/agreements/${i.accepted}` },
        { path: '/invoices' },
        { path: `/invoices/${i.invoice}` },
        { path: `/account-statement?userId=${i.acceptedMember}` },
        { path: '/messages' },
        { path: `/messages/${i.reminder}` },
        { path: '/messages/create' },
        { path: `/messages/${i.longSubject}` },
        { path: '/documents' },
        { path: `/documents/${i.document}` },
        { path: '/assemblies' },
        { path: `/assemblies/${i.assembly}` },
        ...marketsAndLending,
        { path: '/forum' },
        { path: `/forum/thread/${i.forumThread}` },
        { path: '/forum/reports' },
        { path: '/articles' },
        { path: `/articles/${i.article}` },
        { path: '/specialists' },
        { path: '/notifications' },
        { path: '/user', then: [mobileTooLong] },
      ]
    default: // resident
      return [
        { path: '/agreements' },
        { path: `/agreements/${i.accepted}` },
        { path: '/invoices' },
        { path: `/invoices/${i.invoice}` },
        { path: `/invoices/${i.creditNote}` },
        { path: '/account-statement', snap: 'account-statement' },
        { path: '/member/messages' },
        { path: `/member/messages/${i.notice}` },
        { path: '/member/messages/create' },
        { path: `/member/messages/${i.longSubject}` },
        { path: '/documents' },
        { path: `/documents/${i.document}` },
        { path: '/assemblies' },
        { path: `/assemblies/${i.assembly}` },
        ...marketsAndLending,
        { path: '/forum' },
        { path: '/forum/new' },
        { path: `/forum/thread/${i.forumThread}`, then: [dialog('Report')] },
        { path: '/articles' },
        { path: '/articles?q=vaskeri' },
        { path: `/articles/${i.platformArticle}` },
        { path: '/specialists' },
        { path: '/notifications' },
        { path: '/user', then: [dialog('Add authentication method')] },
      ]
  }
}

const publicRoutes: Step[] = [
  { path: '/' },
  { path: '/register' },
  { path: '/contact' },
  { path: '/legal/terms' },
  { path: '/legal/privacy' },
  { path: '/reset-password?token=not-a-real-token' },
  { path: '/confirm-email?token=not-a-real-token' },
  { path: '/no-such-page' },
  { path: '/login' },
]

/** Opens a route through the app's router (it patches history.pushState), no page load. */
async function open(page: Page, path: string) {
  await page.evaluate((p) => {
    for (const el of document.querySelectorAll('#main > *, #root > * > main > *, main > *')) el.setAttribute('data-walk-old', '')
    history.pushState({ ...history.state, __TSR_index: (history.state?.__TSR_index ?? 0) + 1 }, '', p)
  }, path)
  await settle(page)
}

/** Waits for the new screen: the old one gone (or the same component re-rendered), nothing loading, a heading shown. */
async function settle(page: Page, navigated = true) {
  if (navigated) await page.waitForFunction(() => !document.querySelector('main > [data-walk-old]'), null, { timeout: 2_500 }).catch(() => undefined) // the same component with other parameters keeps its element
  await page.waitForFunction(() => !document.querySelector('main .spinner-wrap, .overlay') && !!document.querySelector('h1'), null, { timeout: 10_000 })
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))
}

/** Where the walk's time goes (ms), printed after each role and language: never asserted (docs/ARCHITECTURE.md "Tests"). */
const timing = { open: 0, width: 0, axe: 0, english: 0 }
async function timed<T>(key: keyof typeof timing, fn: () => Promise<T>): Promise<T> {
  // eslint-disable-next-line no-restricted-syntax -- printed for whoever makes the walk faster, not a bound
  const start = performance.now()
  try {
    return await fn()
  } finally {
    // eslint-disable-next-line no-restricted-syntax -- printed, not a bound
    timing[key] += performance.now() - start
  }
}

async function checkScreen(page: Page, lang: Lang, where: string, report: string[]) {
  for (const size of SIZES) {
    await page.setViewportSize(size)
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))
    const problems: string[] = []
    const { scrollWidth, clientWidth, widest, broken } = await timed('width', () =>
      page.evaluate(() => {
        const doc = document.documentElement
        const describe = (el: Element) =>
          `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${typeof el.className === 'string' && el.className.trim() ? `.${el.className.trim().split(/\s+/).join('.')}` : ''} "${(el.textContent ?? '').trim().slice(0, 40)}"`
        // The element (or the text inside one) sticking out furthest on the right, to name in the report.
        let widest = ''
        let right = doc.clientWidth
        for (const el of document.body.querySelectorAll('*')) {
          const r = el.getBoundingClientRect()
          if (r.width === 0) continue
          const reach = Math.max(r.right, getComputedStyle(el).overflowX === 'visible' ? r.left + el.scrollWidth : 0)
          if (reach > right + 1) {
            right = reach
            widest = `${describe(el)} reaches ${Math.round(reach)} px`
          }
        }
        // Labels must never break inside a word ("Reg ular", "One -off"): a word of a header,
        // badge, button, tab or label laid out on two lines.
        const broken = new Set<string>()
        const range = document.createRange()
        for (const el of document.body.querySelectorAll('th, .badge, button, .btn, label, [role=tab], .nav-link, dt, .filter-option, [data-label]')) {
          if (!(el as HTMLElement).checkVisibility?.() || el.closest('.sr-only')) continue
          for (const node of el.childNodes) {
            if (node.nodeType !== Node.TEXT_NODE) continue
            // A word with the hyphen after it: a line may end after a hyphen ("One-" / "off"), never inside a word or before its hyphen.
            for (const m of (node.textContent ?? '').matchAll(/[\p{L}\p{N}]+-?/gu)) {
              if (m[0].length < 2) continue
              range.setStart(node, m.index)
              range.setEnd(node, m.index + m[0].length)
              const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)))
              if (tops.size > 1) broken.add(`"${m[0]}" in ${describe(el)}`)
            }
          }
        }
        return { scrollWidth: doc.scrollWidth, clientWidth: doc.clientWidth, widest, broken: [...broken] }
      }),
    )
    if (scrollWidth > clientWidth) problems.push(`sideways scroll: scrollWidth ${scrollWidth} > ${clientWidth}; widest ${widest}`)
    for (const word of broken) problems.push(`word broken across lines: ${word}`)
    problems.push(...(await timed('axe', () => seriousViolations(page))))
    if (lang === 'da') problems.push(...(await timed('english', () => englishLeaks(page, { markers, allowed }))))
    for (const p of problems) report.push(`${where} @${size.width} ${lang}: ${p}`)
    if (problems.length) await snap(page, `every-route-${where.replace(/\W+/g, '_')}-${size.width}-${lang}`).catch(() => undefined)
  }
}

async function walk(context: BrowserContext, page: Page, steps: Step[], lang: Lang, report: string[]) {
  for (const step of steps) {
    try {
      await timed('open', () => open(page, step.path))
    } catch (err) {
      report.push(`${step.path} ${lang}: did not finish loading (${(err as Error).message.split('\n')[0]})`)
      continue
    }
    await checkScreen(page, lang, step.path, report)
    if (step.snap) {
      await page.setViewportSize(SIZES[0])
      await snap(page, `every-route-${step.snap}-375-${lang}`)
    }
    for (const then of step.then ?? []) {
      try {
        await page.setViewportSize(SIZES[1])
        await then.run(page, lang)
        await settle(page, false)
      } catch (err) {
        report.push(`${step.path} ${then.name} ${lang}: ${(err as Error).message.split('\n')[0]}`)
        continue
      }
      await checkScreen(page, lang, `${step.path} ${then.name}`, report)
      for (const problem of (await then.after?.(page, lang)) ?? []) report.push(`${step.path} ${then.name} ${lang}: ${problem}`)
    }
  }
  void context
}

function printReport(title: string, report: string[]) {
  console.log(
    `every-route ${title}: ${Object.entries(timing)
      .map(([k, v]) => `${k} ${Math.round(v)} ms`)
      .join(', ')}`,
  )
  for (const k of Object.keys(timing) as (keyof typeof timing)[]) timing[k] = 0
  if (report.length) console.log(`\n=== every-route: ${title}: ${report.length} problem(s)\n${report.map((r) => `  - ${r}`).join('\n')}\n`)
}

const roles = [
  { role: 'superadmin', email: 'superadmin@boligkasse.dk' },
  { role: 'administrator', email: 'admin@solgaarden.dk' },
  { role: 'boardmember', email: 'bestyrelse@solgaarden.dk' },
  // Emma (beboer03) rather than beboer01: she has the running agreement 1001 with invoices, so her screens show them.
  { role: 'resident', email: 'beboer03@solgaarden.dk' },
]

/**
 * The walk in one language, on a server of its own: each language is a file of its own
 * (every-route-en.e2e.ts, every-route-da.e2e.ts), so the two run side by side (vitest.config.ts).
 */
export function describeEveryRoute(lang: Lang, subnet: number) {
  ;({ suite, clientIp, serverRows, writeDb, writeHistory, api } = journeySuite(`every-route-${lang}`, subnet))
  describe(`every route in ${lang === 'da' ? 'Danish' : 'English'}, phone and desktop`, () => {
    it('prepares the demo with charges, invoices and messages', async () => {
      ids = await prepareData()
      allowed = allowList()
    })

    it(`signed out (${lang})`, async () => {
      const context = await suite.browser.newContext({ baseURL: suite.server.url, viewport: SIZES[1], locale: 'en-GB', extraHTTPHeaders: clientIp() })
      await context.addInitScript((l) => localStorage.setItem('boligkasse.locale', l), lang)
      const page = await context.newPage()
      const report: string[] = []
      try {
        await page.goto('/login')
        await page.locator('h1').waitFor()
        await walk(context, page, publicRoutes, lang, report)
      } finally {
        await context.close()
      }
      printReport(`signed out, ${lang}`, report)
      expect(report).toEqual([])
    })

    for (const { role, email } of roles) {
      it(`${role} (${lang})`, { timeout: 180_000 }, async () => {
        writeDb((db) => db.prepare('UPDATE users SET language = ? WHERE email_address = ?').run(lang.toUpperCase(), email))
        const context = await suite.browser.newContext({ baseURL: suite.server.url, viewport: SIZES[1], locale: 'en-GB', extraHTTPHeaders: clientIp() })
        const page = await context.newPage()
        const report: string[] = []
        try {
          await signIn(page, email)
          await expect.poll(() => page.locator('html').getAttribute('lang')).toBe(lang)
          await expect.poll(() => page.locator('.sync-indicator:visible').first().getAttribute('data-state'), { timeout: 20_000 }).toBe('synced')
          await walk(context, page, routesOf(role), lang, report)
        } finally {
          await context.close()
        }
        printReport(`${role}, ${lang}`, report)
        expect(report).toEqual([])
      })
    }
  })
}
