import { createFileRoute } from '@tanstack/react-router'
import { BookkeepingPage } from '../../../features/bookkeeping/BookkeepingPage'

/** Bookkeeping (docs/PRODUCT.md §2 "Bookkeeping"): the journal, its exports and closed months; company admin staff. */
export const Route = createFileRoute('/_auth/bookkeeping/')({ component: BookkeepingPage })
