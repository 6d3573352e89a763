import { createFileRoute } from '@tanstack/react-router'
import { DocumentPage } from '../../../features/documents/DocumentPage'

export const Route = createFileRoute('/_auth/documents/$id')({
  component: function Document() {
    return <DocumentPage id={Route.useParams().id} />
  },
})
