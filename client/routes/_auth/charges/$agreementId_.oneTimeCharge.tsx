import { createFileRoute } from '@tanstack/react-router'
import { OneTimeChargePage } from '../../../features/billing/OneTimeChargePage'

export const Route = createFileRoute('/_auth/charges/$agreementId_/oneTimeCharge')({ component: OneTimeChargePage })
