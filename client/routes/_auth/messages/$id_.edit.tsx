import { createFileRoute } from '@tanstack/react-router'
import { MessageFormPage } from '../../../features/messages/MessageFormPage'

export const Route = createFileRoute('/_auth/messages/$id_/edit')({
  component: function EditMessage() {
    return <MessageFormPage id={Route.useParams().id} />
  },
})
