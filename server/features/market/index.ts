import { defineModule } from '../../kernel/module'
import { viewedScope } from '../../access/scope'
import { marketListings } from '../../db/schema/market'
import { attachmentStore } from '../../integrations/files/attachment-store'
import { RateLimiter } from '../../http/rate-limit'
import { resolve } from 'node:path'
import { createMarketService, type MarketService } from './market.service'
import { marketRoutes } from './market.routes'

declare module '../../kernel/module' {
  interface Services {
    market: MarketService
  }
}

/** Buy and sell, share and swap among neighbours (docs/decisions/0063). */
export const marketModule = defineModule({
  name: 'market',
  tables: [marketListings],
  services: {
    market: (s, k) =>
      createMarketService({
        db: k.db,
        clock: k.clock,
        companies: s.companies,
        residency: s.residency,
        notices: s.notices,
        files: attachmentStore(resolve(k.filesDir, 'market')),
        scanner: k.scanner,
        // The association's storage quota, read when an upload asks (docs/decisions/0082).
        quota: { assertRoom: (companyId, bytes, replacing) => s.storage.assertRoom(companyId, bytes, replacing) },
      }),
  },
  routes: (s, k) => [marketRoutes(s.market, { contact: new RateLimiter(k.clock, 10, 3_600_000), photo: new RateLimiter(k.clock, 30, 3_600_000) })],
  scopes: (s) => ({ listing: viewedScope((actor, id) => s.market.view(actor, id)) }),
  acts: (s) => ({ 'market:list': (actor, companyId) => s.market.assertMayList(actor, companyId) }),
  sync: (s) => [s.market.syncEntity()],
  sweepFiles: (s) => s.market.sweepFiles(),
})

// What other features use of this one (docs/ARCHITECTURE.md "Layers": a feature is reached through its entry).
export { acceptPhoto } from './photo-upload'
