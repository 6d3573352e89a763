import { and, asc, desc, eq, gt, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm'
import { engineOf, type Db } from '../../db/client'
import { articleAttachments, articles } from '../../db/schema/knowledge'
import { statement } from '../../db/statement'

export type ArticleRow = typeof articles.$inferSelect
export type AttachmentRow = typeof articleAttachments.$inferSelect
export type ArticlePageKey = [createdAt: string, id: string]
/** A search page's key: the score (a small integer, higher is better), the creation time and the id. */
export type SearchPageKey = [score: number, createdAt: string, id: string]

/** The articles a caller reads: the platform's always, and those of these associations (or of all: the super admin). */
export interface ArticleScope {
  all?: boolean
  companyIds: string[]
}

function visible(scope: ArticleScope): SQL | undefined {
  if (scope.all) return undefined
  return scope.companyIds.length ? or(isNull(articles.companyId), inArray(articles.companyId, scope.companyIds))! : isNull(articles.companyId)
}

/** A list row: the article without its body (the excerpt is the start of its text). */
const summary = {
  id: articles.id,
  companyId: articles.companyId,
  language: articles.language,
  title: articles.title,
  tags: articles.tags,
  excerpt: sql<string>`substr(${articles.bodyText}, 1, 240)`,
  createdAt: articles.createdAt,
  updatedAt: articles.updatedAt,
}
export type SummaryRow = {
  id: string
  companyId: string | null
  language: 'en' | 'da'
  title: string
  tags: string
  excerpt: string
  updatedAt: string
  createdAt?: string
}

/** What a word found in a column adds to an article's score: the title most, then the tags, then the body. */
export const SEARCH_WEIGHTS = { title: 10, tags: 5, body: 1 } as const

/**
 * The search (decision 0065): SQLite's FTS5 index and PostgreSQL's GIN index over the stored
 * `search_vector` find the articles that have every word (or a word starting so). The score is the
 * row's own: for each word, 10 if the title has it, 5 if the tags do, 1 if the body does. No
 * platform-wide statistics (bm25, ts_rank's lengths) go in, so another association's articles
 * change neither a caller's order nor the page key, and the key (score, created_at, id) is stable.
 * The query is bound parameters made of letters and digits only (`searchWords`), never SQL text.
 */
const searchStatement = statement<
  {
    match: string
    terms: string
    all: number
    companies: string
    language: string | null
    afterScore: number | null
    afterCreated: string | null
    afterId: string | null
    limit: number
  },
  SummaryRow & { score: number }
>(({ engine, jsonValues }) => {
  const visibleTo = `(CAST(@all AS integer) = 1 OR a.company_id IS NULL OR a.company_id IN (SELECT c.value FROM ${jsonValues('@companies', 'c')}))`
  const hits =
    engine === 'sqlite' ?
      `WITH terms AS (SELECT json_extract(t.value, '$[0]') AS weight, json_extract(t.value, '$[1]') AS q FROM json_each(@terms) t),
            scores AS (SELECT g.rowid AS rid, sum(terms.weight) AS score FROM terms CROSS JOIN articles_fts g WHERE g.articles_fts MATCH terms.q GROUP BY g.rowid)
       SELECT a.id, a.company_id, a.language, a.title, a.tags, substr(a.body_text, 1, 240) AS excerpt, a.created_at, a.updated_at, coalesce(s.score, 0) AS score
         FROM articles_fts JOIN articles a ON a.rowid = articles_fts.rowid LEFT JOIN scores s ON s.rid = a.rowid
        WHERE articles_fts MATCH @match AND ${visibleTo} AND (@language IS NULL OR a.language = @language)`
    : `SELECT a.id, a.company_id, a.language, a.title, a.tags, substr(a.body_text, 1, 240) AS excerpt, a.created_at, a.updated_at,
              (SELECT coalesce(sum(t.weight), 0) FROM json_to_recordset(CAST(@terms AS json)) AS t(weight int, word text, label text)
                WHERE a.search_vector @@ to_tsquery('simple', article_fold(t.word) || ':*' || t.label)) AS score
         FROM articles a, to_tsquery('simple', article_fold(@match)) AS q(query)
        WHERE a.search_vector @@ q.query AND ${visibleTo} AND (CAST(@language AS text) IS NULL OR a.language = @language)`
  return `SELECT id, company_id AS "companyId", language, title, tags, excerpt, created_at AS "createdAt", updated_at AS "updatedAt", CAST(score AS integer) AS score
            FROM (${hits}) h
           WHERE (CAST(@afterScore AS integer) IS NULL OR score < @afterScore
                  OR (score = @afterScore AND (created_at < @afterCreated OR (created_at = @afterCreated AND id < @afterId))))
           ORDER BY score DESC, created_at DESC, id DESC LIMIT @limit`
})

/** The search words as each engine's query: every word, also as the start of a longer one. */
const matchOf = (words: string[], engine: 'sqlite' | 'postgres') =>
  engine === 'sqlite' ? words.map((w) => `"${w}"*`).join(' ') : words.map((w) => `${w}:*`).join(' & ')

/** The score's terms: each word in each column with its weight (FTS5 column filters; tsquery weight labels A, B, C). */
const termsOf = (words: string[], engine: 'sqlite' | 'postgres') =>
  JSON.stringify(
    words.flatMap((w): unknown[] =>
      engine === 'sqlite' ?
        [
          [SEARCH_WEIGHTS.title, `title : "${w}"*`],
          [SEARCH_WEIGHTS.tags, `tags : "${w}"*`],
          [SEARCH_WEIGHTS.body, `body_text : "${w}"*`],
        ]
      : [
          { weight: SEARCH_WEIGHTS.title, word: w, label: 'A' },
          { weight: SEARCH_WEIGHTS.tags, word: w, label: 'B' },
          { weight: SEARCH_WEIGHTS.body, word: w, label: 'C' },
        ],
    ),
  )

export const articlesRepository = {
  /** The bytes of the attachments of the company's own articles (its storage quota, docs/decisions/0082): one statement. */
  storedBytes: async (db: Db, companyId: string): Promise<number> =>
    (
      await db
        .select({ n: sql<number>`coalesce(sum(${articleAttachments.size}), 0)`.mapWith(Number) })
        .from(articleAttachments)
        .innerJoin(articles, eq(articles.id, articleAttachments.articleId))
        .where(eq(articles.companyId, companyId))
        .get()
    )?.n ?? 0,

  byId: async (db: Db, id: string): Promise<ArticleRow | undefined> => await db.select().from(articles).where(eq(articles.id, id)).get(),

  attachmentsOf: async (db: Db, articleIds: string[]): Promise<AttachmentRow[]> =>
    articleIds.length === 0 ?
      []
    : await db
        .select()
        .from(articleAttachments)
        .where(inArray(articleAttachments.articleId, articleIds))
        .orderBy(asc(articleAttachments.createdAt), asc(articleAttachments.id))
        .all(),

  attachment: async (db: Db, articleId: string, id: string): Promise<AttachmentRow | undefined> =>
    await db
      .select()
      .from(articleAttachments)
      .where(and(eq(articleAttachments.articleId, articleId), eq(articleAttachments.id, id)))
      .get(),

  /**
   * A page of the scope's articles, newest first. `company_id IS NULL OR company_id IN (…)` cannot
   * take its order from the index (company_id, created_at, id), so each association's page and the
   * platform's are read on their own (one indexed, limited read each: a member has an association
   * or two) and merged; the super admin's (every association) is one read.
   */
  listPage: async (db: Db, scope: ArticleScope, language: string | undefined, after: ArticlePageKey | undefined, limit: number): Promise<SummaryRow[]> => {
    const page = async (where: SQL | undefined) =>
      await db
        .select(summary)
        .from(articles)
        .where(
          and(
            where,
            language ? eq(articles.language, language as ArticleRow['language']) : undefined,
            after ? or(lt(articles.createdAt, after[0]), and(eq(articles.createdAt, after[0]), lt(articles.id, after[1]))) : undefined,
          ),
        )
        .orderBy(desc(articles.createdAt), desc(articles.id))
        .limit(limit)
        .all()
    if (scope.all) return await page(undefined)
    const parts = [await page(isNull(articles.companyId))]
    for (const companyId of scope.companyIds) parts.push(await page(eq(articles.companyId, companyId)))
    return parts
      .flat()
      .sort((a, b) =>
        a.createdAt! < b.createdAt! ? 1
        : a.createdAt! > b.createdAt! ? -1
        : a.id < b.id ? 1
        : a.id > b.id ? -1
        : 0,
      )
      .slice(0, limit)
  },

  /** A page of the scope's articles that have every word, best first. */
  searchPage: async (db: Db, scope: ArticleScope, words: string[], language: string | undefined, after: SearchPageKey | undefined, limit: number) => {
    const engine = engineOf(db) ? 'postgres' : 'sqlite'
    return await searchStatement.all(db, {
      match: matchOf(words, engine),
      terms: termsOf(words, engine),
      all: scope.all ? 1 : 0,
      companies: JSON.stringify(scope.companyIds),
      language: language ?? null,
      afterScore: after ? after[0] : null,
      afterCreated: after ? after[1] : null,
      afterId: after ? after[2] : null,
      limit,
    })
  },

  /** Sync's snapshot: the scope's articles after `afterId`, in id order. */
  syncPage: async (db: Db, scope: ArticleScope, afterId: string | null, limit: number) =>
    await db
      .select()
      .from(articles)
      .where(and(visible(scope), afterId ? gt(articles.id, afterId) : undefined))
      .orderBy(asc(articles.id))
      .limit(limit)
      .all(),

  byIds: async (db: Db, scope: ArticleScope, ids: string[]) =>
    ids.length === 0 ?
      []
    : await db
        .select()
        .from(articles)
        .where(and(inArray(articles.id, ids), visible(scope)))
        .all(),

  insert: async (db: Db, row: typeof articles.$inferInsert) => void (await db.insert(articles).values(row).run()),

  update: async (db: Db, id: string, fields: Partial<typeof articles.$inferInsert>) =>
    void (await db
      .update(articles)
      .set({ ...fields, version: sql`${articles.version} + 1` })
      .where(eq(articles.id, id))
      .run()),

  /** An attachment added or removed: a new updated_at, the same version (a queued edit's If-Match stays valid; the text is unchanged). */
  touch: async (db: Db, id: string, updatedAt: string) => void (await db.update(articles).set({ updatedAt }).where(eq(articles.id, id)).run()),

  delete: async (db: Db, id: string) => void (await db.delete(articles).where(eq(articles.id, id)).run()),

  insertAttachment: async (db: Db, row: typeof articleAttachments.$inferInsert) => void (await db.insert(articleAttachments).values(row).run()),

  deleteAttachment: async (db: Db, id: string) => void (await db.delete(articleAttachments).where(eq(articleAttachments.id, id)).run()),

  countAttachments: async (db: Db, articleId: string): Promise<number> =>
    (
      await db
        .select({ n: sql<number>`count(*)` })
        .from(articleAttachments)
        .where(eq(articleAttachments.articleId, articleId))
        .get()
    )?.n ?? 0,

  /** Of these file ids, those an attachment still refers to (the sweep). */
  attachmentIds: async (db: Db, ids: string[]): Promise<Set<string>> =>
    new Set(
      ids.length === 0 ?
        []
      : (await db.select({ id: articleAttachments.id }).from(articleAttachments).where(inArray(articleAttachments.id, ids)).all()).map((r) => r.id),
    ),
}
