import { createFileRoute } from '@tanstack/react-router'
import { ReportsPage } from '../../../features/forum/ReportsPage'

export const Route = createFileRoute('/_auth/forum/reports')({ component: ReportsPage })
