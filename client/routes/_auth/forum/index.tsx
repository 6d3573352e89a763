import { createFileRoute } from '@tanstack/react-router'
import { ForumPage } from '../../../features/forum/ForumPage'

export const Route = createFileRoute('/_auth/forum/')({ component: ForumPage })
