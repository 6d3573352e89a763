/**
 * The Idempotency-Keys we send to Vipps MobilePay. Vipps accepts 1–40 characters
 * (recurring-api-guide: idempotency; the Webhooks API answers "Missing or invalid Idempotency-Key
 * header" to a longer one), and our ids are UUIDs of 36 characters, so a key made of an id and a
 * qualifier must be built to fit. Every key is deterministic: the same record and action give the
 * same key, which is what makes a retry after a lost answer safe.
 */
import { createHash } from 'node:crypto'

export const VIPPS_IDEMPOTENCY_KEY_MAX = 40

/**
 * `parts` joined with '.', as long as that fits in 40 characters; else the first 40 characters of
 * the base64url SHA-256 of the joined text (240 bits: no two records share one).
 */
export function vippsIdempotencyKey(...parts: string[]): string {
  const joined = parts.join('.')
  if (joined.length >= 1 && joined.length <= VIPPS_IDEMPOTENCY_KEY_MAX) return joined
  return createHash('sha256').update(joined).digest('base64url').slice(0, VIPPS_IDEMPOTENCY_KEY_MAX)
}

/** One builder per kind of write, so every call site sends a key that fits. */
export const vippsKeys = {
  /** A provider-outbox row (charge, refund, capture, cancel, stop, price update): its id. */
  outboxRow: (rowId: string) => vippsIdempotencyKey(rowId),
  /** Creating the Vipps agreement when the member accepts: the agreement's id and version. */
  agreementDraft: (agreementId: string, version: number) => vippsIdempotencyKey(agreementId, version.toString(36)),
  /** Registering a webhook: the id of our webhook row. */
  webhookRegistration: (hookId: string) => vippsIdempotencyKey(hookId),
  /** Deleting a webhook: `del.` and our row id (40 characters for a UUID), unlike its registration. */
  webhookDeletion: (hookId: string) => vippsIdempotencyKey('del', hookId),
}
