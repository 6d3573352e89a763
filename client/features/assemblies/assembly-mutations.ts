/**
 * General assemblies and proposals (decision 0061) through the outbox: the board calls, edits, cancels
 * and closes an assembly, and members submit and withdraw proposals, also offline (at the meeting
 * in the common room); the server's answered row replaces the local guess.
 */
import { msg } from '@lingui/core/macro'
import type { Assembly, CreateAssemblyRequest, CreateProposalRequest, Proposal, UpdateAssemblyRequest } from '../../../shared/contract/assemblies'
import { copenhagenLocalToInstant, DEFAULT_REMINDER_DAYS, instantToCopenhagenLocal, plannedSendouts } from '../../../shared/domain/assembly'
import type { Mutation, Row } from '../../sync/local-db'
import { formats } from '../../sync/field-format'
import type { Values } from '../../sync/merge'
import { registerMutationKind, type EditField, type FieldFormat } from '../../sync/mutation-kinds'
import { answerAsRow, reduce } from '../../sync/optimistic'
import { lastChangeOf, pendingCreate as pendingCreateOf } from '../../sync/queue-reads'
import type { SyncHandle } from '../../sync/use-sync'

export const ASSEMBLY_CREATE = 'assembly.create'
export const ASSEMBLY_UPDATE = 'assembly.update'
export const ASSEMBLY_CANCEL = 'assembly.cancel'
export const ASSEMBLY_HELD = 'assembly.held'
export const PROPOSAL_SUBMIT = 'proposal.submit'
export const PROPOSAL_WITHDRAW = 'proposal.withdraw'

/** A Copenhagen wall time from a form as an instant; the mutation's own time for "at once". */
const instantOf = (local: string | null | undefined, fallback: string): string => (local ? (copenhagenLocalToInstant(local) ?? fallback) : fallback)

registerMutationKind(ASSEMBLY_CREATE, {
  reducer: reduce.insert((m) => {
    const body = m.body as CreateAssemblyRequest & { id: string }
    const at = new Date(m.createdAt).toISOString()
    const row: Omit<Assembly, 'version'> = {
      id: body.id,
      companyId: body.companyId,
      companyName: (m.preview as { companyName?: string } | undefined)?.companyName ?? '',
      title: body.title.trim(),
      heldAt: instantOf(body.heldAt, at),
      place: body.place.trim(),
      agenda: body.agenda.map((item) => item.trim()),
      proposalDeadline: instantOf(body.proposalDeadline, at),
      noticeAt: instantOf(body.noticeAt, at),
      reminderDays: body.reminderDays ?? [...DEFAULT_REMINDER_DAYS],
      status: 'PLANNED',
      sendouts: [],
      noticeSentAt: null,
      createdAt: at,
      updatedAt: at,
    }
    // What the server will schedule, as far as this device can tell; the server's answer replaces it.
    row.sendouts = plannedSendouts(row, at).map((s) => ({ kind: s.kind, days: s.days, dueAt: s.dueAt, sentAt: null, recipients: null }))
    return { ...row, _version: 0 } as Row
  }),
  label: msg`Create general assembly`,
  failed: msg`Failed to save the general assembly`,
  answeredRow: answerAsRow,
})

/** A stored instant as the form and the request hold it (Copenhagen wall time). */
const localOf = (name: string) => (row: Record<string, unknown>) => (typeof row[name] === 'string' ? instantToCopenhagenLocal(row[name]) : undefined)
const listOf: FieldFormat = (v, ctx) => (Array.isArray(v) && v.length ? v.join('; ') : formats.text(null, ctx))

/** The fields an edit can change, as the conflict screen names and shows them. */
export const assemblyEditFields: EditField[] = [
  { name: 'title', label: msg`Title`, format: formats.text },
  { name: 'heldAt', label: msg`Date and time`, format: formats.localDateTime, fromRow: localOf('heldAt') },
  { name: 'place', label: msg`Place`, format: formats.text },
  { name: 'agenda', label: msg`Agenda`, format: listOf },
  { name: 'proposalDeadline', label: msg`Deadline for proposals`, format: formats.localDateTime, fromRow: localOf('proposalDeadline') },
  { name: 'noticeAt', label: msg`Notice goes out`, format: formats.localDateTime, fromRow: localOf('noticeAt') },
  { name: 'reminderDays', label: msg`Reminders (days before)`, format: listOf },
]

registerMutationKind(ASSEMBLY_UPDATE, {
  reducer: reduce.patch((row, m) => {
    const body = m.body as UpdateAssemblyRequest
    const at = new Date(m.createdAt).toISOString()
    return {
      ...(body.title !== undefined ? { title: body.title.trim() } : {}),
      ...(body.heldAt !== undefined ? { heldAt: instantOf(body.heldAt, String(row.heldAt)) } : {}),
      ...(body.place !== undefined ? { place: body.place.trim() } : {}),
      ...(body.agenda !== undefined ? { agenda: body.agenda.map((item) => item.trim()) } : {}),
      ...(body.proposalDeadline !== undefined ? { proposalDeadline: instantOf(body.proposalDeadline, String(row.proposalDeadline)) } : {}),
      ...(body.noticeAt !== undefined ? { noticeAt: instantOf(body.noticeAt, at) } : {}),
      ...(body.reminderDays !== undefined ? { reminderDays: body.reminderDays } : {}),
    }
  }),
  label: msg`Edit general assembly`,
  failed: msg`Failed to save the general assembly`,
  answeredRow: answerAsRow,
  merge: {
    fields: () => assemblyEditFields,
    mine: (m) => {
      const body = m.body as UpdateAssemblyRequest
      const values: Values = {}
      for (const field of assemblyEditFields) if (field.name in body) values[field.name] = (body as Record<string, unknown>)[field.name]
      return values
    },
    body: (values) => values,
  },
})

registerMutationKind(ASSEMBLY_CANCEL, {
  reducer: reduce.patch(() => ({ status: 'CANCELLED' })),
  label: msg`Cancel general assembly`,
  failed: msg`Failed to cancel the general assembly`,
  answeredRow: answerAsRow,
})

registerMutationKind(ASSEMBLY_HELD, {
  reducer: reduce.patch(() => ({ status: 'HELD' })),
  label: msg`Mark general assembly as held`,
  failed: msg`Failed to save the general assembly`,
  answeredRow: answerAsRow,
})

registerMutationKind(PROPOSAL_SUBMIT, {
  reducer: reduce.insert((m) => {
    const body = m.body as CreateProposalRequest & { id: string }
    const preview = m.preview as { assemblyId: string; companyId: string; authorUserId: string; authorName: string }
    const at = new Date(m.createdAt).toISOString()
    const row: Omit<Proposal, 'version'> = {
      id: body.id,
      assemblyId: preview.assemblyId,
      companyId: preview.companyId,
      authorUserId: preview.authorUserId,
      authorName: preview.authorName,
      title: body.title.trim(),
      body: body.body.trim(),
      status: 'SUBMITTED',
      createdAt: at,
      updatedAt: at,
    }
    return { ...row, _version: 0 } as Row
  }),
  label: msg`Submit proposal`,
  failed: msg`Failed to submit the proposal`,
  answeredRow: answerAsRow,
})

registerMutationKind(PROPOSAL_WITHDRAW, {
  reducer: reduce.patch(() => ({ status: 'WITHDRAWN' })),
  label: msg`Withdraw proposal`,
  failed: msg`Failed to withdraw the proposal`,
  answeredRow: answerAsRow,
})

/** The create of this assembly while it still waits in the outbox: later changes depend on it. */
const pendingCreate = ({ db }: SyncHandle, id: string): Promise<Mutation | undefined> => pendingCreateOf(db, id, ASSEMBLY_CREATE)

/** POST /assemblies with a client-made id, so an assembly called offline keeps it. */
export const createAssembly = ({ engine }: SyncHandle, body: CreateAssemblyRequest & { id: string }, preview: { companyName: string }) =>
  engine.mutate({ kind: ASSEMBLY_CREATE, method: 'POST', path: '/assemblies', body, preview, entity: 'assembly', entityId: body.id })

/**
 * Only what the user changed against the assembly as it was when the form opened (Copenhagen wall
 * times compared as the form holds them): an unchanged field is never sent, so it cannot take back
 * a change made meanwhile elsewhere. Null when nothing changed.
 */
export function changedAssemblyFields(
  opened: Record<string, unknown>,
  edit: Required<Omit<UpdateAssemblyRequest, 'noticeAt'>> & Pick<UpdateAssemblyRequest, 'noticeAt'>,
) {
  const changes: UpdateAssemblyRequest = {}
  const base = (name: string) => assemblyEditFields.find((f) => f.name === name)!.fromRow?.(opened) ?? opened[name]
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)
  if (edit.title.trim() !== opened.title) changes.title = edit.title
  if (edit.heldAt !== base('heldAt')) changes.heldAt = edit.heldAt
  if (edit.place.trim() !== opened.place) changes.place = edit.place
  if (
    !same(
      edit.agenda.map((a) => a.trim()),
      opened.agenda,
    )
  )
    changes.agenda = edit.agenda
  if (edit.proposalDeadline !== base('proposalDeadline')) changes.proposalDeadline = edit.proposalDeadline
  if (edit.noticeAt !== undefined && edit.noticeAt !== base('noticeAt')) changes.noticeAt = edit.noticeAt
  if (!same(edit.reminderDays, opened.reminderDays)) changes.reminderDays = edit.reminderDays
  return Object.keys(changes).length ? changes : null
}

/** PATCH /assemblies/{id} with the changed fields, If-Match the version the form was opened on. */
export async function updateAssembly(handle: SyncHandle, opened: Record<string, unknown> & { id: string; _version: number }, body: UpdateAssemblyRequest) {
  const create = await pendingCreate(handle, opened.id)
  return handle.engine.mutate({
    kind: ASSEMBLY_UPDATE,
    method: 'PATCH',
    path: `/assemblies/${opened.id}`,
    body,
    baseRow: opened,
    entity: 'assembly',
    entityId: opened.id,
    // An assembly called here has no server version yet: its create answers with version 1.
    baseVersion: create ? 1 : opened._version,
    dependsOn: create?.mutationId,
  })
}

/**
 * The version a change of the assembly as the user sees it was made on (If-Match): an assembly
 * still waiting for its create has version 1 once it is made; a change still waiting before it
 * moves this one on when the server answers it (the drainer rebases followers).
 */
async function baseOf(handle: SyncHandle, row: { id: string; _version: number }) {
  const create = await pendingCreate(handle, row.id)
  const previous = await lastChangeOf(handle.db, row.id)
  return { baseVersion: create ? 1 : row._version, dependsOn: previous?.mutationId }
}

/** Cancels the assembly on the version the user saw (a stale one 412: they choose), after the changes to it still waiting. */
export async function cancelAssembly(handle: SyncHandle, row: { id: string; _version: number }) {
  return handle.engine.mutate({
    kind: ASSEMBLY_CANCEL,
    method: 'POST',
    path: `/assemblies/${row.id}/cancel`,
    entity: 'assembly',
    entityId: row.id,
    ...(await baseOf(handle, row)),
  })
}

/** Marks the assembly held on the version the user saw, after the changes to it still waiting. */
export async function markAssemblyHeld(handle: SyncHandle, row: { id: string; _version: number }) {
  return handle.engine.mutate({
    kind: ASSEMBLY_HELD,
    method: 'POST',
    path: `/assemblies/${row.id}/held`,
    entity: 'assembly',
    entityId: row.id,
    ...(await baseOf(handle, row)),
  })
}

/** POST /assemblies/{id}/proposals with a client-made id (after the assembly's own create, if that still waits). */
export async function submitProposal(
  handle: SyncHandle,
  assembly: { id: string; companyId: string },
  body: CreateProposalRequest & { id: string },
  author: { id: string; fullName: string },
) {
  const create = await pendingCreate(handle, assembly.id)
  return handle.engine.mutate({
    kind: PROPOSAL_SUBMIT,
    method: 'POST',
    path: `/assemblies/${assembly.id}/proposals`,
    body,
    preview: { assemblyId: assembly.id, companyId: assembly.companyId, authorUserId: author.id, authorName: author.fullName },
    entity: 'proposal',
    entityId: body.id,
    dependsOn: create?.mutationId,
  })
}

export async function withdrawProposal(handle: SyncHandle, proposal: { id: string; assemblyId: string }) {
  const submitted = await pendingCreateOf(handle.db, proposal.id, PROPOSAL_SUBMIT)
  return handle.engine.mutate({
    kind: PROPOSAL_WITHDRAW,
    method: 'POST',
    path: `/assemblies/${proposal.assemblyId}/proposals/${proposal.id}/withdraw`,
    entity: 'proposal',
    entityId: proposal.id,
    dependsOn: submitted?.mutationId,
  })
}
