import { createFileRoute } from '@tanstack/react-router'
import { InvoicesPage } from '../../../features/billing/InvoicesPage'

export const Route = createFileRoute('/_auth/invoices/')({ component: InvoicesPage })
