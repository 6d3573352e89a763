/**
 * The association's specialists through the outbox (decision 0065): its staff add, edit and remove
 * them, also offline; the server's answered row replaces the local guess.
 */
import { msg } from '@lingui/core/macro'
import type { CreateSpecialistRequest, Specialist, UpdateSpecialistRequest } from '../../../shared/contract/specialists'
import type { Row } from '../../sync/local-db'
import type { Values } from '../../sync/merge'
import { registerMutationKind } from '../../sync/mutation-kinds'
import { answerAsRow, reduce } from '../../sync/optimistic'
import type { SyncHandle } from '../../sync/use-sync'

export const SPECIALIST_CREATE = 'specialist.create'
export const SPECIALIST_UPDATE = 'specialist.update'
export const SPECIALIST_DELETE = 'specialist.delete'

/** The parsed request's fields as the row keeps them (empty optional texts are null). */
const valuesOf = (body: UpdateSpecialistRequest): Values => Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined))

registerMutationKind(SPECIALIST_CREATE, {
  reducer: reduce.insert((m) => {
    const body = m.body as CreateSpecialistRequest & { id: string }
    const at = new Date(m.createdAt).toISOString()
    const row: Omit<Specialist, 'version'> = {
      id: body.id,
      companyId: body.companyId,
      kind: body.kind,
      name: body.name,
      companyName: body.companyName ?? null,
      phone: body.phone ?? null,
      email: body.email ?? null,
      website: body.website ?? null,
      address: body.address ?? null,
      notes: body.notes ?? '',
      createdAt: at,
      updatedAt: at,
    }
    return { ...row, _version: 0 } as Row
  }),
  label: msg`New specialist`,
  failed: msg`Failed to save the specialist`,
  answeredRow: answerAsRow,
})

registerMutationKind(SPECIALIST_UPDATE, {
  reducer: reduce.patch((_row, m) => valuesOf(m.body as UpdateSpecialistRequest)),
  label: msg`Edit specialist`,
  failed: msg`Failed to save the specialist`,
  answeredRow: answerAsRow,
})

registerMutationKind(SPECIALIST_DELETE, {
  reducer: reduce.remove(),
  label: msg`Remove specialist`,
  failed: msg`Failed to remove the specialist`,
})

/** POST /specialists with a client-made id (the parsed request: emails lower case, web addresses with https://). */
export const createSpecialist = ({ engine }: SyncHandle, body: CreateSpecialistRequest & { id: string }) =>
  engine.mutate({ kind: SPECIALIST_CREATE, method: 'POST', path: '/specialists', body, entity: 'specialist', entityId: body.id })

/** PATCH /specialists/{id} with the fields that changed (an emptied field as ""); null when nothing changed. */
export function updateSpecialist(handle: SyncHandle, opened: Record<string, unknown> & { id: string; _version: number }, edit: UpdateSpecialistRequest) {
  const changed = Object.entries(valuesOf(edit)).filter(([k, v]) => (opened[k] ?? null) !== v)
  if (changed.length === 0) return null
  // A cleared optional field goes as "" (the request's "none").
  const body = Object.fromEntries(changed.map(([k, v]) => [k, v === null ? '' : v])) as UpdateSpecialistRequest
  return handle.engine.mutate({
    kind: SPECIALIST_UPDATE,
    method: 'PATCH',
    path: `/specialists/${opened.id}`,
    body,
    baseRow: opened,
    entity: 'specialist',
    entityId: opened.id,
    baseVersion: opened._version,
  })
}

export const deleteSpecialist = (handle: SyncHandle, row: { id: string; _version: number }) =>
  handle.engine.mutate({
    kind: SPECIALIST_DELETE,
    method: 'DELETE',
    path: `/specialists/${row.id}`,
    entity: 'specialist',
    entityId: row.id,
    baseVersion: row._version,
  })
