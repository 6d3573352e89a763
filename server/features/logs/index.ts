import { defineModule } from '../../kernel/module'
import { systemLogs } from '../../db/schema/platform'
import { RateLimiter } from '../../http/rate-limit'
import { createLogsService, type LogsService } from './logs.service'
import { logsRoutes } from './logs.routes'

declare module '../../kernel/module' {
  interface Services {
    logs: LogsService
  }
}

/** System Logs: what clients report and what the server logs as failures, for the super admin. */
export const logsModule = defineModule({
  name: 'logs',
  tables: [systemLogs],
  services: { logs: (_s, k) => createLogsService({ db: k.db, clock: k.clock }) },
  routes: (s, k) => [logsRoutes(s.logs, new RateLimiter(k.clock, 60, 60_000))],
})
