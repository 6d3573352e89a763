import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod'
import { AgreementPage } from '../../../features/agreements/AgreementPage'

/** `?vipps=return` marks the member's return from approving in Vipps MobilePay. */
export const Route = createFileRoute('/_auth/agreements/$id')({
  validateSearch: z.object({ vipps: z.string().optional() }),
  component: AgreementPage,
})
