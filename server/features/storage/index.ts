import { defineModule } from '../../kernel/module'
import { storageQuotas } from '../../db/schema/storage'
import { createStorageService, type StorageService } from './storage.service'
import { storageRoutes } from './storage.routes'

declare module '../../kernel/module' {
  interface Services {
    storage: StorageService
  }
}

/**
 * The storage quota per association (docs/decisions/0082): what its files take, summed from the
 * modules that keep them, read when asked (each module's `storedBytes`); its own quota if the
 * super admin set one. The uploading modules take it as their `quota` port.
 */
export const storageModule = defineModule({
  name: 'storage',
  tables: [storageQuotas],
  services: {
    storage: (s, k) =>
      createStorageService({
        db: k.db,
        clock: k.clock,
        defaultQuotaBytes: k.config.storageQuotaBytes,
        companies: s.companies,
        parts: {
          documents: (companyId) => s.documents.storedBytes(companyId),
          messages: (companyId) => s.messages.storedBytes(companyId),
          articles: (companyId) => s.articles.storedBytes(companyId),
          market: (companyId) => s.market.storedBytes(companyId),
          lending: (companyId) => s.lending.storedBytes(companyId),
        },
      }),
  },
  routes: (s) => [storageRoutes(s.storage)],
})

// What other features use of this one (docs/ARCHITECTURE.md "Layers": a feature is reached through its entry).
export type { StorageService } from './storage.service'
