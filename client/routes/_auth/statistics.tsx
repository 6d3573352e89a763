import { createFileRoute } from '@tanstack/react-router'
import { StatisticsPage } from '../../features/statistics/StatisticsPage'

/** Charges statistics (docs/PRODUCT.md §2, decision 0032): company admin staff and accountants. */
export const Route = createFileRoute('/_auth/statistics')({ component: StatisticsPage })
