/**
 * The search table (docs/decisions/0085) against the server: each Danish query finds what it must,
 * and in the order the shared ranking gives offline. `npm run test:pg` runs it on PostgreSQL.
 */
import { count, eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { htmlText } from '../../../shared/contract/articles'
import { rankDocuments } from '../../../shared/domain/search'
import { caseProblems, searchArticles, searchCases } from '../../../shared/domain/search/search-cases.fixture'
import { articleSearchGrams } from '../../db/schema/knowledge'
import { demo, testApp, type TestApp } from '../../test/harness'
import { statementsRun } from '../../test/paging'
import { documentFixtures } from '../documents/test-helpers'
import { createArticle, searchTitles } from './test-helpers'

describe('the search table on the server', () => {
  let t: TestApp
  let resident: string
  /** Title → fixture key; and the fixture's reader articles as the server stored them (for the shared ranking). */
  const keyOf = new Map(searchArticles.map((a) => [a.title, a.key]))
  const stored: { key: string; id: string; title: string; tags: string[]; text: string; createdAt: string; language: string }[] = []

  beforeAll(async () => {
    t = await testApp()
    const f = await documentFixtures(t)
    resident = await t.login(demo.resident)
    const writers = { main: f.admin, platform: await t.login(demo.superadmin), other: await t.login(demo.otherAdmin) }
    for (const a of searchArticles) {
      t.clock.advance(60_000)
      const res = await createArticle(t, writers[a.owner], {
        ...(a.owner === 'platform' ? {} : { companyId: a.owner === 'main' ? f.main : f.second }),
        language: a.language,
        title: a.title,
        tags: a.tags,
        body: a.body,
      })
      expect(res.status, JSON.stringify(res.json)).toBe(201)
      if (a.owner !== 'other')
        stored.push({
          key: a.key,
          id: res.json.id,
          title: a.title,
          tags: res.json.tags,
          text: htmlText(res.json.body),
          createdAt: res.json.createdAt,
          language: a.language,
        })
    }
  })

  it('answers every query of the table, in the order of the shared ranking the device uses', async () => {
    const problems: string[] = []
    for (const c of searchCases) {
      const found = (await searchTitles(t, resident, c.q, c.language ? `&language=${c.language}` : '')).map((title) => keyOf.get(title)!)
      problems.push(...caseProblems(c, found))
      const offline = rankDocuments(
        stored.filter((a) => !c.language || a.language === c.language),
        c.q,
      ).map((h) => h.doc.key)
      if (found.join() !== offline.join()) problems.push(`${JSON.stringify(c.q)}: online ${found.join(', ')} ≠ offline ${offline.join(', ')}`)
    }
    expect(problems).toEqual([])
    expect(searchCases.length).toBeGreaterThanOrEqual(30)
  })

  it('pages the ranked hits with the same order as one page', async () => {
    const whole = await searchTitles(t, resident, 'gården')
    const seen: string[] = []
    let url: string | null = `/articles?q=${encodeURIComponent('gården')}&limit=1`
    while (url) {
      const res = await t.call('GET', url, { token: resident })
      expect(res.status).toBe(200)
      seen.push(...(res.json as { title: string }[]).map((a) => a.title))
      url = res.headers.get('link')?.match(/<\/api([^>]+)>/)?.[1] ?? null
    }
    expect(seen).toEqual(whole)
    expect(whole.length).toBeGreaterThan(2)
  })

  it('searches set-based: the same statements for a query with 1 hit and one with 4', async () => {
    const one = await statementsRun(t, () => searchTitles(t, resident, 'grill'))
    const four = await statementsRun(t, () => searchTitles(t, resident, 'gården'))
    expect(four).toBe(one)
  })

  it('writes the grams of articles stored without them (the index job), once', async () => {
    const laundry = stored.find((a) => a.key === 'laundry')!
    await t.db.delete(articleSearchGrams).where(eq(articleSearchGrams.articleId, laundry.id)).run()
    expect(await searchTitles(t, resident, 'vaskeriet')).toEqual(['Tørretumbler ude af drift'])
    const services = t.services
    expect(await services.articles.indexMissing()).toBe(1)
    expect(await services.articles.indexMissing()).toBe(0)
    expect(await searchTitles(t, resident, 'vaskeriet')).toEqual(['Vaskeriet', 'Tørretumbler ude af drift'])
    const rows = await t.db.select({ n: count() }).from(articleSearchGrams).where(eq(articleSearchGrams.articleId, laundry.id)).get()
    expect(Number(rows?.n)).toBeGreaterThan(50)
  })
})
