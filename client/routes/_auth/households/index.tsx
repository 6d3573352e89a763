import { createFileRoute } from '@tanstack/react-router'
import { HouseholdsPage } from '../../../features/households/HouseholdsPage'

export const Route = createFileRoute('/_auth/households/')({ component: HouseholdsPage })
