import { z } from 'zod'

/** Entities the offline client keeps (docs/API.md "Sync"). */
export const syncEntities = ['agreement', 'charge', 'invoice', 'notification', 'company', 'address', 'member', 'paymentProvider', 'message'] as const
export const SyncEntity = z.enum(syncEntities)
export type SyncEntity = z.infer<typeof SyncEntity>

export const SYNC_DEFAULT_LIMIT = 500
export const SYNC_MAX_LIMIT = 2000

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
