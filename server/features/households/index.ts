import { defineModule } from '../../kernel/module'
import { viewedScope } from '../../access/scope'
import { householdMoves, householdResidents, households } from '../../db/schema/households'
import { createHouseholdsService, type HouseholdsService } from './households.service'
import { householdsRoutes } from './households.routes'
import { createHouseholdImportService, type HouseholdImportService } from './import.service'
import { householdImportRoutes } from './import.routes'
import { RateLimiter } from '../../http/rate-limit'
import { addressProviderFor } from '../../integrations/addresses/address-provider-for'

declare module '../../kernel/module' {
  interface Services {
    households: HouseholdsService
    householdImport: HouseholdImportService
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
    // The spreadsheet import (docs/decisions/0092): addresses are checked against the same register as the address search.
    householdImport: (s, k) =>
      createHouseholdImportService({
        db: k.db,
        clock: k.clock,
        companies: s.companies,
        users: s.users,
        agreements: s.agreements,
        providers: s.providers,
        provider: k.options.addressProvider ?? addressProviderFor(k.config),
      }),
  },
  routes: (s, k) => [householdsRoutes(s.households), householdImportRoutes(s.householdImport, new RateLimiter(k.clock, 30, 60_000))],
  scopes: (s) => ({ household: viewedScope((actor, id) => s.households.get(actor, id)) }),
  sync: (s) => [s.households.syncEntity()],
})

export type { HouseholdsService } from './households.service'
