import { createFileRoute } from '@tanstack/react-router'
import { SpecialistFormPage } from '../../../features/specialists/SpecialistFormPage'

export const Route = createFileRoute('/_auth/specialists/new')({ component: () => <SpecialistFormPage /> })
