/**
 * The sync contract's plain values (docs/API.md "Sync"), apart from its schemas in sync.ts so the
 * client's first module (client/sync/early-pull.ts, which starts the first pull before the rest
 * of the app loads) does not load zod.
 */

/** Entities the offline client keeps. */
export const syncEntities = [
  'agreement',
  'charge',
  'invoice',
  'notification',
  'company',
  'address',
  'member',
  'paymentProvider',
  'message',
  'document',
  'assembly',
  'proposal',
  'listing',
  'lendingItem',
  'loan',
  'forumThread',
  'forumPost',
  'article',
  'specialist',
  'household',
] as const

export const SYNC_DEFAULT_LIMIT = 500
export const SYNC_MAX_LIMIT = 2000
/** At most this many mutations in one `POST /api/sync/batch` (docs/API.md "Batch"). */
export const SYNC_BATCH_MAX_ITEMS = 50
