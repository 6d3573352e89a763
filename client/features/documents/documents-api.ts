/**
 * The documents calls that need a connection (decision 0062): uploading and replacing a file (the
 * bytes go straight to the server, which checks type, size and scan) and the audit trail. The
 * rest of the documents' data comes from the synced local copy (use-documents.ts).
 */
import { z } from 'zod'
import { Document, DocumentEvent, type DocumentUploadFields } from '../../../shared/contract/documents'
import { api, type ActionKey } from '../../lib/api'

export function uploadDocument(fields: DocumentUploadFields, file: File, action: ActionKey): Promise<Document> {
  const form = new FormData()
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) form.set(k, v)
  form.set('file', file)
  return api('POST', '/documents', { body: form, schema: Document, action })
}

export function replaceDocumentFile(id: string, file: File, version: number, action: ActionKey): Promise<Document> {
  const form = new FormData()
  form.set('file', file)
  return api('PUT', `/documents/${id}/file`, { body: form, schema: Document, ifMatch: version, action })
}

const History = z.array(DocumentEvent)

export const documentHistory = (id: string): Promise<DocumentEvent[]> => api('GET', `/documents/${id}/history`, { schema: History })
