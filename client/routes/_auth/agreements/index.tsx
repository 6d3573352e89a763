import { createFileRoute } from '@tanstack/react-router'
import { AgreementsPage } from '../../../features/agreements/AgreementsPage'

export const Route = createFileRoute('/_auth/agreements/')({ component: AgreementsPage })
