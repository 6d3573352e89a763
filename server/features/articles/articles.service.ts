import { snapshot, transaction, type Db } from '../../db/client'
import { conflict, forbidden, notFound, ruleViolation, versionConflict } from '../../errors'
import { isoNow, type Clock } from '../../lib/clock'
import { newId, sha256 } from '../../lib/ids'
import { sanitizeHtml } from '../../lib/sanitize-html'
import { decodeCursor, pageOf } from '../../http/paging'
import {
  MAX_ARTICLE_ATTACHMENT_BYTES,
  MAX_ARTICLE_ATTACHMENTS,
  htmlText,
  type Article,
  type ArticleListQuery,
  type ArticleSummary,
  type CreateArticleRequest,
  type UpdateArticleRequest,
} from '../../../shared/contract/articles'
import { messages as m } from '../../../shared/i18n-messages'
import { GRAMS_MARK, documentGrams, queryGrams, queryTerms, rankDocuments } from '../../../shared/domain/search'
import type { Actor } from '../../access/actor'
import { assertCompanyInScope } from '../companies'
import { isSuperAdmin, roleIn } from '../../access/policy'
import type { CompaniesService } from '../companies'
import type { Residency } from '../agreements'
import { acceptUpload, sweepStore, type AttachmentScanner, type AttachmentStore, type StorageQuota } from '../../integrations/files/attachment-store'
import { FILE_SWEEP_GRACE_MS } from '../messages'
import { recordChange } from '../sync'
import type { SyncedEntity } from '../sync'
import { articlesRepository as repo, type ArticleRow, type ArticleScope, type AttachmentRow, type CandidateRow, type SummaryRow } from './articles.repository'

const tagList = (tags: string): string[] => (tags ? tags.split(' ') : [])

const view = (r: ArticleRow, attachments: AttachmentRow[]): Article => ({
  id: r.id,
  companyId: r.companyId,
  language: r.language,
  title: r.title,
  body: r.body,
  tags: tagList(r.tags),
  author: { id: r.authorUserId, fullName: r.authorName },
  attachments: attachments.map((a) => ({ id: a.id, fileName: a.fileName, contentType: a.contentType, size: a.size, createdAt: a.createdAt })),
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
  version: r.version,
})

/** A search ranks at most this many candidates (decision 0085): the reader's articles that share the most of the query's trigrams. */
export const SEARCH_CANDIDATES = 200
/** Articles the index job gives their grams per run (decision 0085). */
const INDEX_BATCH = 200

/** The article as the shared ranking reads it. */
const searchDocument = (r: CandidateRow) => ({ ...r, tags: tagList(r.tags), text: r.bodyText })

/** The grams of an article's text as stored (shared/domain/search). */
const gramsOfRow = (r: Pick<ArticleRow, 'title' | 'bodyText' | 'tags'>) => documentGrams({ title: r.title, tags: tagList(r.tags), text: r.bodyText })

const summaryOf = (r: SummaryRow): ArticleSummary => ({
  id: r.id,
  companyId: r.companyId,
  language: r.language,
  title: r.title,
  tags: tagList(r.tags),
  excerpt: r.excerpt,
  updatedAt: r.updatedAt,
})

export interface ArticlesServiceDeps {
  db: Db
  clock: Clock
  companies: CompaniesService
  residency: Residency
  files: AttachmentStore
  scanner: AttachmentScanner
  /** The association's storage quota, asked by every upload (docs/decisions/0082). */
  quota: StorageQuota
}

/**
 * The knowledge bank (docs/PRODUCT.md "Knowledge bank", decision 0065). An association's
 * articles are written by its staff (every company role) and the super admin, and read by its
 * members (its staff and its residents with a living agreement); another association's article is
 * 404. Platform articles (no association) are written by the super admin and read by every
 * signed-in user. Bodies are sanitized as messages are; search reads titles, bodies' text and tags.
 */
export class ArticlesService {
  constructor(private readonly deps: ArticlesServiceDeps) {}

  private now() {
    return isoNow(this.deps.clock)
  }

  /**
   * The articles the actor reads without naming an association: the platform's and those of the
   * associations they are a member of; the super admin every association's, as the market's scope
   * (their change log holds every association's changes, so their offline copy must too).
   */
  private async scopeOf(actor: Actor): Promise<ArticleScope> {
    if (isSuperAdmin(actor)) return { all: true, companyIds: [] }
    return { companyIds: await this.deps.residency.memberCompanyIds(actor) }
  }

  private async isMember(actor: Actor, companyId: string) {
    return roleIn(actor, companyId) !== undefined || (await this.deps.residency.residentCompanyIds(actor.userId)).includes(companyId)
  }

  /**
   * Throws 403 unless the actor writes articles for `companyId`: the super admin any (and alone the
   * platform's, `null`); an association's staff (every role) its own. The route's `act` too.
   */
  assertMayWrite(actor: Actor, companyId: string | null): void {
    if (isSuperAdmin(actor)) return
    if (companyId === null) throw forbidden(m.articlePlatformOnlySuperAdmin.id)
    if (!roleIn(actor, companyId)) throw forbidden(m.articleNotStaff.id)
  }

  private async mayRead(actor: Actor, row: ArticleRow): Promise<boolean> {
    return row.companyId === null || isSuperAdmin(actor) || (await this.isMember(actor, row.companyId))
  }

  private async readable(actor: Actor, id: string): Promise<ArticleRow> {
    const row = await repo.byId(this.deps.db, id)
    if (!row || !(await this.mayRead(actor, row))) throw notFound(m.articleNotFound.id)
    return row
  }

  /** The super admin any; an association's staff (every role) its own; a member who reads it 403. */
  private async writable(actor: Actor, id: string, version?: number): Promise<ArticleRow> {
    const row = await this.readable(actor, id)
    if (!isSuperAdmin(actor) && (row.companyId === null || !roleIn(actor, row.companyId))) throw forbidden()
    if (version !== undefined && version !== row.version) throw versionConflict(await this.current(id))
    if (row.companyId) await this.deps.companies.assertWritable(row.companyId)
    return row
  }

  /**
   * The change for sync: a platform article for everyone; an association's for its staff and
   * residents (one row for its members).
   */
  private async changed(row: Pick<ArticleRow, 'id' | 'companyId'>, op: 'upsert' | 'delete') {
    if (row.companyId === null) return await recordChange(this.deps.db, this.deps.clock, 'article', row.id, op, { everyone: true })
    await recordChange(this.deps.db, this.deps.clock, 'article', row.id, op, { companyId: row.companyId, members: true })
  }

  private async current(id: string): Promise<Article> {
    return view((await repo.byId(this.deps.db, id))!, await repo.attachmentsOf(this.deps.db, [id]))
  }

  /**
   * A page of articles: with `q` those that have every word (as itself, its start, inside a
   * compound or with a typo: shared/domain/search), best first; without, newest first. The
   * platform's and those of `companyId` (a member's; another association's is 404), or without it
   * of every association the caller is a member of.
   */
  async list(actor: Actor, query: ArticleListQuery): Promise<{ items: ArticleSummary[]; next: string | null }> {
    const q = query.q ?? ''
    return await snapshot(this.deps.db, async () => {
      let scope: ArticleScope
      if (query.companyId) {
        await assertCompanyInScope(this.deps.db, actor, query.companyId)
        if (!isSuperAdmin(actor) && !(await this.isMember(actor, query.companyId))) throw notFound()
        scope = { companyIds: [query.companyId] }
      } else scope = await this.scopeOf(actor)
      if (queryTerms(q).length) return await this.searchPage(scope, query)
      const after = decodeCursor(query.cursor, ['string', 'string'])
      const rows = await repo.listPage(this.deps.db, scope, query.language, after, query.limit + 1)
      const page = pageOf(rows, query.limit, (r) => [r.createdAt!, r.id])
      return { items: page.rows.map(summaryOf), next: page.next }
    })
  }

  /** A page of the ranked hits, keyed (score, created at, id) as they are ordered. */
  private async searchPage(scope: ArticleScope, query: ArticleListQuery): Promise<{ items: ArticleSummary[]; next: string | null }> {
    const after = decodeCursor(query.cursor, ['number', 'string', 'string'])
    const hits = await this.search(scope, query.q ?? '', query.language)
    const past = (h: (typeof hits)[number]) =>
      !after || h.score < after[0] || (h.score === after[0] && (h.doc.createdAt < after[1] || (h.doc.createdAt === after[1] && h.doc.id < after[2])))
    const page = pageOf(hits.filter(past).slice(0, query.limit + 1), query.limit, (h) => [h.score, h.doc.createdAt, h.doc.id])
    return {
      items: page.rows.map((h) => summaryOf({ ...h.doc, tags: h.doc.tags.join(' '), excerpt: [...h.doc.bodyText].slice(0, 240).join('') })),
      next: page.next,
    }
  }

  /**
   * The search (decision 0085): the index proposes the scope's articles that share the most of the
   * query's trigrams (one statement, at most `SEARCH_CANDIDATES`), their rows are read (one more),
   * and the shared ranking, the offline search's too, decides which are hits and their order.
   */
  private async search(scope: ArticleScope, q: string, language: string | undefined) {
    const ids = await repo.candidateIds(this.deps.db, scope, queryGrams(q), language, SEARCH_CANDIDATES)
    return rankDocuments((await repo.candidates(this.deps.db, ids)).map(searchDocument), q)
  }

  /**
   * Writes the grams of articles that have none with the current folding (`GRAMS_MARK`): those
   * stored before the index existed, or all after the folding changed. The module's job runs it;
   * idempotent. Answers how many it indexed (fewer than the batch: none are left).
   */
  async indexMissing(batch = INDEX_BATCH): Promise<number> {
    return await transaction(this.deps.db, async () => {
      const rows = await repo.unindexed(this.deps.db, GRAMS_MARK, batch)
      for (const r of rows) await repo.writeGrams(this.deps.db, r.id, r.companyId, gramsOfRow(r))
      return rows.length
    })
  }

  async view(actor: Actor, id: string): Promise<Article> {
    await this.readable(actor, id)
    return await this.current(id)
  }

  async create(actor: Actor, input: CreateArticleRequest): Promise<Article> {
    const companyId = input.companyId ?? null
    if (input.id) {
      const existing = await repo.byId(this.deps.db, input.id)
      if (existing) {
        if (!(await this.mayRead(actor, existing))) throw notFound(m.articleNotFound.id)
        // The same create sent again (a retry from the outbox) answers the stored one.
        if (existing.authorUserId === actor.userId && existing.companyId === companyId && existing.title === input.title.trim())
          return await this.current(existing.id)
        throw conflict(m.billingRecordExists.id, 'id')
      }
    }
    // Staff know their association; anyone else (the super admin too) hears 404 for one they may not know.
    if (companyId !== null && !roleIn(actor, companyId)) await assertCompanyInScope(this.deps.db, actor, companyId)
    this.assertMayWrite(actor, companyId)
    if (companyId !== null) await this.deps.companies.assertWritable(companyId)
    const body = sanitizeHtml(input.body)
    const at = this.now()
    const row = {
      id: input.id ?? newId(),
      companyId,
      language: input.language,
      title: input.title.trim(),
      body,
      bodyText: htmlText(body),
      tags: (input.tags ?? []).join(' '),
      authorUserId: actor.userId,
      authorName: actor.fullName,
      createdAt: at,
      updatedAt: at,
    }
    await repo.insert(this.deps.db, row)
    await repo.writeGrams(this.deps.db, row.id, companyId, gramsOfRow(row))
    await this.changed(row, 'upsert')
    return await this.current(row.id)
  }

  async update(actor: Actor, id: string, input: UpdateArticleRequest, version?: number): Promise<Article> {
    const row = await this.writable(actor, id, version)
    const body = input.body !== undefined ? sanitizeHtml(input.body) : undefined
    const fields = {
      ...(input.language !== undefined ? { language: input.language } : {}),
      ...(input.title !== undefined ? { title: input.title.trim() } : {}),
      ...(body !== undefined ? { body, bodyText: htmlText(body) } : {}),
      ...(input.tags !== undefined ? { tags: input.tags.join(' ') } : {}),
    }
    if (Object.entries(fields).every(([k, v]) => row[k as keyof typeof fields] === v)) return await this.current(id)
    await repo.update(this.deps.db, id, { ...fields, updatedAt: this.now() })
    if (fields.title !== undefined || fields.bodyText !== undefined || fields.tags !== undefined)
      await repo.writeGrams(this.deps.db, id, row.companyId, gramsOfRow({ ...row, ...fields }))
    await this.changed(row, 'upsert')
    return await this.current(id)
  }

  /** Deletes the article; its attachments' files go with the next sweep. */
  async remove(actor: Actor, id: string, version?: number): Promise<void> {
    const row = await this.writable(actor, id, version)
    await repo.deleteGrams(this.deps.db, id)
    await repo.delete(this.deps.db, id)
    await this.changed(row, 'delete')
  }

  /**
   * Adds a file (at most 20 MB, the attachments' types by name and content, scanned; at most 10 an
   * article). Attaching and detaching keep the article's version (decision 0065): the version
   * guards the text, so an edit queued offline is not refused because a file came meanwhile.
   */
  async attach(actor: Actor, id: string, file: { name: string; bytes: Uint8Array }): Promise<Article> {
    const row = await this.writable(actor, id)
    if (file.bytes.byteLength === 0) throw ruleViolation(m.documentFileRequired.id, 'file')
    if (file.bytes.byteLength > MAX_ARTICLE_ATTACHMENT_BYTES) throw ruleViolation(m.documentTooLarge.id, 'file')
    if ((await repo.countAttachments(this.deps.db, id)) >= MAX_ARTICLE_ATTACHMENTS) throw ruleViolation(m.articleTooManyAttachments.id, 'file')
    const { name, contentType } = await acceptUpload(this.deps.scanner, file, { quota: this.deps.quota, companyId: row.companyId })
    const fileId = newId()
    // Written before the row: a rollback leaves an orphan file (swept), never a row without bytes.
    this.deps.files.write(id, fileId, file.bytes)
    await repo.insertAttachment(this.deps.db, {
      id: fileId,
      articleId: id,
      fileName: name,
      contentType,
      size: file.bytes.byteLength,
      sha256: sha256(Buffer.from(file.bytes).toString('binary')),
      createdAt: this.now(),
    })
    await repo.touch(this.deps.db, id, this.now())
    await this.changed(row, 'upsert')
    return await this.current(id)
  }

  async detach(actor: Actor, id: string, attachmentId: string): Promise<Article> {
    const row = await this.writable(actor, id)
    if (!(await repo.attachment(this.deps.db, id, attachmentId))) throw notFound(m.articleAttachmentNotFound.id)
    await repo.deleteAttachment(this.deps.db, attachmentId)
    await repo.touch(this.deps.db, id, this.now())
    await this.changed(row, 'upsert')
    return await this.current(id)
  }

  /** An attachment's bytes, for those who read the article. */
  async attachment(actor: Actor, id: string, attachmentId: string) {
    await this.readable(actor, id)
    const a = await repo.attachment(this.deps.db, id, attachmentId)
    if (!a) throw notFound(m.articleAttachmentNotFound.id)
    return { name: a.fileName, contentType: a.contentType, id: a.id, bytes: this.deps.files.read(id, a.id) }
  }

  /** The bytes of the attachments of the company's own articles (the storage quota's part, docs/decisions/0082). */
  async storedBytes(companyId: string): Promise<number> {
    return await repo.storedBytes(this.deps.db, companyId)
  }

  /** Removes the stored files no attachment refers to; housekeeping runs it. */
  async sweepFiles(graceMs = FILE_SWEEP_GRACE_MS): Promise<number> {
    return await sweepStore(this.deps.files, async (ids) => await repo.attachmentIds(this.deps.db, ids), graceMs)
  }

  /** Sync: the platform's articles and those of the associations the actor is a member of. */
  syncEntity(): SyncedEntity {
    const rows = async (db: Db, found: ArticleRow[]) => {
      const byArticle = new Map<string, AttachmentRow[]>()
      for (const a of await repo.attachmentsOf(
        db,
        found.map((r) => r.id),
      ))
        byArticle.set(a.articleId, [...(byArticle.get(a.articleId) ?? []), a])
      return found.map((r) => {
        const a = view(r, byArticle.get(r.id) ?? [])
        return { id: a.id, version: a.version, data: a as unknown as Record<string, unknown> }
      })
    }
    return {
      name: 'article',
      snapshot: async (db, actor, afterId, limit) => await rows(db, await repo.syncPage(db, await this.scopeOf(actor), afterId, limit)),
      load: async (db, actor, ids) => await rows(db, await repo.byIds(db, await this.scopeOf(actor), ids)),
    }
  }
}

export const createArticlesService = (deps: ArticlesServiceDeps) => new ArticlesService(deps)
