import { defineModule } from '../../kernel/module'
import { viewedScope } from '../../access/scope'
import { householdMoves, householdResidents, households } from '../../db/schema/households'
import { createHouseholdsService, type HouseholdsService } from './households.service'
import { householdsRoutes } from './households.routes'

declare module '../../kernel/module' {
  interface Services {
    households: HouseholdsService
  }
}

/** The association's households, their residents over time and their moves (docs/decisions/0090). */
export const householdsModule = defineModule({
  name: 'households',
  tables: [households, householdResidents, householdMoves],
  services: {
    households: (s, k) =>
      createHouseholdsService({
        db: k.db,
        clock: k.clock,
        companies: s.companies,
        agreements: s.agreements,
        billing: s.billing,
        charges: s.charges,
        invoices: s.invoices,
        providers: s.providers,
        users: s.users,
        auth: s.auth,
      }),
  },
  routes: (s) => [householdsRoutes(s.households)],
  scopes: (s) => ({ household: viewedScope((actor, id) => s.households.get(actor, id)) }),
  sync: (s) => [s.households.syncEntity()],
})

export type { HouseholdsService } from './households.service'
