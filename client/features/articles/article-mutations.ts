/**
 * The knowledge bank through the outbox (decision 0065): staff write, edit and delete their
 * association's articles (the super admin the platform's), also offline; the server's answered
 * row (with the sanitized body) replaces the local guess. Attachments need a connection (articles-api.ts).
 */
import { msg } from '@lingui/core/macro'
import { tagsOf, type Article, type CreateArticleRequest, type UpdateArticleRequest } from '../../../shared/contract/articles'
import type { Row } from '../../sync/local-db'
import type { Values } from '../../sync/merge'
import { registerMutationKind } from '../../sync/mutation-kinds'
import { answerAsRow, reduce } from '../../sync/optimistic'
import type { SyncHandle } from '../../sync/use-sync'

export const ARTICLE_CREATE = 'article.create'
export const ARTICLE_UPDATE = 'article.update'
export const ARTICLE_DELETE = 'article.delete'

registerMutationKind(ARTICLE_CREATE, {
  reducer: reduce.insert((m) => {
    const body = m.body as CreateArticleRequest & { id: string }
    const author = m.preview as { id: string; fullName: string }
    const at = new Date(m.createdAt).toISOString()
    const row: Omit<Article, 'version'> = {
      id: body.id,
      companyId: body.companyId ?? null,
      language: body.language,
      title: body.title.trim(),
      body: body.body,
      tags: tagsOf(body.tags ?? []),
      author,
      attachments: [],
      createdAt: at,
      updatedAt: at,
    }
    return { ...row, _version: 0 } as Row
  }),
  label: msg`New article`,
  failed: msg`Failed to save the article`,
  answeredRow: answerAsRow,
})

const valuesOf = (body: UpdateArticleRequest): Values => {
  const values: Values = {}
  if (body.title !== undefined) values.title = body.title.trim()
  if (body.body !== undefined) values.body = body.body
  if (body.language !== undefined) values.language = body.language
  if (body.tags !== undefined) values.tags = tagsOf(body.tags)
  return values
}

registerMutationKind(ARTICLE_UPDATE, {
  reducer: reduce.patch((_row, m) => valuesOf(m.body as UpdateArticleRequest)),
  label: msg`Edit article`,
  failed: msg`Failed to save the article`,
  answeredRow: answerAsRow,
})

registerMutationKind(ARTICLE_DELETE, {
  reducer: reduce.remove(),
  label: msg`Delete article`,
  failed: msg`Failed to delete the article`,
})

/** POST /articles with a client-made id, so an article written offline keeps it. */
export const createArticle = ({ engine }: SyncHandle, body: CreateArticleRequest & { id: string }, author: { id: string; fullName: string }) =>
  engine.mutate({ kind: ARTICLE_CREATE, method: 'POST', path: '/articles', body, preview: author, entity: 'article', entityId: body.id })

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

/** PATCH /articles/{id} with the fields that changed against the row the form opened on; null when nothing changed. */
export function updateArticle(handle: SyncHandle, opened: Record<string, unknown> & { id: string; _version: number }, edit: UpdateArticleRequest) {
  const body = Object.fromEntries(Object.entries(valuesOf(edit)).filter(([k, v]) => !same(opened[k], v))) as UpdateArticleRequest
  if (Object.keys(body).length === 0) return null
  return handle.engine.mutate({
    kind: ARTICLE_UPDATE,
    method: 'PATCH',
    path: `/articles/${opened.id}`,
    body,
    baseRow: opened,
    entity: 'article',
    entityId: opened.id,
    baseVersion: opened._version,
  })
}

export const deleteArticle = (handle: SyncHandle, row: { id: string; _version: number }) =>
  handle.engine.mutate({ kind: ARTICLE_DELETE, method: 'DELETE', path: `/articles/${row.id}`, entity: 'article', entityId: row.id, baseVersion: row._version })
