import { createFileRoute } from '@tanstack/react-router'
import { oneOf, searchOf } from '../../../../lib/search-params'
import { messageStatuses } from '../../../../../shared/contract/values'
import { MessagesPage } from '../../../../features/messages/MessagesPage'

export const Route = createFileRoute('/_auth/company/messages/')({
  validateSearch: searchOf({ status: oneOf(messageStatuses) }),
  component: function Messages() {
    return <MessagesPage status={Route.useSearch().status} />
  },
})
