/**
 * General assembly journey (decision 0061): the chairman (Danish interface) calls a general assembly
 * through the form, with the notice going out at once and reminders 14 and 2 days before; the job
 * sends the notice, and a reminder once its time has come (the test moves the reminder's time to
 * now, as if the days had passed), to every member by e-mail in their own language: a Danish
 * resident's .eml is Danish, an English resident's English. A Danish resident then submits a
 * proposal before the deadline. Each screen is checked with axe and for sideways scroll at 375 px,
 * and photographed at 375 and 1280 px in English and Danish into /tmp/assembly-shots/.
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { instantToCopenhagenLocal } from '../shared/domain/assembly'
import { seriousViolations } from './axe'
import { danish, latestMailTo } from './harness'
import { journeySuite, signIn } from './journeys'

const { journey, serverRows, writeDb, suite } = journeySuite('assemblies', 32)

const SHOTS = '/tmp/assembly-shots'
const TITLE = 'Ordinær generalforsamling 2027'
const DAY = 24 * 3_600_000
const local = (msFromNow: number) => instantToCopenhagenLocal(new Date(Date.now() + msFromNow).toISOString())

/** No sideways scroll, no serious axe violation, at phone width; then a screenshot at both widths. */
async function check(page: Page, name: string) {
  const size = page.viewportSize()!
  await page.setViewportSize({ width: 375, height: 812 })
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
    `${name}: sideways scroll at 375 px`,
  ).toBeLessThanOrEqual(0)
  expect(await seriousViolations(page), `${name}: axe at 375 px`).toEqual([])
  await page.screenshot({ path: join(SHOTS, `${name}-375.png`), fullPage: true })
  await page.setViewportSize({ width: 1280, height: 900 })
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))
  expect(await seriousViolations(page), `${name}: axe at 1280 px`).toEqual([])
  await page.screenshot({ path: join(SHOTS, `${name}-1280.png`), fullPage: true })
  await page.setViewportSize(size)
}

const openAssemblies = async (page: Page, label: string) => {
  await page.locator('nav.sidebar-nav').getByRole('link', { name: label, exact: true }).click()
  await page.waitForURL(/\/assemblies$/)
}

describe('general assembly journeys', () => {
  it('the notice and a reminder reach members by e-mail in their language, and a resident proposes before the deadline', async () => {
    mkdirSync(SHOTS, { recursive: true })
    let id = ''

    await journey('chairman-calls', async (_context, page) => {
      await signIn(page, 'formand@solgaarden.dk')
      await openAssemblies(page, danish('General assembly'))
      await page.getByRole('link', { name: danish('New general assembly') }).click()
      const form = page.locator('form.assembly-form')
      // Sent empty: what is missing, in Danish, at the fields.
      await form.getByRole('button', { name: danish('Call the general assembly') }).click()
      for (const message of ['Please enter a title', 'Please enter the date and time of the meeting', 'Please enter where the meeting is held'])
        await form.locator('.field-error', { hasText: danish(message) }).waitFor()
      await form.getByLabel(danish('Title'), { exact: true }).fill(TITLE)
      await form.getByLabel(danish('Date and time (Danish time)')).fill(local(20 * DAY))
      await form.getByLabel(danish('Place'), { exact: true }).fill('Fælleshuset, Solvej 2')
      await form.getByLabel(danish('Item {0}').replace('{0}', '1'), { exact: true }).fill('Valg af dirigent')
      await form.getByRole('button', { name: danish('Add agenda item') }).click()
      await form.getByLabel(danish('Item {0}').replace('{0}', '2'), { exact: true }).fill('Bestyrelsens beretning')
      await form.getByRole('button', { name: danish('Add agenda item') }).click()
      await form.getByLabel(danish('Item {0}').replace('{0}', '3'), { exact: true }).fill('Godkendelse af årsregnskab')
      await form.getByLabel(danish('Deadline for proposals (Danish time)')).fill(local(10 * DAY))
      await form.getByLabel(danish('Send the notice at once')).check()
      expect(await form.getByLabel(danish('Reminders (days before the meeting)')).inputValue()).toBe('14, 2')
      await check(page, 'assembly-form-da')
      await form.getByRole('button', { name: danish('Call the general assembly') }).click()
      await page.waitForURL(/\/assemblies\/[0-9a-f-]{36}$/)
      id = page.url().split('/').pop()!
      await page.getByRole('heading', { level: 1, name: TITLE }).waitFor()
      // The notice goes out at the job's next turn; the page shows it sent, with the count, from the next pull.
      await expect
        .poll(() => serverRows<{ sent_at: string | null }>("SELECT sent_at FROM sendouts WHERE assembly_id = ? AND kind = 'ASSEMBLY_NOTICE'", id)[0]?.sent_at, {
          timeout: 15_000,
        })
        .toBeTruthy()
      await page.reload()
      await page
        .getByText(new RegExp(danish('Sent to {0} members').replace('{0}', '\\d+')))
        .first()
        .waitFor({ timeout: 20_000 })
      await check(page, 'assembly-view-staff-da')
    })
    expect(serverRows<{ n: number }>("SELECT count(*) AS n FROM sendouts WHERE assembly_id = ? AND kind = 'ASSEMBLY_REMINDER'", id)[0]!.n).toBe(2)

    // The notice, by e-mail, in each member's language.
    const da = await latestMailTo(suite.server.mailDir, 'beboer02@solgaarden.dk')
    expect(da.subject).toBe(`Indkaldelse til generalforsamling: ${TITLE}`)
    expect(da.text).toContain('Hej Lars Pedersen,')
    expect(da.text).toMatch(/Tidspunkt: \w+dag den \d+\. \w+ 20\d\d kl\. \d\d\.\d\d/)
    expect(da.text).toContain('Dagsorden:')
    expect(da.text).toContain('2. Bestyrelsens beretning')
    expect(da.text).toContain('Forslag skal være bestyrelsen i hænde senest')
    expect(da.text).toContain(`/assemblies/${id}`)
    const en = await latestMailTo(suite.server.mailDir, 'beboer03@solgaarden.dk')
    expect(en.subject).toBe(`Notice of general assembly: ${TITLE}`)
    expect(en.text).toContain('Hello Emma Hansen,')
    expect(en.text).toMatch(/When: \w+day, \d+ \w+ 20\d\d at \d\d:\d\d/)
    expect(en.text).toContain('Agenda:')
    expect(en.text).toContain('Proposals must reach the board by')

    // Fourteen days before the meeting: the reminder's time has come.
    const before = Date.now()
    writeDb((db) => db.prepare("UPDATE sendouts SET due_at = ? WHERE assembly_id = ? AND key LIKE '%:reminder:14'").run(new Date().toISOString(), id))
    const reminderDa = await latestMailTo(suite.server.mailDir, 'beboer02@solgaarden.dk', before)
    expect(reminderDa.subject).toBe(`Påmindelse: generalforsamling ${TITLE}`)
    expect(reminderDa.text).toContain('er om 14 dage.')
    expect(reminderDa.text).toContain('Dagsorden:')
    const reminderEn = await latestMailTo(suite.server.mailDir, 'beboer03@solgaarden.dk', before)
    expect(reminderEn.subject).toBe(`Reminder: general assembly ${TITLE}`)
    expect(reminderEn.text).toContain('is in 14 days.')

    await journey('resident-proposes', async (_context, page) => {
      await signIn(page, 'beboer02@solgaarden.dk')
      await openAssemblies(page, danish('General assembly'))
      await check(page, 'assembly-list-resident-da')
      await page.getByRole('link', { name: TITLE }).click()
      await page.getByRole('heading', { level: 1, name: TITLE }).waitFor()
      const form = page.locator('form.proposal-form')
      await form.getByRole('button', { name: danish('Submit proposal') }).click()
      await form.locator('.field-error', { hasText: danish('Please enter a title for the proposal') }).waitFor()
      await form.getByLabel(danish('Title of the proposal')).fill('Cykelskur ved port 2')
      await form.getByLabel(danish('The proposal'), { exact: true }).fill('Vi foreslår et overdækket cykelskur ved port 2.\nPris ca. 40.000 kr.')
      await form.getByRole('button', { name: danish('Submit proposal') }).click()
      await page.getByText(danish('Your proposal is submitted.')).waitFor({ timeout: 20_000 })
      await page.locator('.assembly-proposal', { hasText: 'Cykelskur ved port 2' }).getByText(danish('By you')).waitFor()
      await check(page, 'assembly-view-resident-da')
    })
    expect(
      serverRows<{ title: string; author_name: string; status: string }>('SELECT title, author_name, status FROM assembly_proposals WHERE assembly_id = ?', id),
    ).toEqual([{ title: 'Cykelskur ved port 2', author_name: 'Lars Pedersen', status: 'SUBMITTED' }])

    await journey('administrator-en', async (_context, page) => {
      // The administrator reads in English: the list, the assembly with the sent notice and reminder and the proposal, the edit form.
      await signIn(page, 'admin@solgaarden.dk')
      await openAssemblies(page, 'General assembly')
      await page.getByRole('link', { name: TITLE }).waitFor({ timeout: 15_000 })
      await check(page, 'assembly-list-en')
      await page.getByRole('link', { name: TITLE }).click()
      await page.locator('.assembly-proposal', { hasText: 'Cykelskur ved port 2' }).getByText('By Lars Pedersen').waitFor({ timeout: 15_000 })
      expect(await page.locator('.assembly-sendout').filter({ hasText: 'Sent to' }).count()).toBe(2)
      await page.getByRole('link', { name: 'Add minutes' }).waitFor()
      await check(page, 'assembly-view-staff-en')
      await page.getByRole('link', { name: 'Edit', exact: true }).click()
      await page.locator('form.assembly-form').waitFor()
      await check(page, 'assembly-edit-en')
    })

    await journey('resident-en', async (_context, page) => {
      await signIn(page, 'beboer03@solgaarden.dk')
      await page.goto(`/assemblies/${id}`)
      await page.getByRole('heading', { level: 1, name: TITLE }).waitFor({ timeout: 15_000 })
      await page.getByText("Other members' proposals are shown here once the deadline has passed.").waitFor()
      await check(page, 'assembly-view-resident-en')
      await page.goto('/assemblies/new')
      await page.getByText('Only the chairman, the administrator and the accountant of the association can call a general assembly.').waitFor()
    })
  })
})
