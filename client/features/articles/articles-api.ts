/**
 * The knowledge bank's calls that need a connection (decision 0065): the server's ranked search, and
 * an article's attachments (added, removed, fetched with the session). The articles themselves come
 * from the synced local copy (use-articles.ts) and change through the outbox (article-mutations.ts).
 */
import { z } from 'zod'
import { Article, ArticleSummary } from '../../../shared/contract/articles'
import { api, apiFile, type ActionKey } from '../../lib/api'

/** The server's search: every word (or a word starting so) in the title, text or tags; best first. */
export const searchArticles = (q: string, signal?: AbortSignal): Promise<ArticleSummary[]> =>
  api('GET', '/articles', { query: { q, limit: 50 }, schema: z.array(ArticleSummary), signal })

export function addAttachment(id: string, file: File, action: ActionKey): Promise<Article> {
  const form = new FormData()
  form.set('file', file)
  return api('POST', `/articles/${id}/attachments`, { body: form, schema: Article, action })
}

export const removeAttachment = (id: string, attachmentId: string, action: ActionKey): Promise<Article> =>
  api('DELETE', `/articles/${id}/attachments/${attachmentId}`, { schema: Article, action })

/** An attachment's bytes. */
export const fetchAttachment = async (id: string, attachmentId: string): Promise<Blob> => (await apiFile(`/articles/${id}/attachments/${attachmentId}`)).blob
