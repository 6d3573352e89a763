import { createFileRoute } from '@tanstack/react-router'
import { oneOf, searchOf } from '../../../lib/search-params'
import { documentCategories } from '../../../../shared/contract/values'
import { DocumentsPage } from '../../../features/documents/DocumentsPage'

export const Route = createFileRoute('/_auth/documents/')({
  validateSearch: searchOf({ category: oneOf(documentCategories) }),
  component: function Documents() {
    return <DocumentsPage category={Route.useSearch().category} />
  },
})
