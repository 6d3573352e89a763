/**
 * What each kind of mutation means to the user. A feature registers its kinds once (beside its
 * reducers); the sync status panel and the rejection messages read them, so the shell can name a
 * change ("Mark notification as read") without knowing the feature.
 */
import type { MessageDescriptor } from '@lingui/core'
import { registerAnsweredRow, registerReducer, type AnsweredRow, type Reducer } from './optimistic'

export interface MutationKind {
  /** What the local change does to the rows (see optimistic.ts). */
  reducer: Reducer
  /** Names the change in lists: "Mark notification as read". */
  label: MessageDescriptor
  /** Shown when the server refuses it: spec §8 wording where there is one. */
  failed: MessageDescriptor
  /** When the server answers with the whole row: how to keep that row once it is confirmed (see `answerAsRow`). */
  answeredRow?: AnsweredRow
}

const kinds = new Map<string, Omit<MutationKind, 'reducer'>>()

export function registerMutationKind(kind: string, info: MutationKind): void {
  registerReducer(kind, info.reducer)
  if (info.answeredRow) registerAnsweredRow(kind, info.answeredRow)
  kinds.set(kind, { label: info.label, failed: info.failed })
}

/** The registered texts of a kind; undefined for a kind this build does not know (an old queue). */
export const mutationKind = (kind: string) => kinds.get(kind)
