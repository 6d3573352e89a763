import { createFileRoute } from '@tanstack/react-router'
import { MessagePage } from '../../../../features/messages/MessagePage'

export const Route = createFileRoute('/_auth/member/messages/$id')({
  component: function Message() {
    return <MessagePage id={Route.useParams().id} />
  },
})
