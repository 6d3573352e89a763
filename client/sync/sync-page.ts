/**
 * Reads a GET /api/sync answer (shared/contract/sync.ts `SyncResponse`) without zod: a first pull
 * of 20,000 rows spent half a second of the main thread in `SyncResponse.safeParse`, which also
 * copies every change. This checks the same shape, field by field, and hands back the parsed JSON
 * as it is; the `data` of a change stays opaque, as in the contract.
 */
import { syncEntities } from '../../shared/contract/sync-basics'
import type { SyncChange, SyncResponse } from '../../shared/contract/sync'

const entities: ReadonlySet<string> = new Set(syncEntities)

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

function isChange(value: unknown): value is SyncChange {
  if (!isObject(value) || typeof value.id !== 'string' || typeof value.entity !== 'string' || !entities.has(value.entity)) return false
  if (value.op === 'delete') return true
  return value.op === 'upsert' && Number.isInteger(value.version) && isObject(value.data)
}

/** The page, or undefined when the body is not a `SyncResponse`. */
export function readSyncPage(body: unknown): SyncResponse | undefined {
  if (!isObject(body) || typeof body.cursor !== 'string' || typeof body.hasMore !== 'boolean' || typeof body.reset !== 'boolean') return undefined
  const { changes } = body
  if (!Array.isArray(changes)) return undefined
  for (const change of changes) if (!isChange(change)) return undefined
  return body as SyncResponse
}
