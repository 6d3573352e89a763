import { defineModule } from '../../kernel/module'
import { viewedScope } from '../../access/scope'
import { specialists } from '../../db/schema/knowledge'
import { createSpecialistsService, type SpecialistsService } from './specialists.service'
import { specialistsRoutes } from './specialists.routes'

declare module '../../kernel/module' {
  interface Services {
    specialists: SpecialistsService
  }
}

/** The association's directory of specialists (trades, contact details, notes). */
export const specialistsModule = defineModule({
  name: 'specialists',
  tables: [specialists],
  services: { specialists: (s, k) => createSpecialistsService({ db: k.db, clock: k.clock, companies: s.companies, residency: s.residency }) },
  routes: (s) => [specialistsRoutes(s.specialists)],
  scopes: (s) => ({ specialist: viewedScope((actor, id) => s.specialists.view(actor, id)) }),
  acts: (s) => ({ 'specialists:write': async (actor, companyId) => s.specialists.assertMayWrite(actor, companyId) }),
  sync: (s) => [s.specialists.syncEntity()],
})
