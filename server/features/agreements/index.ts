import { defineModule } from '../../kernel/module'
import { viewedScope } from '../../access/scope'
import { agreementAddresses, agreementParts, agreements } from '../../db/schema/agreements'
import { agreementSync, createAgreementsService, type AgreementsService } from './agreements.service'
import { createVippsObserver, type VippsObserver } from './vipps-observer'
import { createResidencyService, type ResidencyService } from './residency.service'
import { agreementsRoutes } from './agreements.routes'

declare module '../../kernel/module' {
  interface Services {
    agreements: AgreementsService
    /** What Vipps says of an agreement or charge reaches agreements and charges through it. */
    vippsObserver: VippsObserver
    /** Who lives where: a member with a living agreement is a resident of that association. */
    residency: ResidencyService
  }
}

/** Members' recurring payment agreements through Vipps MobilePay (docs/decisions/0024). */
export const agreementsModule = defineModule({
  name: 'agreements',
  tables: [agreements, agreementParts, agreementAddresses],
  services: {
    agreements: (s, k) =>
      createAgreementsService({
        db: k.db,
        clock: k.clock,
        lock: k.lock,
        publicUrl: k.config.publicUrl,
        companies: s.companies,
        providers: s.providers,
        auth: s.auth,
        users: s.users,
        charges: s.charges,
        notices: s.notices,
      }),
    vippsObserver: (s) => createVippsObserver({ agreements: s.agreements, charges: s.charges }),
    residency: (_s, k) => createResidencyService(k.db, k.clock),
  },
  routes: (s) => [agreementsRoutes(s.agreements)],
  scopes: (s) => ({ agreement: viewedScope((actor, id) => s.agreements.get(actor, id)) }),
  sync: (s) => [agreementSync(s.agreements)],
})

// What other features use of this one (docs/ARCHITECTURE.md "Layers": a feature is reached through its entry).
export type { AgreementsService } from './agreements.service'
export type { Residency, ResidencyService } from './residency.service'
