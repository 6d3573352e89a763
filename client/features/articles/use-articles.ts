/** Articles from the local copy with queued changes applied, live (they show offline). */
import type { Article } from '../../../shared/contract/articles'
import type { LocalDb, Row } from '../../sync/local-db'
import type { ViewRow } from '../../sync/optimistic'
import { viewWithOutbox } from '../../sync/queue-reads'
import { useSharedQuery, type SharedQuery } from '../../sync/shared-query'
import { useRecord } from '../../sync/use-record'
import type { SyncHandle } from '../../sync/use-sync'
import './article-mutations'

export type ArticleView = Partial<Article> & ViewRow

const newestFirst = (a: ArticleView, b: ArticleView) => (b.createdAt ?? '').localeCompare(a.createdAt ?? '') || b.id.localeCompare(a.id)

const listQuery: SharedQuery<ArticleView[]> = {
  key: 'articles:all',
  tables: ['articles', 'outbox'],
  read: async (db: LocalDb) => {
    const rows: Row[] = await db.articles.toArray()
    return ((await viewWithOutbox(db, 'article', rows)) as ArticleView[]).sort(newestFirst)
  },
}

/** The platform's articles and those of the user's associations (the sync sends only those), newest first; undefined while IndexedDB opens. */
export const useArticles = (handle: SyncHandle | null): ArticleView[] | undefined => useSharedQuery(handle?.db, listQuery)

export const useArticle = (handle: SyncHandle | null, id: string) => useRecord<Article>(handle, 'article', id)
