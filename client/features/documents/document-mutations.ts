/**
 * Changes to documents that work offline (decision 0062): a document's title, category and audience,
 * and its deletion, go through the outbox (If-Match its version; a 412 is merged field by field).
 * Uploading and replacing a file need a connection (online calls in DocumentUploadPage/DocumentPage).
 */
import { msg } from '@lingui/core/macro'
import type { UpdateDocumentRequest } from '../../../shared/contract/documents'
import { formats } from '../../sync/field-format'
import type { Values } from '../../sync/merge'
import { registerMutationKind, type EditField } from '../../sync/mutation-kinds'
import { answerAsRow, reduce } from '../../sync/optimistic'
import type { SyncHandle } from '../../sync/use-sync'
import { audienceLabels, categoryLabels } from './labels'

export const DOCUMENT_UPDATE = 'document.update'
export const DOCUMENT_DELETE = 'document.delete'

export const documentEditFields: EditField[] = [
  { name: 'title', label: msg`Title`, format: formats.text },
  { name: 'category', label: msg`Category`, format: formats.oneOf(categoryLabels) },
  { name: 'audience', label: msg`Who may read it`, format: formats.oneOf(audienceLabels) },
]

const valuesOf = (body: UpdateDocumentRequest): Values => {
  const values: Values = {}
  if (body.title !== undefined) values.title = body.title.trim()
  if (body.category !== undefined) values.category = body.category
  if (body.audience !== undefined) values.audience = body.audience
  return values
}

registerMutationKind(DOCUMENT_UPDATE, {
  reducer: reduce.patch((_row, m) => valuesOf(m.body as UpdateDocumentRequest)),
  label: msg`Edit document`,
  failed: msg`Failed to save the document`,
  answeredRow: answerAsRow,
  merge: { fields: () => documentEditFields, mine: (m) => valuesOf(m.body as UpdateDocumentRequest), body: (values) => values },
})

registerMutationKind(DOCUMENT_DELETE, {
  reducer: reduce.remove(),
  label: msg`Delete document`,
  failed: msg`Failed to delete the document`,
})

/** PATCH /documents/{id} with the fields that changed against the row the form opened on; null when nothing changed. */
export function updateDocument(handle: SyncHandle, opened: Record<string, unknown> & { id: string; _version: number }, edit: UpdateDocumentRequest) {
  const body = Object.fromEntries(Object.entries(valuesOf(edit)).filter(([k, v]) => opened[k] !== v)) as UpdateDocumentRequest
  if (Object.keys(body).length === 0) return null
  return handle.engine.mutate({
    kind: DOCUMENT_UPDATE,
    method: 'PATCH',
    path: `/documents/${opened.id}`,
    body,
    baseRow: opened,
    entity: 'document',
    entityId: opened.id,
    baseVersion: opened._version,
  })
}

export const deleteDocument = (handle: SyncHandle, row: { id: string; _version: number }) =>
  handle.engine.mutate({
    kind: DOCUMENT_DELETE,
    method: 'DELETE',
    path: `/documents/${row.id}`,
    entity: 'document',
    entityId: row.id,
    baseVersion: row._version,
  })
