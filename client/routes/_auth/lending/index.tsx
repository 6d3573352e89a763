import { createFileRoute } from '@tanstack/react-router'
import { LendingPage } from '../../../features/lending/LendingPage'

export const Route = createFileRoute('/_auth/lending/')({ component: LendingPage })
