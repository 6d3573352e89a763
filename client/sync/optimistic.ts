/**
 * The optimistic view: canonical rows with the pending outbox applied on top, in queue order.
 * Pull may overwrite canonical rows at any time; because pending changes are re-applied on
 * every read, they are rebased onto whatever the server sent last (docs/OFFLINE.md "Pull").
 *
 * Features register a reducer per mutation kind, describing what the change does locally.
 */
import type { LocalDb, Mutation, Row } from './local-db'

export type ViewRow = Row & {
  /** A change to this row is waiting to reach the server. */
  _pending?: boolean
  /** The server refused a change to this row; its message. */
  _rejected?: string
}

/** Returns the rows after the mutation (a new array; rows are not mutated in place). */
export type Reducer = (rows: ViewRow[], mutation: Mutation) => ViewRow[]

const reducers = new Map<string, Reducer>()

export function registerReducer(kind: string, reducer: Reducer): void {
  reducers.set(kind, reducer)
}

/** Turns a confirmed mutation's answer into the canonical row, for kinds answered with the whole row. */
export type AnsweredRow = (answer: unknown, mutation: Mutation) => Row | null
const answeredRows = new Map<string, AnsweredRow>()

export function registerAnsweredRow(kind: string, toRow: AnsweredRow): void {
  answeredRows.set(kind, toRow)
}

/** The usual answer: the record as the sync data shows it, with `id` and `version`. */
export const answerAsRow: AnsweredRow = (answer, m) => {
  const a = answer as { id?: unknown; version?: unknown } | null | undefined
  if (!a || typeof a !== 'object' || a.id !== m.entityId || typeof a.version !== 'number') return null
  const { version, ...data } = a as Record<string, unknown> & { id: string; version: number }
  return { ...data, id: a.id as string, _version: version }
}

/** Helpers for the common shapes of change. */
export const reduce = {
  /** Changes fields of the row `mutation.entityId`. */
  patch:
    (fields: (row: ViewRow, mutation: Mutation) => Partial<Row>): Reducer =>
    (rows, m) =>
      rows.map((r) => (r.id === m.entityId ? { ...r, ...fields(r, m) } : r)),
  /** Changes fields of every row. */
  patchAll:
    (fields: (row: ViewRow, mutation: Mutation) => Partial<Row>): Reducer =>
    (rows, m) =>
      rows.map((r) => ({ ...r, ...fields(r, m) })),
  /** Removes the row `mutation.entityId`. */
  remove: (): Reducer => (rows, m) => rows.filter((r) => r.id !== m.entityId),
  /** Adds (or replaces) the row built from the mutation. */
  insert:
    (build: (mutation: Mutation) => Row): Reducer =>
    (rows, m) => {
      const row = build(m)
      return [...rows.filter((r) => r.id !== row.id), row]
    },
}

/**
 * Applies the entity's pending and rejected mutations in order. A rejected mutation is not applied
 * (the server refused it) but marks its row, so the user sees what did not go through.
 *
 * A mutation naming a row (`entityId`) is reduced over that row alone, so a long queue over a big
 * table costs one step per mutation, not one pass over the table (this runs on every live read).
 */
export function applyOutbox(rows: Row[], outbox: Mutation[], entity: Mutation['entity']): ViewRow[] {
  // Insertion-ordered: a changed row keeps its place, an inserted one goes last.
  let view = new Map<string, ViewRow>(rows.map((r) => [r.id, r]))
  for (const m of outbox) {
    if (m.entity !== entity) continue
    if (m.status === 'rejected' || m.status === 'conflict') {
      const row = m.entityId ? view.get(m.entityId) : undefined
      if (row) view.set(row.id, { ...row, _rejected: m.lastError ?? '' })
      continue
    }
    const reducer = reducers.get(m.kind)
    if (!reducer) continue
    if (m.entityId) {
      const row = view.get(m.entityId)
      const after = reducer(row ? [row] : [], m)
      if (row && !after.some((r) => r.id === row.id)) view.delete(row.id)
      for (const r of after) view.set(r.id, r.id === m.entityId ? { ...r, _pending: true } : r)
    } else {
      view = new Map(reducer([...view.values()], m).map((r) => [r.id, { ...r, _pending: true }]))
    }
  }
  return [...view.values()]
}

/**
 * Puts the server's own row into the canonical table when the kind knows how to read it from an
 * answer (`registerAnsweredRow`) and it is not older than what the device has. Returns whether it did.
 */
export async function putServedRow(db: LocalDb, m: Mutation, answer: unknown): Promise<boolean> {
  const served = answeredRows.get(m.kind)?.(answer, m)
  if (!served) return false
  const table = db.table_(m.entity)
  const current = await table.get(served.id)
  if (!current || current._version <= served._version) await table.put(served)
  return true
}

/**
 * Folds a mutation the server just confirmed into the canonical rows, so the view keeps showing
 * it between leaving the outbox and the next pull (which then brings the server's own row).
 * Only the row the mutation names is read, or the whole table for a change to every row.
 */
export async function applyToCanonical(db: LocalDb, m: Mutation, answer?: unknown): Promise<void> {
  const table = db.table_(m.entity)
  // The server answered with the whole row: that is better than our guess (it has the
  // server-made fields, e.g. an agreement's number, and the new version).
  if (await putServedRow(db, m, answer)) return
  const reducer = reducers.get(m.kind)
  if (!reducer) return
  const before: Row[] = m.entityId ? await table.where('id').equals(m.entityId).toArray() : await table.toArray()
  const after = reducer(before, m)
  const kept = new Set(after.map((r) => r.id))
  const gone = before.filter((r) => !kept.has(r.id)).map((r) => r.id)
  const changed = after.filter((r) => !before.includes(r)).map(({ _pending, _rejected, ...row }) => row as Row)
  if (gone.length) await table.bulkDelete(gone)
  if (changed.length) await table.bulkPut(changed)
}
