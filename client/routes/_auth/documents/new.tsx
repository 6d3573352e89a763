import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod'
import { DocumentCategory } from '../../../../shared/contract/documents'
import { DocumentUploadPage } from '../../../features/documents/DocumentUploadPage'

export const Route = createFileRoute('/_auth/documents/new')({
  validateSearch: z.object({ assemblyId: z.uuid().optional().catch(undefined), category: DocumentCategory.optional().catch(undefined) }),
  component: function NewDocument() {
    const { assemblyId, category } = Route.useSearch()
    return <DocumentUploadPage assemblyId={assemblyId} category={category} />
  },
})
