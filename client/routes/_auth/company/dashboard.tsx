import { createFileRoute } from '@tanstack/react-router'
import { DashboardPage } from '../../../features/dashboard/DashboardPage'

/**
 * The company dashboard (docs/PRODUCT.md §2 "Company dashboard") for the staff of the current company; the
 * screen sends anyone else to their own start page. No guard here: what a route file imports
 * outside its component is in the first route's JavaScript.
 */
export const Route = createFileRoute('/_auth/company/dashboard')({ component: DashboardPage })
