import { createFileRoute } from '@tanstack/react-router'
import { ProviderPage } from '../../../../../features/payment-providers/ProviderPage'

export const Route = createFileRoute('/_auth/company/$id_/payment-provider/$providerId')({ component: ProviderPage })
