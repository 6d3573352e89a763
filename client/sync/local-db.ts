/**
 * The offline store (docs/OFFLINE.md): one IndexedDB database per signed-in user, so signing in as
 * someone else never shows the previous user's data, and signing out can drop it whole.
 *
 * - Canonical tables hold rows exactly as the server last confirmed them (the `data` of a sync
 *   change), with `_version`.
 * - `outbox` holds the user's writes that the server has not confirmed yet, in order.
 * - `meta` holds the sync cursor and when the last pull finished.
 * Screens never read canonical rows alone: they read them with the outbox applied on top
 * (see optimistic.ts), so a change made offline shows at once and survives reloads.
 */
import Dexie, { type EntityTable } from 'dexie'
import type { SyncEntity } from '../../shared/contract/sync'

export type Row = Record<string, unknown> & { id: string; _version: number }

export type MutationStatus = 'queued' | 'sending' | 'rejected' | 'conflict'

export interface Mutation {
  /** Order of the queue. */
  seq?: number
  /** UUID, sent as Idempotency-Key: a resend is the same request to the server. */
  mutationId: string
  /** What the change does locally (a key of the reducers in optimistic.ts). */
  kind: string
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  path: string
  body?: unknown
  entity: SyncEntity
  entityId: string | null
  /** `_version` of the row the change was made on (sent as If-Match where the server versions it). */
  baseVersion?: number
  /** A mutation that must succeed first (e.g. the create of the row this edits). */
  dependsOn?: string
  /**
   * Local only, never sent: what the view shows for the change until the server answers (e.g. a new
   * agreement's member and addresses as the user picked them).
   */
  preview?: Record<string, unknown>
  /** Money actions are shown as "will be sent when online" until the server answers. */
  money?: boolean
  status: MutationStatus
  attempts: number
  nextAttemptAt: number
  lastError: string | null
  /** The server's current row when it answered 412. */
  conflict?: unknown
  /**
   * Local only: a versioned edit's fields as they were in the row the user edited (see
   * mutation-kinds.ts `merge`), so a 412 can be merged three ways, field by field (merge.ts).
   */
  base?: Record<string, unknown>
  /**
   * Local only: resent after a 412 merged it with a colleague's row. The user's later changes to
   * the row were made on a view that showed this change over the old row, so they are not moved
   * onto its answer's version: they meet a 412 of their own and merge against what they saw.
   */
  merged?: boolean
  createdAt: number
}

export interface Meta {
  key: 'cursor' | 'lastSyncedAt' | 'authPaused'
  value: unknown
}

/**
 * A server answer that is not a synced entity, kept as last received so its screen shows offline
 * (docs/OFFLINE.md "Local store"): `profile` is the Profile screen's GET /account/profile (sign-in methods,
 * companies, …); `pendingLanguage` a language chosen offline that the server has not been told yet.
 */
export interface Snapshot {
  key: 'profile' | 'pendingLanguage'
  value: unknown
  savedAt: number
}

/**
 * A document's file kept for reading offline, under its `fileId` (a replaced file has a new one).
 * `openedAt` orders the eviction when the cache is over its cap (client/features/documents).
 */
export interface DocumentFile {
  id: string
  documentId: string
  blob: Blob
  size: number
  openedAt: number
}

/**
 * A forum draft (decision 0066): `key` is `thread:<companyId>` for a new thread or `reply:<threadId>`
 * for a reply; kept on the device until it is sent.
 */
export interface ForumDraft {
  key: string
  title?: string
  body: string
  updatedAt: number
}

/** The last activity of a forum thread this user has seen on this device (its "New" marker). */
export interface ForumSeen {
  threadId: string
  lastActivityAt: string
}

export const entityTables = {
  agreement: 'agreements',
  charge: 'charges',
  invoice: 'invoices',
  notification: 'notifications',
  company: 'companies',
  address: 'addresses',
  member: 'members',
  paymentProvider: 'paymentProviders',
  message: 'messages',
  document: 'documents',
  assembly: 'assemblies',
  proposal: 'proposals',
  listing: 'listings',
  lendingItem: 'lendingItems',
  loan: 'loans',
  forumThread: 'forumThreads',
  forumPost: 'forumPosts',
  article: 'articles',
  specialist: 'specialists',
  household: 'households',
} as const satisfies Record<SyncEntity, string>

export type EntityTableName = (typeof entityTables)[SyncEntity]

export class LocalDb extends Dexie {
  agreements!: EntityTable<Row, 'id'>
  charges!: EntityTable<Row, 'id'>
  invoices!: EntityTable<Row, 'id'>
  notifications!: EntityTable<Row, 'id'>
  companies!: EntityTable<Row, 'id'>
  addresses!: EntityTable<Row, 'id'>
  members!: EntityTable<Row, 'id'>
  paymentProviders!: EntityTable<Row, 'id'>
  messages!: EntityTable<Row, 'id'>
  documents!: EntityTable<Row, 'id'>
  assemblies!: EntityTable<Row, 'id'>
  proposals!: EntityTable<Row, 'id'>
  listings!: EntityTable<Row, 'id'>
  lendingItems!: EntityTable<Row, 'id'>
  loans!: EntityTable<Row, 'id'>
  forumThreads!: EntityTable<Row, 'id'>
  forumPosts!: EntityTable<Row, 'id'>
  articles!: EntityTable<Row, 'id'>
  specialists!: EntityTable<Row, 'id'>
  /** The association's households with their residents (docs/decisions/0090). */
  households!: EntityTable<Row, 'id'>
  /** What a user typed into a new thread or a reply, kept as they type (client/features/forum/drafts.ts). */
  forumDrafts!: EntityTable<ForumDraft, 'key'>
  forumSeen!: EntityTable<ForumSeen, 'threadId'>
  /** Document files kept for offline reading (not a synced entity: see client/features/documents). */
  documentFiles!: EntityTable<DocumentFile, 'id'>
  outbox!: EntityTable<Mutation, 'seq'>
  meta!: EntityTable<Meta, 'key'>
  snapshots!: EntityTable<Snapshot, 'key'>

  constructor(userId: string) {
    super(localDbName(userId))
    // Schema history: add a new version() for every change; Dexie migrates old databases.
    this.version(1).stores({
      agreements: 'id, companyId, status',
      charges: 'id, agreementId, companyId',
      invoices: 'id, companyId, issueDate',
      notifications: 'id, createdAt',
      companies: 'id',
      addresses: 'id, companyId',
      members: 'id, companyId',
      paymentProviders: 'id, companyId',
      outbox: '++seq, &mutationId, status, entity, entityId',
      meta: 'key',
    })
    // Messages (drafts are written offline through the outbox).
    this.version(2).stores({ messages: 'id, companyId, status' })
    // The last profile answer and a language chosen offline (see Snapshot).
    this.version(3).stores({ snapshots: 'key' })
    // Indexes no screen reads by are dropped (agreements.status, charges.companyId,
    // invoices.issueDate, messages.companyId and .status): every index is one more write per row
    // in a pull. Add an index back (in a new version) when a query needs it.
    this.version(4).stores({ agreements: 'id, companyId', charges: 'id, agreementId', invoices: 'id, companyId', messages: 'id' })
    // Documents (with their files cached for offline reading), general assemblies and proposals.
    this.version(5).stores({ documents: 'id, companyId', assemblies: 'id, companyId', proposals: 'id, assemblyId', documentFiles: 'id, documentId, openedAt' })
    // The market's listings.
    this.version(6).stores({ listings: 'id, companyId' })
    // Lending's items and loans.
    this.version(7).stores({ lendingItems: 'id, companyId', loans: 'id, itemId, companyId' })
    // The knowledge bank's articles (platform ones have no companyId) and the specialists.
    this.version(8).stores({ articles: 'id, companyId', specialists: 'id, companyId' })
    // The forum's threads and posts, the drafts of new threads and replies, and what was seen.
    this.version(9).stores({ forumThreads: 'id, companyId', forumPosts: 'id, threadId', forumDrafts: 'key', forumSeen: 'threadId' })
    // Households with their residents over time (docs/decisions/0090).
    this.version(10).stores({ households: 'id, companyId' })
  }

  table_(entity: SyncEntity) {
    return this.table<Row, string>(entityTables[entity])
  }

  canonicalTables() {
    return Object.values(entityTables).map((name) => this.table<Row, string>(name))
  }
}

export const localDbName = (userId: string) => `boligkasse-${userId}`

/** Deletes a user's local copy (sign out). */
export const deleteLocalDb = (userId: string) => Dexie.delete(localDbName(userId))
