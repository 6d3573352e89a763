import { createFileRoute } from '@tanstack/react-router'
import { NewThreadPage } from '../../../features/forum/NewThreadPage'

export const Route = createFileRoute('/_auth/forum/new')({ component: NewThreadPage })
