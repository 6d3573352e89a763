import { defineModule } from '../../kernel/module'
import { chargeStatistics, chargeStatisticsMonths } from '../../db/schema/statistics'
import { createStatisticsService, type StatisticsService } from './statistics.service'
import { statisticsRoutes } from './statistics.routes'

declare module '../../kernel/module' {
  interface Services {
    statistics: StatisticsService
  }
}

/** Charge statistics per company, from day and month sums the database keeps (docs/decisions/0051). */
export const statisticsModule = defineModule({
  name: 'statistics',
  tables: [chargeStatistics, chargeStatisticsMonths],
  services: { statistics: (_s, k) => createStatisticsService({ database: k.database, clock: k.clock }) },
  routes: (s) => [statisticsRoutes(s.statistics)],
})

// What other features use of this one (docs/ARCHITECTURE.md "Layers": a feature is reached through its entry).
export { spansOf } from './statistics-spans'
