import { defineModule } from '../../kernel/module'
import { viewedScope } from '../../access/scope'
import { articleAttachments, articleSearchGrams, articles } from '../../db/schema/knowledge'
import { attachmentStore } from '../../integrations/files/attachment-store'
import { RateLimiter } from '../../http/rate-limit'
import { resolve } from 'node:path'
import { createArticlesService, type ArticlesService } from './articles.service'
import { articlesRoutes } from './articles.routes'

declare module '../../kernel/module' {
  interface Services {
    articles: ArticlesService
  }
}

/** The knowledge bank: association and platform articles, searchable in both languages (docs/decisions/0065). */
export const articlesModule = defineModule({
  name: 'articles',
  tables: [articles, articleAttachments, articleSearchGrams],
  services: {
    articles: (s, k) =>
      createArticlesService({
        db: k.db,
        clock: k.clock,
        companies: s.companies,
        residency: s.residency,
        files: attachmentStore(resolve(k.filesDir, 'articles')),
        scanner: k.scanner,
        // The association's storage quota, read when an upload asks (docs/decisions/0082).
        quota: { assertRoom: (companyId, bytes, replacing) => s.storage.assertRoom(companyId, bytes, replacing) },
      }),
  },
  routes: (s, k) => [articlesRoutes(s.articles, { upload: new RateLimiter(k.clock, 30, 3_600_000), search: new RateLimiter(k.clock, 120, 60_000) })],
  scopes: (s) => ({ article: viewedScope((actor, id) => s.articles.view(actor, id)) }),
  acts: (s) => ({ 'articles:write': async (actor, companyId) => s.articles.assertMayWrite(actor, companyId || null) }),
  sync: (s) => [s.articles.syncEntity()],
  // The search grams of articles stored before the index, or before a change of the folding (decision 0085).
  jobs: (s) => [{ name: 'article-grams', everyMs: 10_000, run: async () => await s.articles.indexMissing() }],
  sweepFiles: (s) => s.articles.sweepFiles(),
})
