/**
 * The forum (decision 0066): a resident starts a thread; a neighbour replies and reports the opening
 * post; the author is told in-app and by e-mail, in their language; a reply typed offline is kept
 * as a draft through a reload and is sent once back online; a board member locks the thread and a
 * reply is refused; a resident of another association neither lists nor opens it. The screens are
 * axe-clean and fit 375 px, in English and Danish (screenshots under test-results/).
 *
 * Each test starts from its own state: a thread of its own (its own title), started, replied to,
 * reported or locked through the API as far as the test begins, so no test waits on another.
 */
import { describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { latestMailTo } from './harness'
import { checkScreen, journeySuite, signIn } from './journeys'

const { journey, serverRows, tr, residentOfHavnehuset, suite, api, tokenOf } = journeySuite('forum', 36)

const TITLE = 'Hvem har nøglen til cykelkælderen?'
const OPENING = 'Den er ikke hængt tilbage på krogen. Har nogen set den?'
const AUTHOR = 'beboer05@solgaarden.dk'
const NEIGHBOUR = 'beboer06@solgaarden.dk'
const BOARD = 'bestyrelse@solgaarden.dk'
const SEEDED = 'Fælles cykeloprydning i maj?'
const serviceWorkerReady = (page: Page) => page.evaluate(async () => void (await navigator.serviceWorker.ready))

const thread = (id: string) =>
  serverRows<{ locked_at: string | null; reply_count: number }>('SELECT locked_at, reply_count FROM forum_threads WHERE id = ?', id)[0]
const replies = (id: string) => serverRows<{ body: string }>('SELECT body FROM forum_posts WHERE thread_id = ? AND opening = 0 ORDER BY created_at', id)

/** Locks or unlocks a thread as `email`, through the API from the test (another user, while a page is open). */
async function moderateAs(email: string, id: string, action: 'LOCK' | 'UNLOCK') {
  await api(await tokenOf(email), 'POST', `/forum/threads/${id}/moderation`, { action })
}

/** A thread of the author's in the demo association, started through the API: its id and its opening post's. */
async function threadOf(title: string, body = OPENING): Promise<{ id: string; postId: string }> {
  const companyId = serverRows<{ id: string }>("SELECT id FROM companies WHERE cvr = '10150817'")[0]!.id
  const ids = { id: crypto.randomUUID(), postId: crypto.randomUUID() }
  await api(await tokenOf(AUTHOR), 'POST', '/forum/threads', { ...ids, companyId, title, body })
  return ids
}

/** A reply to thread `id` as `email`, through the API. */
async function replyAs(email: string, id: string, body: string) {
  await api(await tokenOf(email), 'POST', `/forum/threads/${id}/posts`, { body })
}

/** The reply draft of thread `id` as this device keeps it (IndexedDB, client/features/forum/drafts.ts), or null. */
const storedDraft = (page: Page, id: string) =>
  page.evaluate(async (key) => {
    const userId = JSON.parse(localStorage.getItem('boligkasse.session')!).user.id as string
    const name = `boligkasse-${userId}`
    if (!(await indexedDB.databases()).some((d) => d.name === name)) return null
    return await new Promise<string | null>((resolve, reject) => {
      const open = indexedDB.open(name)
      open.onerror = () => reject(open.error)
      open.onsuccess = () => {
        const db = open.result
        const read = db.transaction('forumDrafts').objectStore('forumDrafts').get(key)
        read.onsuccess = () => {
          db.close()
          resolve((read.result as { body?: string } | undefined)?.body ?? null)
        }
        read.onerror = () => reject(read.error)
      }
    })
  }, `reply:${id}`)

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
  it('a resident starts a thread: told what is missing, then it opens with her post', async () => {
    let id = ''
    await journey('the author starts a thread', async (_context, page) => {
      const t = tr(AUTHOR)
      await signIn(page, AUTHOR)
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
      await page.getByLabel(t('Your post'), { exact: true }).fill(OPENING)
      await page.getByRole('button', { name: t('Start thread') }).click()
      await page.getByRole('heading', { name: TITLE, level: 1 }).waitFor()
      id = page.url().split('/forum/thread/')[1]!
      await page.getByText('Har nogen set den?').waitFor()
      await checkScreen(page, 'forum-thread-author')
    })
    await expect.poll(() => thread(id)).toMatchObject({ locked_at: null, reply_count: 0 })
  })

  it('a neighbour replies and reports the opening post; the author is told in-app and by e-mail, in her language', async () => {
    const title = 'Hvem har lånt stigen fra kælderen?'
    const { id, postId } = await threadOf(title)
    await journey('a neighbour replies and reports', async (_context, page) => {
      const t = tr(NEIGHBOUR)
      await signIn(page, NEIGHBOUR)
      await page.getByRole('link', { name: t('Forum'), exact: true }).click()
      // Not yet seen on this device: marked new.
      await page.locator('.forum-thread-item').filter({ hasText: title }).getByText(t('New'), { exact: true }).waitFor()
      await page.getByRole('link', { name: title }).click()
      await page.getByRole('heading', { name: title, level: 1 }).waitFor()
      await page.getByLabel(t('Your reply'), { exact: true }).fill('The caretaker has a spare one.')
      await page.getByRole('button', { name: t('Send reply') }).click()
      await page.locator('.forum-post-body').filter({ hasText: 'The caretaker has a spare one.' }).waitFor()
      await expect.poll(() => replies(id).length).toBe(1)
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
    await expect.poll(() => serverRows('SELECT reason FROM forum_reports WHERE post_id = ?', postId)).toEqual([{ reason: 'Only testing the report button.' }])

    await journey('the author is told in-app and by e-mail', async (_context, page) => {
      const t = tr(AUTHOR)
      const name = serverRows<{ full_name: string }>('SELECT full_name FROM users WHERE email_address = ?', NEIGHBOUR)[0]!.full_name
      const danishUser = t('Forum thread') !== 'Forum thread'
      const subject = `${name} ${danishUser ? 'svarede i' : 'replied in'} “${title}”`
      await signIn(page, AUTHOR)
      await page.goto('/notifications')
      await page.getByText(subject).first().waitFor()
      await expect.poll(async () => (await latestMailTo(suite.server.mailDir, AUTHOR)).subject).toBe(subject)
      expect((await latestMailTo(suite.server.mailDir, AUTHOR)).text).toContain(`/forum/thread/${id}`)
    })
  })

  it('a reply typed offline is kept as a draft through a reload, and is sent once back online', async () => {
    const title = 'Er der nogen, der har en ekstra cykelpumpe?'
    const { id } = await threadOf(title)
    await replyAs(NEIGHBOUR, id, 'The caretaker has a spare one.')
    await journey('a reply typed offline is kept as a draft through a reload', async (context, page) => {
      const t = tr(AUTHOR)
      await signIn(page, AUTHOR)
      await page.goto(`/forum/thread/${id}`)
      await page.getByText('The caretaker has a spare one.').waitFor()
      await serviceWorkerReady(page)
      await context.setOffline(true)
      await page.getByLabel(t('Your reply'), { exact: true }).fill('Tak! Jeg henter den i aften.')
      // Kept on the device as it is typed (a moment after the last key).
      await expect.poll(() => storedDraft(page, id)).toBe('Tak! Jeg henter den i aften.')
      await page.reload()
      await page.getByRole('heading', { name: title, level: 1 }).waitFor()
      await expect.poll(async () => await page.getByLabel(t('Your reply'), { exact: true }).inputValue()).toBe('Tak! Jeg henter den i aften.')
      await checkScreen(page, 'forum-thread-offline-draft')
      await context.setOffline(false)
      await page.getByRole('button', { name: t('Send reply') }).click()
      await expect.poll(() => replies(id).length).toBe(2)
      await page.reload()
      await page.getByText('Tak! Jeg henter den i aften.').waitFor()
      expect(await page.getByLabel(t('Your reply'), { exact: true }).inputValue()).toBe('')
      await expect.poll(() => storedDraft(page, id)).toBeNull()
    })
  })

  it('a reply the server refuses (the thread was locked meanwhile) keeps its text as a draft', async () => {
    const title = 'Hvornår tømmes storskraldsrummet?'
    const { id } = await threadOf(title)
    await journey('a reply the server refuses keeps its text as a draft', async (_context, page) => {
      const t = tr(NEIGHBOUR)
      // No live stream on this device (a proxy that holds it back, decision 0086): the lock below
      // does not reach the page before the reply is sent, so the server is the one to refuse it.
      await page.route('**/api/live', (route) => route.abort())
      await signIn(page, NEIGHBOUR)
      await page.goto(`/forum/thread/${id}`)
      await page.getByRole('heading', { name: title, level: 1 }).waitFor()
      await page.getByLabel(t('Your reply'), { exact: true }).fill('Kan jeg nå det endnu?')
      await expect.poll(() => storedDraft(page, id)).toBe('Kan jeg nå det endnu?')
      // Locked by the board while the page still shows the thread open: the reply is refused.
      await moderateAs(BOARD, id, 'LOCK')
      await page.getByRole('button', { name: t('Send reply') }).click()
      await expect.poll(() => thread(id)?.locked_at ?? null).not.toBeNull()
      await page.getByText(t('This thread is locked: no new replies.')).first().waitFor()
      expect(replies(id)).toHaveLength(0)
      // Unlocked again: what was typed is back in the draft, after a reload too.
      await moderateAs(BOARD, id, 'UNLOCK')
      await expect.poll(() => storedDraft(page, id)).toBe('Kan jeg nå det endnu?')
      await page.reload()
      await expect.poll(async () => await page.getByLabel(t('Your reply'), { exact: true }).inputValue()).toBe('Kan jeg nå det endnu?')
      await page.getByLabel(t('Your reply'), { exact: true }).fill('')
      await expect.poll(() => storedDraft(page, id)).toBeNull()
    })
    expect(replies(id)).toHaveLength(0)
  })

  it('the board locks a reported thread and finds the report; a reply to the locked thread is refused', async () => {
    const title = 'Må man grille på altanen?'
    const opening = 'Naboen griller hver aften, og røgen kommer ind hos os.'
    const reason = 'Reported for the board to look at.'
    const { id, postId } = await threadOf(title, opening)
    await replyAs(NEIGHBOUR, id, 'Det står i husordenen.')
    await api(await tokenOf(NEIGHBOUR), 'POST', `/forum/posts/${postId}/report`, { reason })

    await journey('the board locks the thread', async (_context, page) => {
      const t = tr(BOARD)
      await signIn(page, BOARD)
      await page.goto(`/forum/thread/${id}`)
      await page.getByRole('heading', { name: t('Moderation') }).waitFor()
      await page.getByRole('button', { name: t('Lock thread') }).click()
      await expect.poll(() => thread(id)?.locked_at ?? null).not.toBeNull()
      await page.getByRole('button', { name: t('Unlock') }).waitFor()
      await page
        .locator('.alert')
        .filter({ hasText: t('This thread is locked: no new replies.') })
        .waitFor()
      await checkScreen(page, 'forum-thread-moderator')
      await page.goto('/forum/reports')
      // The reported post's text, and a link to it in its thread.
      const report = page.locator('li.forum-post').filter({ hasText: reason })
      await report.locator('.forum-report-excerpt').filter({ hasText: opening }).waitFor()
      await checkScreen(page, 'forum-reports')
      await report.getByRole('link', { name: t('Open the post') }).click()
      await page.getByRole('heading', { name: title, level: 1 }).waitFor()
      expect(new URL(page.url()).hash).toMatch(/^#post-/)
    })

    await journey('a reply to the locked thread is refused', async (_context, page) => {
      const t = tr(NEIGHBOUR)
      await signIn(page, NEIGHBOUR)
      await page.goto(`/forum/thread/${id}`)
      await page
        .locator('.alert')
        .filter({ hasText: t('This thread is locked: no new replies.') })
        .waitFor()
      expect(await page.getByLabel(t('Your reply'), { exact: true }).count()).toBe(0)
      expect(await replyFromPage(page, id, 'da')).toEqual([422, 'Tråden er låst: der kan ikke svares mere.'])
      expect(await replyFromPage(page, id, 'en')).toEqual([422, 'This thread is locked: no new replies.'])
    })
    expect(replies(id)).toHaveLength(1)
  })

  it('a resident of another association neither lists nor opens a thread', async () => {
    const title = 'Hvem passer blomsterne i gården?'
    const { id } = await threadOf(title)
    const outsider = 'beboer12@solgaarden.dk'
    residentOfHavnehuset(outsider, 9036)
    await journey('another association', async (_context, page) => {
      const t = tr(outsider)
      await signIn(page, outsider)
      await page.goto('/forum')
      await page.getByRole('heading', { name: t('Forum'), level: 1 }).waitFor()
      await page.getByText(t('No threads yet')).waitFor()
      expect(await page.getByRole('link', { name: title }).count()).toBe(0)
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
