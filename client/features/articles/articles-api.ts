/**
 * The knowledge bank's calls that need a connection (issue #22): the server's ranked search, and
 * an article's attachments (added, removed, fetched with the session). The articles themselves come
 * from the synced local copy (use-articles.ts) and change through the outbox (article-mutations.ts).
 */
import { z } from 'zod'
import { Article, ArticleSummary } from '../../../shared/contract/articles'
import { api, API_BASE, ApiError, type ActionKey } from '../../lib/api'
import { sessionStore } from '../auth/session'

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

/** An attachment's bytes (the API needs the bearer token a plain link cannot carry). */
export async function fetchAttachment(id: string, attachmentId: string): Promise<Blob> {
  const token = sessionStore.get().token
  let res: Response
  try {
    res = await fetch(`${API_BASE}/articles/${id}/attachments/${attachmentId}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} })
  } catch {
    throw new ApiError(0, 'NETWORK_ERROR', '')
  }
  if (!res.ok) throw new ApiError(res.status, res.status === 404 ? 'NOT_FOUND' : 'UNKNOWN', '')
  return await res.blob()
}

/** Saves a blob under a file name (the browser's download). */
export function saveBlob(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob)
  const a = document.createElement('a')
  a.href = url
  a.download = name
  document.body.append(a)
  a.click()
  a.remove()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}
