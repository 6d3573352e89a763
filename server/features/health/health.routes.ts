import { createRoute } from '@hono/zod-openapi'
import type Database from 'better-sqlite3'
import { Health } from '../../../shared/contract/health'
import { json, router } from '../../http/openapi'

const health = createRoute({
  method: 'get',
  path: '/health',
  tags: ['Platform'],
  summary: 'Liveness and database check; `env` tells clients whether non-production features are on',
  responses: { 200: { description: 'Healthy', ...json(Health) }, 503: { description: 'Database unavailable', ...json(Health) } },
})

export const healthRoutes = (sqlite: Database.Database, version: string, env: 'development' | 'test' | 'production') =>
  router().openapi(health, (c) => {
    let db: 'ok' | 'error' = 'ok'
    try {
      sqlite.prepare('SELECT 1').get()
    } catch {
      db = 'error'
    }
    const body = { status: db === 'ok' ? ('ok' as const) : ('degraded' as const), version, db, env }
    return db === 'ok' ? c.json(body, 200) : c.json(body, 503)
  })
