import { z } from 'zod'
import { SYNC_BATCH_MAX_ITEMS, SYNC_DEFAULT_LIMIT, SYNC_MAX_LIMIT, syncEntities } from './sync-basics'

export const SyncEntity = z.enum(syncEntities)
export type SyncEntity = z.infer<typeof SyncEntity>

export { SYNC_BATCH_MAX_ITEMS, SYNC_DEFAULT_LIMIT, SYNC_MAX_LIMIT, syncEntities }

export const SyncQuery = z.object({
  cursor: z.string().max(2000).optional(),
  limit: z.coerce.number().int().min(1).max(SYNC_MAX_LIMIT).default(SYNC_DEFAULT_LIMIT),
})

export const SyncChange = z
  .discriminatedUnion('op', [
    z.object({ entity: SyncEntity, id: z.string(), op: z.literal('upsert'), version: z.number().int(), data: z.record(z.string(), z.unknown()) }),
    z.object({ entity: SyncEntity, id: z.string(), op: z.literal('delete') }),
  ])
  .meta({ id: 'SyncChange' })
export type SyncChange = z.infer<typeof SyncChange>

export const SyncResponse = z
  .object({
    changes: z.array(SyncChange),
    cursor: z.string(),
    hasMore: z.boolean(),
    /** Drop the local copy and pull again from this cursor's start (access changed or cursor too old). */
    reset: z.boolean(),
  })
  .meta({ id: 'SyncResponse' })
export type SyncResponse = z.infer<typeof SyncResponse>

/** The methods a batch may carry: writes only (a read has nothing to wait for in an outbox). */
export const syncBatchMethods = ['POST', 'PUT', 'PATCH', 'DELETE'] as const

/**
 * One queued mutation, sent exactly as it would be sent alone. `method` and `path` are checked by
 * the route, not here, so that a refusal names the item in words (batch.routes.ts).
 */
/** A header value without spaces or control characters. */
const HEADER_VALUE = /^[\x21-\x7e]+$/

export const SyncBatchItem = z
  .object({
    method: z.string().max(10).meta({ description: 'POST, PUT, PATCH or DELETE' }),
    path: z
      .string()
      .min(1)
      .max(2000)
      .meta({ description: 'The full path under /api, e.g. `/api/notifications/{id}/read` (not /api/auth/…, not the batch itself)' }),
    // Printable ASCII only, as an HTTP header value must be: anything else could not be forwarded.
    headers: z.object({
      'Idempotency-Key': z.string().min(1).max(64).regex(HEADER_VALUE),
      'If-Match': z.string().max(20).regex(HEADER_VALUE).optional(),
    }),
    body: z.unknown().optional(),
  })
  .meta({ id: 'SyncBatchItem' })
export type SyncBatchItem = z.infer<typeof SyncBatchItem>

export const SyncBatchRequest = z.object({ items: z.array(SyncBatchItem).min(1).max(SYNC_BATCH_MAX_ITEMS) }).meta({ id: 'SyncBatchRequest' })
export type SyncBatchRequest = z.infer<typeof SyncBatchRequest>

/** What the item would have got alone: its status, the headers a client acts on, and its JSON body (null when empty). */
export const SyncBatchAnswer = z
  .object({
    status: z.number().int(),
    headers: z.object({
      etag: z.string().optional(),
      location: z.string().optional(),
      'idempotent-replayed': z.string().optional(),
      'retry-after': z.string().optional(),
      'x-request-id': z.string().optional(),
    }),
    body: z.unknown(),
  })
  .meta({ id: 'SyncBatchAnswer' })
export type SyncBatchAnswer = z.infer<typeof SyncBatchAnswer>

export const SyncBatchResponse = z.object({ answers: z.array(SyncBatchAnswer) }).meta({ id: 'SyncBatchResponse' })
export type SyncBatchResponse = z.infer<typeof SyncBatchResponse>
