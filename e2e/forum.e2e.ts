/**
 * The forum (decision 0066): a resident starts a thread; a neighbour replies and reports the opening
 * post; the author is told in-app and by e-mail, in their language; a reply typed offline is kept
 * as a draft through a reload and is sent once back online; a board member locks the thread and a
 * reply is refused; a resident of another association neither lists nor opens it. The screens are
 * axe-clean and fit 375 px, in English and Danish (screenshots under test-results/).
 */
import { describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { DEMO_PASSWORD, latestMailTo } from './harness'
import { checkScreen, journeySuite, signIn } from './journeys'

const { journey, serverRows, tr, residentOfHavnehuset, suite } = journeySuite('forum', 36)

const TITLE = 'Hvem har nøglen til cykelkælderen?'
const SEEDED = 'Fælles cykeloprydning i maj?'
const serviceWorkerReady = (page: Page) => page.evaluate(async () => void (await navigator.serviceWorker.ready))

const thread = (id: string) =>
  serverRows<{ locked_at: string | null; reply_count: number }>('SELECT locked_at, reply_count FROM forum_threads WHERE id = ?', id)[0]
const replies = (id: string) => serverRows<{ body: string }>('SELECT body FROM forum_posts WHERE thread_id = ? AND opening = 0 ORDER BY created_at', id)

/** Locks or unlocks a thread as `email`, through the API from the test (another user, while a page is open). */
async function moderateAs(email: string, id: string, action: 'LOCK' | 'UNLOCK') {
  const json = { 'Content-Type': 'application/json' }
  const login = await fetch(`${suite.server.url}/api/auth/login`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ type: 'email', email, password: DEMO_PASSWORD }),
  })
  const { accessToken } = (await login.json()) as { accessToken: string }
  const res = await fetch(`${suite.server.url}/api/forum/threads/${id}/moderation`, {
    method: 'POST',
    headers: { ...json, Authorization: `Bearer ${accessToken}` },
    body: JSON.stringify({ action }),
  })
  expect(res.status).toBe(200)
}

/** POST a reply from the signed-in page: its status and message. */
const replyFromPage = (page: Page, id: string, lang: string) =>
  page.evaluate(
    async ([threadId, language]) => {
      const token = JSON.parse(localStorage.getItem('boligkasse.session')!).token as string
      const res = await fetch(`/api/forum/threads/${threadId}/posts`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'Accept-Language': language! },
        body: JSON.stringify({ body: 'Må jeg stadig svare?' }),
      })
      return [res.status, ((await res.json()) as { message: string }).message] as const
    },
    [id, lang],
  )

describe('forum', () => {
  it('a thread gets a reply and its author is told; a draft survives a reload offline; the board locks it; another association never sees it', async () => {
    const author = 'beboer05@solgaarden.dk'
    const neighbour = 'beboer06@solgaarden.dk'
    const board = 'bestyrelse@solgaarden.dk'
    let id = ''

    await journey('the author starts a thread', async (_context, page) => {
      const t = tr(author)
      await signIn(page, author)
      await page.getByRole('link', { name: t('Forum'), exact: true }).click()
      await page.getByRole('heading', { name: t('Forum'), level: 1 }).waitFor()
      // The demo's thread is there, with its two replies.
      await page.getByRole('link', { name: SEEDED }).waitFor()
      await checkScreen(page, 'forum-list')
      await page.getByRole('link', { name: t('New thread') }).click()
      await page.getByRole('heading', { name: t('New thread'), level: 1 }).waitFor()
      // Sent empty: what is missing, in the user's language.
      await page.getByRole('button', { name: t('Start thread') }).click()
      await page.getByText(t('Please give the thread a title')).waitFor()
      await checkScreen(page, 'forum-new-errors')
      await page.getByLabel(t('Title'), { exact: true }).fill(TITLE)
      await page.getByLabel(t('Your post'), { exact: true }).fill('Den er ikke hængt tilbage på krogen. Har nogen set den?')
      await page.getByRole('button', { name: t('Start thread') }).click()
      await page.getByRole('heading', { name: TITLE, level: 1 }).waitFor()
      id = page.url().split('/forum/thread/')[1]!
      await page.getByText('Har nogen set den?').waitFor()
      await checkScreen(page, 'forum-thread-author')
    })
    expect(thread(id)).toMatchObject({ locked_at: null, reply_count: 0 })

    await journey('a neighbour replies and reports', async (_context, page) => {
      const t = tr(neighbour)
      await signIn(page, neighbour)
      await page.getByRole('link', { name: t('Forum'), exact: true }).click()
      // Not yet seen on this device: marked new.
      await page.locator('.forum-thread-item').filter({ hasText: TITLE }).getByText(t('New'), { exact: true }).waitFor()
      await page.getByRole('link', { name: TITLE }).click()
      await page.getByRole('heading', { name: TITLE, level: 1 }).waitFor()
      await page.getByLabel(t('Your reply'), { exact: true }).fill('The caretaker has a spare one.')
      await page.getByRole('button', { name: t('Send reply') }).click()
      await page.locator('.forum-post-body').filter({ hasText: 'The caretaker has a spare one.' }).waitFor()
      await expect.poll(() => replies(id).length, { timeout: 10_000 }).toBe(1)
      await expect.poll(async () => await page.getByLabel(t('Your reply'), { exact: true }).inputValue()).toBe('')
      // The report dialog on the author's post.
      await page
        .getByRole('button', { name: t('Report'), exact: true })
        .first()
        .click()
      await page.getByRole('dialog').waitFor()
      await page.getByRole('button', { name: t('Send report') }).click()
      await page.getByText(t('Please say what is wrong')).waitFor()
      await checkScreen(page, 'forum-report-dialog')
      await page.getByLabel(t('What is wrong with it?'), { exact: true }).fill('Only testing the report button.')
      await page.getByRole('button', { name: t('Send report') }).click()
      await page.getByRole('dialog').waitFor({ state: 'hidden' })
      await checkScreen(page, 'forum-thread-neighbour')
    })
    expect(serverRows('SELECT reason FROM forum_reports')).toEqual([{ reason: 'Only testing the report button.' }])

    await journey('the author is told in-app and by e-mail', async (_context, page) => {
      const t = tr(author)
      const name = serverRows<{ full_name: string }>('SELECT full_name FROM users WHERE email_address = ?', neighbour)[0]!.full_name
      const danishUser = t('Forum thread') !== 'Forum thread'
      const subject = `${name} ${danishUser ? 'svarede i' : 'replied in'} “${TITLE}”`
      await signIn(page, author)
      await page.goto('/notifications')
      await page.getByText(subject).first().waitFor()
      const mail = await latestMailTo(suite.server.mailDir, author)
      expect(mail.subject).toBe(subject)
      expect(mail.text).toContain(`/forum/thread/${id}`)
    })

    await journey('a reply typed offline is kept as a draft through a reload', async (context, page) => {
      const t = tr(author)
      await signIn(page, author)
      await page.goto(`/forum/thread/${id}`)
      await page.getByText('The caretaker has a spare one.').waitFor()
      await serviceWorkerReady(page)
      await context.setOffline(true)
      await page.getByLabel(t('Your reply'), { exact: true }).fill('Tak! Jeg henter den i aften.')
      await page.waitForTimeout(800)
      await page.reload()
      await page.getByRole('heading', { name: TITLE, level: 1 }).waitFor()
      await expect
        .poll(async () => await page.getByLabel(t('Your reply'), { exact: true }).inputValue(), { timeout: 10_000 })
        .toBe('Tak! Jeg henter den i aften.')
      await checkScreen(page, 'forum-thread-offline-draft')
      await context.setOffline(false)
      await page.getByRole('button', { name: t('Send reply') }).click()
      await expect.poll(() => replies(id).length, { timeout: 15_000 }).toBe(2)
      await page.reload()
      await page.getByText('Tak! Jeg henter den i aften.').waitFor()
      expect(await page.getByLabel(t('Your reply'), { exact: true }).inputValue()).toBe('')
    })

    await journey('a reply the server refuses keeps its text as a draft', async (_context, page) => {
      const t = tr(neighbour)
      await signIn(page, neighbour)
      await page.goto(`/forum/thread/${id}`)
      await page.getByText('Tak! Jeg henter den i aften.').waitFor()
      await page.getByLabel(t('Your reply'), { exact: true }).fill('Kan jeg nå det endnu?')
      await page.waitForTimeout(800)
      // Locked by the board while the page still shows the thread open: the reply is refused.
      await moderateAs(board, id, 'LOCK')
      await page.getByRole('button', { name: t('Send reply') }).click()
      await expect.poll(() => thread(id)?.locked_at ?? null).not.toBeNull()
      await page.getByText(t('This thread is locked: no new replies.')).first().waitFor()
      expect(replies(id)).toHaveLength(2)
      // Unlocked again: what was typed is back in the draft, after a reload too.
      await moderateAs(board, id, 'UNLOCK')
      await page.waitForTimeout(800)
      await page.reload()
      await expect.poll(async () => await page.getByLabel(t('Your reply'), { exact: true }).inputValue(), { timeout: 15_000 }).toBe('Kan jeg nå det endnu?')
      await page.getByLabel(t('Your reply'), { exact: true }).fill('')
      await page.waitForTimeout(800)
    })

    await journey('the board locks the thread; a reply is refused', async (_context, page) => {
      const t = tr(board)
      await signIn(page, board)
      await page.goto(`/forum/thread/${id}`)
      await page.getByRole('heading', { name: t('Moderation') }).waitFor()
      await page.getByRole('button', { name: t('Lock thread') }).click()
      await expect.poll(() => thread(id)?.locked_at ?? null, { timeout: 10_000 }).not.toBeNull()
      await page.getByRole('button', { name: t('Unlock') }).waitFor()
      await page
        .locator('.alert')
        .filter({ hasText: t('This thread is locked: no new replies.') })
        .waitFor()
      await checkScreen(page, 'forum-thread-moderator')
      await page.goto('/forum/reports')
      await page.getByText('Only testing the report button.').waitFor()
      // The reported post's text, and a link to it in its thread.
      await page.locator('.forum-report-excerpt').filter({ hasText: 'Den er ikke hængt tilbage på krogen. Har nogen set den?' }).waitFor()
      await checkScreen(page, 'forum-reports')
      await page.getByRole('link', { name: t('Open the post') }).click()
      await page.getByRole('heading', { name: TITLE, level: 1 }).waitFor()
      expect(new URL(page.url()).hash).toMatch(/^#post-/)
    })

    await journey('a reply to the locked thread is refused', async (_context, page) => {
      const t = tr(neighbour)
      await signIn(page, neighbour)
      await page.goto(`/forum/thread/${id}`)
      await page
        .locator('.alert')
        .filter({ hasText: t('This thread is locked: no new replies.') })
        .waitFor()
      expect(await page.getByLabel(t('Your reply'), { exact: true }).count()).toBe(0)
      expect(await replyFromPage(page, id, 'da')).toEqual([422, 'Tråden er låst: der kan ikke svares mere.'])
      expect(await replyFromPage(page, id, 'en')).toEqual([422, 'This thread is locked: no new replies.'])
    })
    expect(replies(id)).toHaveLength(2)

    const outsider = 'beboer12@solgaarden.dk'
    residentOfHavnehuset(outsider, 9036)
    await journey('another association', async (_context, page) => {
      const t = tr(outsider)
      await signIn(page, outsider)
      await page.goto('/forum')
      await page.getByRole('heading', { name: t('Forum'), level: 1 }).waitFor()
      await page.getByText(t('No threads yet')).waitFor()
      expect(await page.getByRole('link', { name: TITLE }).count()).toBe(0)
      await page.goto(`/forum/thread/${id}`)
      await page.getByText(t('Thread not found.')).first().waitFor()
      const status = await page.evaluate(async (threadId) => {
        const token = JSON.parse(localStorage.getItem('boligkasse.session')!).token as string
        const headers = { Authorization: `Bearer ${token}` }
        return [(await fetch(`/api/forum/threads/${threadId}`, { headers })).status, (await fetch(`/api/forum/threads/${threadId}/posts`, { headers })).status]
      }, id)
      expect(status).toEqual([404, 404])
    })
  })
})
