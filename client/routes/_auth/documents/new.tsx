import { createFileRoute } from '@tanstack/react-router'
import { oneOf, recordId, searchOf } from '../../../lib/search-params'
import { documentCategories } from '../../../../shared/contract/values'
import { DocumentUploadPage } from '../../../features/documents/DocumentUploadPage'

export const Route = createFileRoute('/_auth/documents/new')({
  validateSearch: searchOf({ assemblyId: recordId, category: oneOf(documentCategories) }),
  component: function NewDocument() {
    const { assemblyId, category } = Route.useSearch()
    return <DocumentUploadPage assemblyId={assemblyId} category={category} />
  },
})
