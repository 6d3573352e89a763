/**
 * The knowledge bank's search on the device's copy, used offline (docs/decisions/0085): the same
 * ranking as the server's (shared/domain/search), over every synced article instead of the server's
 * candidates, so the same query finds the same articles in the same order online and offline.
 */
import { htmlText, type Article } from '../../../shared/contract/articles'
import { rankDocuments } from '../../../shared/domain/search'

type Searchable = Partial<Pick<Article, 'title' | 'body' | 'tags' | 'createdAt'>> & { id: string }

export function searchOffline<T extends Searchable>(rows: readonly T[], q: string): T[] {
  const docs = rows.map((row) => ({
    row,
    id: row.id,
    title: row.title ?? '',
    tags: row.tags ?? [],
    text: htmlText(row.body ?? ''),
    createdAt: row.createdAt ?? '',
  }))
  return rankDocuments(docs, q).map((hit) => hit.doc.row)
}
