import { createFileRoute } from '@tanstack/react-router'
import { CreateAgreementPage } from '../../../features/agreements/CreateAgreementPage'

export const Route = createFileRoute('/_auth/agreements/create')({ component: CreateAgreementPage })
