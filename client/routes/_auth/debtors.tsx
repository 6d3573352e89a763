import { createFileRoute } from '@tanstack/react-router'
import { DebtorsPage } from '../../features/billing/DebtorsPage'

/** Unpaid invoices and what to do about them (docs/PRODUCT.md §2 "Debtors"): company admin staff. */
export const Route = createFileRoute('/_auth/debtors')({ component: DebtorsPage })
