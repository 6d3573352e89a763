import { defineModule } from '../../kernel/module'
import { bookkeepingAccountPlans, bookkeepingClosedMonths, bookkeepingExportMarks, bookkeepingExports } from '../../db/schema/bookkeeping'
import { createBookkeepingService, type BookkeepingService } from './bookkeeping.service'
import { bookkeepingRoutes } from './bookkeeping.routes'

declare module '../../kernel/module' {
  interface Services {
    bookkeeping: BookkeepingService
  }
}

/** The journal of the invoices, its exports and closed months (docs/decisions/0067). */
export const bookkeepingModule = defineModule({
  name: 'bookkeeping',
  tables: [bookkeepingAccountPlans, bookkeepingClosedMonths, bookkeepingExports, bookkeepingExportMarks],
  services: { bookkeeping: (s, k) => createBookkeepingService({ db: k.db, clock: k.businessClock, companies: s.companies }) },
  routes: (s) => [bookkeepingRoutes(s.bookkeeping)],
})

// What other features use of this one (docs/ARCHITECTURE.md "Layers": a feature is reached through its entry).
export { assertMoneyDate, assertMonthsOpen, closedMonthOf } from './closed-months'
