/**
 * The knowledge bank's search on the device's copy (decision 0065), used offline: every
 * word of the query must occur in the title, the body's text or the tags, ignoring case and accents
 * (é → e, å → a) as the server does, but anywhere in a word (a simple match, not the server's
 * index); articles whose title has a word come first, then the newest.
 */
import { foldForSearch, htmlText, searchWords, type Article } from '../../../shared/contract/articles'

type Searchable = Partial<Pick<Article, 'title' | 'body' | 'tags' | 'createdAt'>> & { id: string }

export function searchOffline<T extends Searchable>(rows: readonly T[], q: string): T[] {
  const words = searchWords(q).map(foldForSearch)
  if (words.length === 0) return []
  const hits: { row: T; inTitle: number }[] = []
  for (const row of rows) {
    const title = foldForSearch(row.title ?? '')
    const text = `${title}\n${foldForSearch(htmlText(row.body ?? ''))}\n${foldForSearch((row.tags ?? []).join(' '))}`
    if (words.every((w) => text.includes(w))) hits.push({ row, inTitle: words.filter((w) => title.includes(w)).length })
  }
  return hits
    .sort((a, b) => b.inTitle - a.inTitle || (b.row.createdAt ?? '').localeCompare(a.row.createdAt ?? '') || a.row.id.localeCompare(b.row.id))
    .map((h) => h.row)
}
