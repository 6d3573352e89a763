import { createFileRoute } from '@tanstack/react-router'
import { BookkeepingPage } from '../../../features/bookkeeping/BookkeepingPage'

/** Bookkeeping (issue #23 part A): the journal, its exports and closed months; company admin staff. */
export const Route = createFileRoute('/_auth/bookkeeping/')({ component: BookkeepingPage })
