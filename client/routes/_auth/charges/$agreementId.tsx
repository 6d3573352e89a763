import { createFileRoute } from '@tanstack/react-router'
import { ChargesPage } from '../../../features/billing/ChargesPage'

export const Route = createFileRoute('/_auth/charges/$agreementId')({ component: ChargesPage })
