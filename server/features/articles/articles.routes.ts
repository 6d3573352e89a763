import { z } from '@hono/zod-openapi'
import { Article, ArticleListQuery, ArticleSummary, CreateArticleRequest, UpdateArticleRequest } from '../../../shared/contract/articles'
import { queryTerms } from '../../../shared/domain/search'
import { messages as m } from '../../../shared/i18n-messages'
import { fileUpload, IdParam, itemRoutes, PAGED } from '../../http/item-routes'
import { router, writeHeaders } from '../../http/openapi'
import { setNextLink } from '../../http/paging'
import type { RateLimiter } from '../../http/rate-limit'
import { storedFileAnswer, uploadedFile } from '../../http/stored-files'
import { ifMatchVersion, setETag } from '../../http/versioning'
import { requireActor } from '../../access/actor'
import type { ArticlesService } from './articles.service'

const r = itemRoutes({ tags: ['Knowledge bank'], entity: Article, name: 'article', scope: 'article' })
const AttachmentParam = z.object({ id: z.uuid(), attachmentId: z.uuid() })
const WHO =
  'Platform articles (`companyId` null) are read by every signed-in user; an association’s by its members (its staff, every role, and its residents with a living agreement) and the super admin. ' +
  'Another association’s article is 404.'
const WRITERS =
  'An association’s staff (every role) and the super admin write its articles; only the super admin writes platform articles. A member who reads it gets 403.'

const list = r.page('/articles', {
  summary: 'Articles: with `q` a search over titles, bodies and tags (best first), without it newest first',
  description:
    `${WHO} The platform's articles and those of \`companyId\` (another association's is 404), or without it of every association the caller is a member of. ` +
    'Every word of `q` must occur in the title, body or tags, as a word or the start of one (“affald” finds “Affaldssortering”); case and accents (é, å) are ignored, æ and ø are letters of their own. ' +
    'Characters other than letters and digits only separate words, and words of one character are left out. The score is the article’s own: for each word 10 if the title has it, 5 if the tags do, 1 if the body does; ties newest first. ' +
    `${PAGED} At most 120 searches a minute per user (429).`,
  query: ArticleListQuery,
  items: ArticleSummary,
  errors: [400, 401, 404, 429],
})
const create = r.create('/articles', {
  // No `companyId`: a platform article, the super admin's.
  scope: { of: 'association', in: 'body', param: 'companyId', optional: true, act: 'articles:write' },
  summary: 'Write an article (a client-made `id` makes a retried create one article); the body is sanitized',
  description: WRITERS,
  body: CreateArticleRequest,
})
const getOne = r.read('/articles/{id}', { summary: 'An article with its sanitized body and its attachments', description: WHO })
const update = r.update('/articles/{id}', { summary: "Change an article's title, body, tags or language", description: WRITERS, body: UpdateArticleRequest })
const remove = r.remove('/articles/{id}', { summary: 'Delete an article and its attachments', description: WRITERS })
const attach = r.route({
  rules: { access: 'signed-in', data: 'write', body: 'document', scope: { of: 'article' } },
  method: 'post',
  path: '/articles/{id}/attachments',
  summary:
    'Attach a file (multipart field `file`): PDF, image, text or Office file, at most 20 MB, checked by name, content and the virus-scanning hook; at most 10 an article',
  description: WRITERS,
  request: { params: IdParam, headers: writeHeaders, ...fileUpload },
  ok: { 200: r.one() },
  errors: [400, 401, 403, 404, 409, 413, 422, 429],
})
const attachment = r.file('/articles/{id}/attachments/{attachmentId}', {
  summary: 'An attachment’s file, for those who read the article (`Content-Disposition: attachment`)',
  what: 'The file',
  params: AttachmentParam,
})
const detach = r.route({
  rules: { access: 'signed-in', data: 'write', scope: { of: 'article' } },
  method: 'delete',
  path: '/articles/{id}/attachments/{attachmentId}',
  summary: 'Remove an attachment',
  description: WRITERS,
  request: { params: AttachmentParam, headers: writeHeaders },
  ok: { 200: r.one() },
  errors: [401, 403, 404, 409],
})

export const articlesRoutes = (articles: ArticlesService, limits: { upload: RateLimiter; search: RateLimiter }) =>
  router()
    .openapi(list, async (c) => {
      const actor = requireActor(c.var.actor)
      const query = c.req.valid('query')
      if (queryTerms(query.q ?? '').length) limits.search.hit(`article-search:${actor.userId}`)
      const page = await articles.list(actor, query)
      setNextLink(c, page.next)
      return c.json(page.items, 200)
    })
    .openapi(create, async (c) => {
      const article = await articles.create(requireActor(c.var.actor), c.req.valid('json'))
      setETag(c, article.version)
      return c.json(article, 201)
    })
    .openapi(getOne, async (c) => {
      const article = await articles.view(requireActor(c.var.actor), c.req.valid('param').id)
      setETag(c, article.version)
      return c.json(article, 200)
    })
    .openapi(update, async (c) => {
      const article = await articles.update(requireActor(c.var.actor), c.req.valid('param').id, c.req.valid('json'), ifMatchVersion(c))
      setETag(c, article.version)
      return c.json(article, 200)
    })
    .openapi(remove, async (c) => {
      await articles.remove(requireActor(c.var.actor), c.req.valid('param').id, ifMatchVersion(c))
      return c.body(null, 204)
    })
    .openapi(attach, async (c) => {
      const actor = requireActor(c.var.actor)
      limits.upload.hit(`article-attachment:${actor.userId}`)
      const file = await uploadedFile(c, await c.req.parseBody(), m.documentFileRequired.id)
      const article = await articles.attach(actor, c.req.valid('param').id, file)
      setETag(c, article.version)
      return c.json(article, 200)
    })
    .openapi(attachment, async (c) => {
      const { id, attachmentId } = c.req.valid('param')
      const found = await articles.attachment(requireActor(c.var.actor), id, attachmentId)
      return storedFileAnswer(c, { contentType: found.contentType, bytes: found.bytes, name: found.name, etag: found.id }) as never
    })
    .openapi(detach, async (c) => {
      const { id, attachmentId } = c.req.valid('param')
      const article = await articles.detach(requireActor(c.var.actor), id, attachmentId)
      setETag(c, article.version)
      return c.json(article, 200)
    })
