import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod'
import { RefundPage } from '../../../features/billing/RefundPage'

/** docs/PRODUCT.md §2: the refund form takes the charge and its agreement from the query. */
export const Route = createFileRoute('/_auth/refunds/create')({
  validateSearch: z.object({ chargeId: z.string().optional(), agreementId: z.string().optional() }),
  component: RefundPage,
})
