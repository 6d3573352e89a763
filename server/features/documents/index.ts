import { defineModule } from '../../kernel/module'
import { viewedScope } from '../../access/scope'
import { documentEvents, documents } from '../../db/schema/documents'
import { attachmentStore } from '../../integrations/files/attachment-store'
import { resolve } from 'node:path'
import { createDocumentsService, type DocumentsService } from './documents.service'
import { documentsRoutes } from './documents.routes'

declare module '../../kernel/module' {
  interface Services {
    documents: DocumentsService
  }
}

/** The association's documents with their history and offline copies (docs/decisions/0062). */
export const documentsModule = defineModule({
  name: 'documents',
  tables: [documents, documentEvents],
  services: {
    documents: (s, k) =>
      createDocumentsService({
        db: k.db,
        clock: k.clock,
        companies: s.companies,
        assemblies: s.assemblies,
        residency: s.residency,
        files: attachmentStore(resolve(k.filesDir, 'documents')),
        scanner: k.scanner,
        // The association's storage quota, read when an upload asks (docs/decisions/0082).
        quota: { assertRoom: (companyId, bytes, replacing) => s.storage.assertRoom(companyId, bytes, replacing) },
      }),
  },
  routes: (s) => [documentsRoutes(s.documents)],
  scopes: (s) => ({ document: viewedScope((actor, id) => s.documents.view(actor, id)) }),
  sync: (s) => [s.documents.syncEntity()],
  sweepFiles: (s) => s.documents.sweepFiles(),
})

// What other features use of this one (docs/ARCHITECTURE.md "Layers": a feature is reached through its entry).
