import { createFileRoute } from '@tanstack/react-router'
import { MyLoansPage } from '../../../../features/lending/MyLoansPage'

export const Route = createFileRoute('/_auth/lending/loans/')({ component: MyLoansPage })
