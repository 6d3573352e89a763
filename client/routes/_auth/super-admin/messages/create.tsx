import { createFileRoute } from '@tanstack/react-router'
import { MessageFormPage } from '../../../../features/messages/MessageFormPage'

export const Route = createFileRoute('/_auth/super-admin/messages/create')({ component: () => <MessageFormPage /> })
