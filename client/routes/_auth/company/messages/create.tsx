import { createFileRoute } from '@tanstack/react-router'
import { MessageFormPage } from '../../../../features/messages/MessageFormPage'

export const Route = createFileRoute('/_auth/company/messages/create')({ component: () => <MessageFormPage /> })
