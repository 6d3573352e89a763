/**
 * The search index follows the articles table (decision 0065, "The search index's key"): SQLite's
 * FTS5 table is keyed on articles.rowid and kept in step by triggers, PostgreSQL's vector is a
 * stored generated column. A migration that rebuilt the table (drizzle does so for some changes)
 * would renumber rowids and drop the triggers, and the search would answer other articles: this
 * test fails then.
 */
import { describe, expect, it } from 'vitest'
import { engineOf } from '../../db/client'
import { statement } from '../../db/statement'
import { demo, testApp } from '../../test/harness'
import { documentFixtures } from '../documents/test-helpers'
import { createArticle, searchTitles } from './test-helpers'

const triggers = statement<[], { name: string }>(({ engine }) =>
  engine === 'sqlite' ?
    `SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'articles' ORDER BY name`
  : `SELECT 'search_vector' AS name FROM information_schema.columns WHERE table_name = 'articles' AND column_name = 'search_vector' AND is_generated = 'ALWAYS'
     UNION ALL SELECT indexname FROM pg_indexes WHERE tablename = 'articles' AND indexname = 'articles_search' AND indexdef LIKE '%gin (search_vector)%'`,
)
/** FTS5's own check that the index holds exactly the content table's rows (rank 1: against the table). */
const integrityCheck = statement<[], never>(({ engine }) =>
  engine === 'sqlite' ? `INSERT INTO articles_fts(articles_fts, rank) VALUES ('integrity-check', 1)` : `SELECT 1`,
)
/** Each article's title as a phrase finds that article (the key joins the right row). */
const ownTitleMisses = statement<[], { id: string }>(({ engine }) =>
  engine === 'sqlite' ?
    `SELECT a.id FROM articles a WHERE NOT EXISTS (
       SELECT 1 FROM articles_fts f WHERE f.articles_fts MATCH '"' || replace(a.title, '"', '') || '"' AND f.rowid = a.rowid)
     OR (SELECT count(*) FROM articles_fts) <> (SELECT count(*) FROM articles)`
  : `SELECT a.id FROM articles a WHERE a.search_vector IS DISTINCT FROM article_search_vector(a.title, a.body_text, a.tags)
       OR NOT a.search_vector @@ plainto_tsquery('simple', article_fold(a.title))`,
)

describe('the articles’ search index', () => {
  it('exists after the migrations and matches the table after writes, edits and deletes', async () => {
    const t = await testApp()
    const f = await documentFixtures(t)
    const superadmin = await t.login(demo.superadmin)
    const ids: string[] = []
    for (let i = 0; i < 6; i++)
      ids.push((await createArticle(t, f.admin, { companyId: f.main, language: 'da', title: `Opslag nummer ${i}`, body: `<p>Tekst ${i}</p>` })).json.id)
    await createArticle(t, superadmin, { language: 'en', title: 'Platform "guide"', body: '<p>For everyone</p>' })
    await t.call('DELETE', `/articles/${ids[1]}`, { token: f.admin })
    await t.call('PATCH', `/articles/${ids[2]}`, { token: f.admin, body: { title: 'Nyt navn' }, headers: { 'If-Match': '"1"' } })

    const names = (await triggers.all(t.db, [])).map((r) => r.name)
    expect(names).toEqual(engineOf(t.db) ? ['search_vector', 'articles_search'] : ['articles_fts_delete', 'articles_fts_insert', 'articles_fts_update'])
    await integrityCheck.run(t.db, [])
    expect(await ownTitleMisses.all(t.db, [])).toEqual([])
    expect(await searchTitles(t, f.admin, 'nummer')).toHaveLength(4)
    expect(await searchTitles(t, f.admin, 'nyt navn')).toEqual(['Nyt navn'])
  })
})
