import { createFileRoute } from '@tanstack/react-router'
import { InvoicePage } from '../../../features/billing/InvoicePage'

export const Route = createFileRoute('/_auth/invoices/$id')({ component: InvoicePage })
