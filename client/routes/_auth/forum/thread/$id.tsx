import { createFileRoute } from '@tanstack/react-router'
import { ThreadPage } from '../../../../features/forum/ThreadPage'

export const Route = createFileRoute('/_auth/forum/thread/$id')({
  component: function Thread() {
    return <ThreadPage id={Route.useParams().id} />
  },
})
