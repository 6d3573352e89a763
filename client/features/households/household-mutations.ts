/**
 * Households through the outbox (docs/decisions/0090): staff change a household's figures, add and
 * change residents, also offline; a move is a money action (it ends an agreement with its final
 * settlement), queued like a termination and shown as waiting until the server accepted it. The
 * server answers with the household (a move: inside its answer), which replaces the local guess.
 */
import { msg } from '@lingui/core/macro'
import type { AddResidentInput, RegisterMoveInput, Resident, UpdateHouseholdInput, UpdateResidentRequest } from '../../../shared/contract/households'
import type { Row } from '../../sync/local-db'
import { registerMutationKind } from '../../sync/mutation-kinds'
import { answerAsRow, reduce, type AnsweredRow } from '../../sync/optimistic'
import type { SyncHandle } from '../../sync/use-sync'

export const HOUSEHOLD_UPDATE = 'household.update'
export const RESIDENT_ADD = 'household.resident.add'
export const RESIDENT_UPDATE = 'household.resident.update'
export const HOUSEHOLD_MOVE = 'household.move'

/** A move answers `{ …, household }`: that household is the row. */
const moveAnswerAsRow: AnsweredRow = (answer, m) => answerAsRow((answer as { household?: unknown } | null)?.household ?? null, m)

registerMutationKind(HOUSEHOLD_UPDATE, {
  reducer: reduce.patch((_row, m) => Object.fromEntries(Object.entries(m.body as UpdateHouseholdInput).map(([k, v]) => [k, v === '' ? null : v]))),
  label: msg`Edit household`,
  failed: msg`Failed to save the household`,
  answeredRow: answerAsRow,
})

registerMutationKind(RESIDENT_ADD, {
  reducer: reduce.patch((row, m) => {
    const body = m.body as AddResidentInput & { id: string }
    const resident: Resident = {
      id: body.id,
      householdId: row.id,
      userId: body.userId ?? '',
      fullName: body.fullName ?? '',
      emailAddress: body.emailAddress ?? null,
      moveInDate: body.moveInDate as string,
      moveOutDate: (body.moveOutDate as string | null | undefined) ?? null,
      kind: body.kind as Resident['kind'],
      isPayer: body.isPayer ?? false,
    }
    return { residents: [...((row.residents as Resident[] | undefined) ?? []), resident] } as Partial<Row>
  }),
  label: msg`Add resident`,
  failed: msg`Failed to add the resident`,
  answeredRow: answerAsRow,
})

registerMutationKind(RESIDENT_UPDATE, {
  reducer: reduce.patch((row, m) => {
    const { residentId, ...fields } = m.body as UpdateResidentRequest & { residentId?: string }
    const id = residentId ?? m.path.split('/').pop()
    return { residents: ((row.residents as Resident[] | undefined) ?? []).map((r) => (r.id === id ? { ...r, ...fields } : r)) } as Partial<Row>
  }),
  label: msg`Change resident`,
  failed: msg`Failed to save the resident`,
  answeredRow: answerAsRow,
})

registerMutationKind(HOUSEHOLD_MOVE, {
  reducer: reduce.patch((row, m) => {
    const body = m.body as RegisterMoveInput
    const leaving = new Set(body.leaving ?? [])
    return {
      residents: ((row.residents as Resident[] | undefined) ?? []).map((r) => (leaving.has(r.id) ? { ...r, moveOutDate: body.moveDate as string } : r)),
    } as Partial<Row>
  }),
  label: msg`Register move`,
  failed: msg`Failed to register the move`,
  answeredRow: moveAnswerAsRow,
})

/** PATCH /households/{id} with the fields that changed; null when nothing changed. */
export function updateHousehold(handle: SyncHandle, opened: Record<string, unknown> & { id: string; _version: number }, edit: UpdateHouseholdInput) {
  const body = Object.fromEntries(Object.entries(edit).filter(([k, v]) => v !== undefined && (opened[k] ?? '') !== (v ?? ''))) as UpdateHouseholdInput
  if (Object.keys(body).length === 0) return null
  return handle.engine.mutate({
    kind: HOUSEHOLD_UPDATE,
    method: 'PATCH',
    path: `/households/${opened.id}`,
    body,
    baseRow: opened,
    entity: 'household',
    entityId: opened.id,
    baseVersion: opened._version,
  })
}

/** POST /households/{id}/residents with a client-made id. */
export const addResident = ({ engine }: SyncHandle, householdId: string, body: AddResidentInput & { id: string }) =>
  engine.mutate({ kind: RESIDENT_ADD, method: 'POST', path: `/households/${householdId}/residents`, body, entity: 'household', entityId: householdId })

/** PATCH /households/{id}/residents/{residentId}. */
export const updateResident = ({ engine }: SyncHandle, householdId: string, residentId: string, body: UpdateResidentRequest) =>
  engine.mutate({
    kind: RESIDENT_UPDATE,
    method: 'PATCH',
    path: `/households/${householdId}/residents/${residentId}`,
    body,
    entity: 'household',
    entityId: householdId,
  })

/** POST /households/{id}/moves with a client-made id: a money action, one move however often it is sent. */
export const registerMove = ({ engine }: SyncHandle, householdId: string, body: RegisterMoveInput & { id: string }) =>
  engine.mutate({
    kind: HOUSEHOLD_MOVE,
    method: 'POST',
    path: `/households/${householdId}/moves`,
    body,
    entity: 'household',
    entityId: householdId,
    money: true,
  })
