/**
 * What the screens and the mutation modules may ask about the outbox: the queued changes of an
 * entity (for the optimistic view), the create a later change depends on, the last change of a
 * row, and one stored change. Only client/sync touches the outbox table (eslint.config.js).
 */
import type { LocalDb, Mutation, Row } from './local-db'
import { applyOutbox, type ViewRow } from './optimistic'

/** The entity's changes in the outbox (waiting, refused or in conflict), in queue order. */
export const pendingOf = (db: LocalDb, entity: Mutation['entity']): Promise<Mutation[]> => db.outbox.where('entity').equals(entity).toArray()

/** The rows with the entity's queued changes applied on top (the optimistic view). */
export const viewWithOutbox = async (db: LocalDb, entity: Mutation['entity'], rows: Row[]): Promise<ViewRow[]> =>
  applyOutbox(rows, await pendingOf(db, entity), entity)

/** The changes of one row in the outbox, in queue order. */
const changesOf = (db: LocalDb, entityId: string): Promise<Mutation[]> => db.outbox.where('entityId').equals(entityId).toArray()

/** The create (`kind`) of this row while it still waits in the outbox: later changes depend on it. */
export const pendingCreate = async (db: LocalDb, entityId: string, kind: string): Promise<Mutation | undefined> =>
  (await changesOf(db, entityId)).find((m) => m.kind === kind)

/** The last change of this row still in the outbox. */
export const lastChangeOf = async (db: LocalDb, entityId: string): Promise<Mutation | undefined> => (await changesOf(db, entityId)).at(-1)

/** A change as stored in the outbox, by its mutation id or its queue position; undefined once it left. */
export const storedChange = (db: LocalDb, key: { mutationId: string } | { seq: number }): Promise<Mutation | undefined> =>
  'seq' in key ? db.outbox.get(key.seq) : db.outbox.where('mutationId').equals(key.mutationId).first()
