import { createFileRoute } from '@tanstack/react-router'
import { EditAgreementPage } from '../../../features/agreements/EditAgreementPage'

export const Route = createFileRoute('/_auth/agreements/$id_/edit')({ component: EditAgreementPage })
