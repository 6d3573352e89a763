import { defineModule } from '../../kernel/module'
import { healthRoutes } from './health.routes'

/** Liveness and the database check. */
export const healthModule = defineModule({
  name: 'health',
  tables: [],
  routes: (_s, k) => [healthRoutes(k.database, k.version, k.config.appEnv)],
})
