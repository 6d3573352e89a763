import { z } from 'zod'

export const logLevels = ['ERROR', 'WARN', 'INFO', 'DEBUG'] as const
export const LogLevel = z.enum(logLevels)
export type LogLevel = z.infer<typeof LogLevel>

export const MAX_LOG_MESSAGE = 2000
export const MAX_LOG_CONTEXT = 8000
export const LOG_PAGE_SIZE = 50

/** A client reports an error (docs/PRODUCT.md §7 POST /logger; failures are ignored by the client). */
export const CreateLogRequest = z
  .object({
    level: z.preprocess((v) => (typeof v === 'string' ? v.toUpperCase() : v), LogLevel),
    message: z.string().trim().min(1).max(MAX_LOG_MESSAGE),
    context: z.unknown().optional(),
  })
  .meta({ id: 'CreateLogRequest' })
export type CreateLogRequest = z.input<typeof CreateLogRequest>

export const LogEntry = z
  .object({
    id: z.uuid(),
    timestamp: z.iso.datetime(),
    level: LogLevel,
    source: z.string(),
    message: z.string(),
    context: z.unknown().nullable(),
  })
  .meta({ id: 'LogEntry' })
export type LogEntry = z.infer<typeof LogEntry>

export const LogQuery = z.object({
  skip: z.coerce.number().int().min(0).max(1_000_000).default(0),
  take: z.coerce.number().int().min(1).max(200).default(LOG_PAGE_SIZE),
  search: z.string().trim().max(200).optional(),
})
