import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod'
import { DocumentCategory } from '../../../../shared/contract/documents'
import { DocumentsPage } from '../../../features/documents/DocumentsPage'

export const Route = createFileRoute('/_auth/documents/')({
  validateSearch: z.object({ category: DocumentCategory.optional().catch(undefined) }),
  component: function Documents() {
    return <DocumentsPage category={Route.useSearch().category} />
  },
})
