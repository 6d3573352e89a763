/**
 * The knowledge bank and linked specialists (decision 0065): a staff member of Solgården (the treasurer,
 * in Danish) writes an article with a Danish word only in its body and attaches a file; a resident
 * (in Danish) searches for that word and finds it, online and then offline on the device's copy; a
 * resident of Havnehuset searching the same word finds nothing and the article's address is 404 for
 * them; the platform's guide is there for both. The specialists are listed with tel:/mailto: links
 * and filtered by kind, and the treasurer adds one (a bad phone number is refused first). The
 * screens are axe-clean and fit 375 px (screenshots under test-results/).
 *
 * Each test starts from its own state: the article a resident searches for is written through the
 * API (with its attachment) rather than by the test before, so no test waits on another.
 */
import { describe, expect, it } from 'vitest'
import type { BrowserContext, Page } from 'playwright-core'
import { checkScreen, journeySuite, signIn } from './journeys'

const { journey, serverRows, tr, residentOfHavnehuset, suite, api, tokenOf } = journeySuite('knowledge', 35)
const STAFF = 'kasserer@solgaarden.dk'
const RESIDENT = 'beboer05@solgaarden.dk'

const TITLE = 'Affald og genbrug'
const WORD = 'storskrald'
const PLATFORM_DA = 'Sådan fungerer aftaler med Vipps MobilePay'
/** A small real PDF. */
const PDF = Buffer.from('%PDF-1.4\n% Affaldsregler\n%%EOF\n')

const article = (title = TITLE) =>
  serverRows<{ id: string; title: string; body: string; body_text: string }>('SELECT id, title, body, body_text FROM articles WHERE title = ?', title)[0]

/**
 * An article of the demo association in Danish, written by the treasurer through the API with a
 * Danish word only in its body, and the PDF attached: its id.
 */
async function articleOf(title: string, word: string): Promise<string> {
  const token = await tokenOf(STAFF)
  const companyId = serverRows<{ id: string }>("SELECT id FROM companies WHERE cvr = '10150817'")[0]!.id
  const { id } = await api<{ id: string }>(token, 'POST', '/articles', {
    companyId,
    language: 'da',
    title,
    body: `<p>Affaldssortering i gården: <b>${word}</b> stilles ved containeren den første mandag i måneden.</p>`,
    tags: ['Affald'],
  })
  const form = new FormData()
  form.set('file', new File([PDF], 'Affaldsregler.pdf', { type: 'application/pdf' }))
  const res = await fetch(`${suite.server.url}/api/articles/${id}/attachments`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: form })
  expect(res.status, await res.text()).toBe(200)
  return id
}

describe('knowledge bank', () => {
  it('staff write an article: told what is missing, its markup cleaned, a file attached', async () => {
    let id = ''
    await journey('the treasurer writes an article with an attachment', async (_context: BrowserContext, page: Page) => {
      const t = tr(STAFF)
      await signIn(page, STAFF)
      await page.getByRole('link', { name: t('Articles'), exact: true }).click()
      await page.getByRole('heading', { name: t('Articles'), level: 1 }).waitFor()
      await page.getByRole('link', { name: t('New article') }).click()
      await page.getByRole('heading', { name: t('New article'), level: 1 }).waitFor()
      // Sent empty: what is missing, in the user's language.
      await page.getByRole('button', { name: t('Publish article') }).click()
      await page.getByText(t('Please enter a title')).waitFor()
      await page.getByText(t('Please write the article')).waitFor()
      await checkScreen(page, 'knowledge-form-errors')
      await page.getByLabel(t('Title'), { exact: true }).fill(TITLE)
      await page
        .getByLabel(t('Text'), { exact: true })
        .fill(
          `<p>Affaldssortering i gården: <b>${WORD}</b> stilles ved containeren den første mandag i måneden.</p>\n<p>Pap og papir i den blå container.</p><script>alert(1)</script>`,
        )
      await page.getByLabel(t('Tags'), { exact: true }).fill('Affald, genbrug')
      await page.getByRole('button', { name: t('Publish article') }).click()
      await page.getByRole('heading', { name: TITLE, level: 1 }).waitFor()
      id = page.url().split('/articles/')[1]!
      await page.locator('.article-body b', { hasText: WORD }).waitFor()
      await checkScreen(page, 'knowledge-article-staff')
      await page.getByRole('link', { name: t('Edit article') }).click()
      await page.getByLabel(t('Add a file'), { exact: true }).setInputFiles({ name: 'Affaldsregler.pdf', mimeType: 'application/pdf', buffer: PDF })
      await page.getByRole('button', { name: t('Add attachment') }).click()
      await page.locator('.article-attachment-row', { hasText: 'Affaldsregler.pdf' }).waitFor()
      await checkScreen(page, 'knowledge-edit-staff')
    })
    const saved = article()!
    expect(saved.body).not.toContain('script')
    expect(saved.body_text).toContain(WORD)
    expect(saved.title.toLowerCase()).not.toContain(WORD)
    expect(serverRows('SELECT file_name FROM article_attachments WHERE article_id = ?', id)).toEqual([{ file_name: 'Affaldsregler.pdf' }])
  })

  it('a resident finds an article by a Danish word in its body, online and then offline on the device’s copy', async () => {
    const title = 'Storskrald og pap'
    const word = 'haveaffald'
    await articleOf(title, word)
    await journey('a resident finds it by a word in its body, online and offline', async (context, page) => {
      const t = tr(RESIDENT)
      await signIn(page, RESIDENT)
      await page.getByRole('link', { name: t('Articles'), exact: true }).click()
      await page.getByRole('link', { name: PLATFORM_DA }).waitFor()
      await page.getByRole('link', { name: title }).waitFor()
      await checkScreen(page, 'knowledge-list-resident')
      await page.getByRole('searchbox', { name: t('Search articles') }).fill(word)
      await page.getByRole('button', { name: t('Search'), exact: true }).click()
      await page.getByText(t('Articles matching “{q}”:').replace('{q}', word)).waitFor()
      await expect.poll(() => page.locator('.article-card-title').allTextContents()).toEqual([title])
      await checkScreen(page, 'knowledge-search-resident')
      await page.getByRole('link', { name: title }).click()
      await page.getByRole('heading', { name: title, level: 1 }).waitFor()
      await page.getByRole('button', { name: 'Affaldsregler.pdf' }).waitFor()
      await checkScreen(page, 'knowledge-article-resident')
      expect(await page.getByRole('link', { name: t('Edit article') }).count()).toBe(0)

      // Offline: the device's copy is searched, and the page says so.
      await page.getByRole('link', { name: t('← Back to the articles') }).click()
      await context.setOffline(true)
      await page.getByRole('searchbox', { name: t('Search articles') }).fill(word)
      await page.getByRole('button', { name: t('Search'), exact: true }).click()
      await page.getByText(t('You are offline: this searches the copy on this device.')).waitFor()
      await expect.poll(() => page.locator('.article-card-title').allTextContents()).toEqual([title])
      await checkScreen(page, 'knowledge-search-offline')
      await context.setOffline(false)
    })
  })

  it('a resident of another association finds nothing by that word, and the article is 404 for them', async () => {
    const title = 'Vaskeriets åbningstider'
    const word = 'tørretumbler'
    const id = await articleOf(title, word)
    const outsider = 'beboer12@solgaarden.dk'
    residentOfHavnehuset(outsider, 9003)
    await journey('another association finds nothing, and the article is 404', async (_context, page) => {
      const t = tr(outsider)
      await signIn(page, outsider)
      await page.goto(`/articles?q=${word}`)
      await page.getByText(t('No articles match “{q}”.').replace('{q}', word)).waitFor()
      await page.goto('/articles')
      await page.getByRole('link', { name: 'How Vipps MobilePay agreements work' }).waitFor()
      expect(await page.getByRole('link', { name: title }).count()).toBe(0)
      await page.goto(`/articles/${id}`)
      await page.getByText(t('Article not found.')).first().waitFor()
      const status = await page.evaluate(
        async ([articleId, q]) => {
          const token = JSON.parse(localStorage.getItem('boligkasse.session')!).token as string
          const headers = { Authorization: `Bearer ${token}` }
          const found = (await (await fetch(`/api/articles?q=${encodeURIComponent(q!)}`, { headers })).json()) as unknown[]
          return [(await fetch(`/api/articles/${articleId}`, { headers })).status, found.length]
        },
        [id, word],
      )
      expect(status).toEqual([404, 0])
    })
  })

  it('specialists are listed with tel: and mailto: links and filtered by kind; the treasurer adds one; a resident reads them', async () => {
    await journey('specialists: listed, filtered, called; the treasurer adds one', async (_context, page) => {
      const t = tr(STAFF)
      await signIn(page, STAFF)
      await page.getByRole('link', { name: t('Specialists'), exact: true }).click()
      await page.getByRole('heading', { name: 'Henrik Mortensen' }).waitFor()
      expect(await page.getByRole('link', { name: '+45 33 12 45 67' }).getAttribute('href')).toBe('tel:+4533124567')
      expect(await page.getByRole('link', { name: 'kontakt@mortensens-vvs.dk' }).getAttribute('href')).toBe('mailto:kontakt@mortensens-vvs.dk')
      await checkScreen(page, 'knowledge-specialists')
      await page.getByRole('button', { name: t('Electrician'), exact: true }).click()
      await expect.poll(() => page.locator('.specialist-name').allTextContents()).toEqual(['Camilla Krogh'])
      await page.getByRole('link', { name: t('Add specialist') }).click()
      await page.getByLabel(t('Kind'), { exact: true }).selectOption('LAWYER')
      await page.getByLabel(t('Name'), { exact: true }).fill('Advokat Sørensen')
      await page.getByLabel(t('Phone (optional)'), { exact: true }).fill('ring efter kl. 9')
      await page.getByLabel(t('Website (optional)'), { exact: true }).fill('sorensen-advokat.dk')
      await page.getByRole('button', { name: t('Save specialist') }).click()
      await page.getByText(t('Please enter a valid phone number')).waitFor()
      await checkScreen(page, 'knowledge-specialist-form-errors')
      await page.getByLabel(t('Phone (optional)'), { exact: true }).fill('+45 70 11 22 33')
      await page.getByRole('button', { name: t('Save specialist') }).click()
      await page.getByRole('heading', { name: 'Advokat Sørensen' }).waitFor()
      expect(await page.getByRole('link', { name: 'sorensen-advokat.dk' }).getAttribute('href')).toBe('https://sorensen-advokat.dk')
    })
    expect(serverRows('SELECT kind, phone FROM specialists WHERE name = ?', 'Advokat Sørensen')).toEqual([{ kind: 'LAWYER', phone: '+45 70 11 22 33' }])

    await journey('a resident reads the specialists', async (_context, page) => {
      const t = tr(RESIDENT)
      await signIn(page, RESIDENT)
      await page.goto('/specialists')
      await page.getByRole('heading', { name: 'Advokat Sørensen' }).waitFor()
      expect(await page.getByRole('link', { name: t('Add specialist') }).count()).toBe(0)
      expect(await page.getByRole('link', { name: t('Edit') }).count()).toBe(0)
    })
  })
})
