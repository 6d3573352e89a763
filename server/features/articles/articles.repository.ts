import { and, asc, desc, eq, gt, inArray, isNull, lt, notExists, or, sql, type SQL } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { articleAttachments, articleSearchGrams as grams, articles } from '../../db/schema/knowledge'

export type ArticleRow = typeof articles.$inferSelect
export type AttachmentRow = typeof articleAttachments.$inferSelect
export type ArticlePageKey = [createdAt: string, id: string]

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

/** A search candidate as the ranking reads it (shared/domain/search), with what a hit's summary shows. */
export type CandidateRow = Omit<ArticleRow, 'body' | 'authorUserId' | 'authorName' | 'version'>

/** Rows a statement inserts at once: three values each, well within either engine's limit on bound values. */
const GRAM_ROWS_PER_INSERT = 500

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

  /**
   * The search's candidates (decision 0085): the scope's articles that share the most of these
   * grams, at most `limit`, most shared first, then the newest (ids are UUIDv7: in time order), as
   * the ranking breaks its ties. One statement on the index
   * (gram, company_id, article_id); the articles table is read only to narrow by language.
   */
  candidateIds: async (db: Db, scope: ArticleScope, queryGrams: string[], language: string | undefined, limit: number): Promise<string[]> => {
    if (queryGrams.length === 0) return []
    const shared = sql<number>`count(*)`.mapWith(Number)
    const rows = await db
      .select({ id: grams.articleId, shared })
      .from(grams)
      .where(
        and(
          inArray(grams.gram, queryGrams),
          scope.all ? undefined
          : scope.companyIds.length ? or(isNull(grams.companyId), inArray(grams.companyId, scope.companyIds))
          : isNull(grams.companyId),
          language ?
            inArray(
              grams.articleId,
              db
                .select({ id: articles.id })
                .from(articles)
                .where(eq(articles.language, language as ArticleRow['language'])),
            )
          : undefined,
        ),
      )
      .groupBy(grams.articleId)
      .orderBy(desc(shared), desc(grams.articleId))
      .limit(limit)
      .all()
    return rows.map((r) => r.id)
  },

  /** The candidates' rows for the ranking: one statement. */
  candidates: async (db: Db, ids: string[]): Promise<CandidateRow[]> =>
    ids.length === 0 ?
      []
    : await db
        .select({
          id: articles.id,
          companyId: articles.companyId,
          language: articles.language,
          title: articles.title,
          bodyText: articles.bodyText,
          tags: articles.tags,
          createdAt: articles.createdAt,
          updatedAt: articles.updatedAt,
        })
        .from(articles)
        .where(inArray(articles.id, ids))
        .all(),

  /** Replaces the article's grams (in the transaction that writes the article). */
  writeGrams: async (db: Db, articleId: string, companyId: string | null, articleGrams: string[]) => {
    await db.delete(grams).where(eq(grams.articleId, articleId)).run()
    for (let i = 0; i < articleGrams.length; i += GRAM_ROWS_PER_INSERT)
      await db
        .insert(grams)
        .values(articleGrams.slice(i, i + GRAM_ROWS_PER_INSERT).map((gram) => ({ articleId, companyId, gram })))
        .run()
  },

  deleteGrams: async (db: Db, articleId: string) => void (await db.delete(grams).where(eq(grams.articleId, articleId)).run()),

  /** Articles without this mark among their grams (written before the index, or with an older folding), oldest id first. */
  unindexed: async (db: Db, mark: string, limit: number) =>
    await db
      .select({ id: articles.id, companyId: articles.companyId, title: articles.title, bodyText: articles.bodyText, tags: articles.tags })
      .from(articles)
      .where(
        notExists(
          db
            .select({ one: sql`1` })
            .from(grams)
            .where(and(eq(grams.articleId, articles.id), eq(grams.gram, mark))),
        ),
      )
      .orderBy(asc(articles.id))
      .limit(limit)
      .all(),

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
