import { z } from 'zod'

export const appEnvs = ['development', 'test', 'production'] as const

/** GET /api/health. `env` tells clients whether non-production features (token login, sections) are on. */
export const Health = z
  .object({ status: z.enum(['ok', 'degraded']), version: z.string(), db: z.enum(['ok', 'error']), env: z.enum(appEnvs) })
  .meta({ id: 'Health' })
export type Health = z.infer<typeof Health>
