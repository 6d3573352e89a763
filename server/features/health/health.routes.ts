import { route } from '../../http/route'
import type { Database_ } from '../../db/client'
import { statement } from '../../db/statement'
import { Health } from '../../../shared/contract/health'
import { json, router } from '../../http/openapi'

const health = route({
  rules: { access: 'public', data: 'read' },
  method: 'get',
  path: '/health',
  tags: ['Platform'],
  summary: 'Liveness and database check; `env` tells clients whether non-production features are on',
  responses: { 200: { description: 'Healthy', ...json(Health) }, 503: { description: 'Database unavailable', ...json(Health) } },
})

const ping = statement<[], unknown>('SELECT 1')

/**
 * Checks the database (on SQLite both connections) with a statement that reads no table, so it answers at once even while
 * a write holds the write lock with its transaction open (as a GET on a file database it does not
 * wait for the lock: decision 0049).
 */
export const healthRoutes = (database: Pick<Database_, 'db' | 'sqlite' | 'reader' | 'engine'>, version: string, env: 'development' | 'test' | 'production') =>
  router().openapi(health, async (c) => {
    let db: 'ok' | 'error' = 'ok'
    try {
      if (database.engine === 'postgres') await ping.get(database.db, [])
      else for (const connection of [database.sqlite, database.reader]) connection?.prepare('SELECT 1').get()
    } catch {
      db = 'error'
    }
    const body = { status: db === 'ok' ? ('ok' as const) : ('degraded' as const), version, db, engine: database.engine, env }
    return db === 'ok' ? c.json(body, 200) : c.json(body, 503)
  })
