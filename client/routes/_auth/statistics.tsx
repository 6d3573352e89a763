import { createFileRoute } from '@tanstack/react-router'
import { StatisticsPage } from '../../features/statistics/StatisticsPage'

/** Charges statistics (spec §2, issue #9): company admin staff and accountants. */
export const Route = createFileRoute('/_auth/statistics')({ component: StatisticsPage })
