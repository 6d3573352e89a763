import { z } from 'zod'

export const appEnvs = ['development', 'test', 'production'] as const

export const databaseEngines = ['sqlite', 'postgres'] as const

/**
 * GET /api/health. `env` tells clients whether non-production features (token login, sections)
 * are on; `engine` which database the server runs on (the embedded SQLite file or PostgreSQL).
 */
export const Health = z
  .object({
    status: z.enum(['ok', 'degraded']),
    version: z.string(),
    db: z.enum(['ok', 'error']),
    engine: z.enum(databaseEngines),
    env: z.enum(appEnvs),
  })
  .meta({ id: 'Health' })
export type Health = z.infer<typeof Health>
