import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod'
import { MessageStatus } from '../../../../../shared/contract/messages'
import { MessagesPage } from '../../../../features/messages/MessagesPage'

export const Route = createFileRoute('/_auth/member/messages/')({
  validateSearch: z.object({ status: MessageStatus.optional().catch(undefined) }),
  component: function Messages() {
    return <MessagesPage status={Route.useSearch().status} />
  },
})
