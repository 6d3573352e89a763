import { createFileRoute } from '@tanstack/react-router'
import { SpecialistsPage } from '../../../features/specialists/SpecialistsPage'

export const Route = createFileRoute('/_auth/specialists/')({ component: SpecialistsPage })
