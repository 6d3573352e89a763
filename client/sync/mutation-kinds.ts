/**
 * What each kind of mutation means to the user. A feature registers its kinds once (beside its
 * reducers); the sync status panel and the rejection messages read them, so the shell can name a
 * change ("Mark notification as read") without knowing the feature.
 *
 * A versioned edit (sent with If-Match) also registers its fields (`merge`): what the edit can
 * change, how each is named and shown to the user, so that a 412 can be merged field by field
 * (merge.ts) and the fields that really conflict can be offered as a choice in words.
 */
import type { I18n, MessageDescriptor } from '@lingui/core'
import type { Locale } from '../lib/format'
import type { Mutation, Row } from './local-db'
import type { MergeFieldSpec, Values } from './merge'
import { registerAnsweredRow, registerReducer, type AnsweredRow, type Reducer } from './optimistic'
import { goalHoldsWhenGone } from './outcomes'

/** How a value is shown on the conflict screen. */
export type FieldFormat = (value: unknown, ctx: { i18n: I18n; locale: Locale }) => string

export interface EditField extends MergeFieldSpec {
  /** The field's name as the user knows it ("Next payment date"). */
  label: MessageDescriptor
  /** The value (for a list: one item) in words; see field-format.ts. */
  format: FieldFormat
  /** The comparable value in a row (the local view row or the server's current row); default `row[name]`. */
  fromRow?: (row: Record<string, unknown>) => unknown
}

export interface MergeSpec {
  /** The fields an edit of this kind can change (may depend on the mutation, e.g. its path). */
  fields: (m: Pick<Mutation, 'path' | 'body'>) => EditField[]
  /** The values the edit sets, comparable with `fromRow` values; only the fields it sends. */
  mine: (m: Mutation) => Values
  /** The request body that sets these values (a subset of the fields, never empty). */
  body: (values: Values, m: Mutation) => unknown
}

export interface MutationKind {
  /** What the local change does to the rows (see optimistic.ts). */
  reducer: Reducer
  /** Names the change in lists: "Mark notification as read". */
  label: MessageDescriptor
  /** Shown when the server refuses it: docs/PRODUCT.md §8 wording where there is one. */
  failed: MessageDescriptor
  /** When the server answers with the whole row: how to keep that row once it is confirmed (see `answerAsRow`). */
  answeredRow?: AnsweredRow
  /** A versioned edit: its fields, for the merge after a 412 and the conflict screen. */
  merge?: MergeSpec
  /**
   * A 404/410 answer means the goal already holds (marking read a notification deleted
   * elsewhere): the change is done quietly and the local row dropped (outcomes.ts, drainer.ts).
   */
  goneIsDone?: boolean
}

const kinds = new Map<string, Omit<MutationKind, 'reducer'>>()

export function registerMutationKind(kind: string, info: MutationKind): void {
  registerReducer(kind, info.reducer)
  if (info.answeredRow) registerAnsweredRow(kind, info.answeredRow)
  if (info.goneIsDone) goalHoldsWhenGone(kind)
  kinds.set(kind, { label: info.label, failed: info.failed, merge: info.merge })
}

/** The registered texts of a kind; undefined for a kind this build does not know (an old queue). */
export const mutationKind = (kind: string) => kinds.get(kind)

/** The merge fields of a kind, or undefined when it has none. */
export const mergeSpecOf = (kind: string): MergeSpec | undefined => kinds.get(kind)?.merge

/** The comparable values of `fields` in a row (a field the row does not hold is left out: its base is unknown). */
export const rowValues = (fields: readonly EditField[], row: Record<string, unknown> | Row): Values =>
  Object.fromEntries(fields.filter((f) => f.name in row).map((f) => [f.name, f.fromRow ? f.fromRow(row) : row[f.name]]))

/** Only the entries of `values` named in `names`. */
export const pickValues = (values: Values, names: readonly string[]): Values => Object.fromEntries(names.filter((n) => n in values).map((n) => [n, values[n]]))
