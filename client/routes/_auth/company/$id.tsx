import { createFileRoute } from '@tanstack/react-router'
import { CompanyPage } from '../../../features/companies/CompanyPage'

export const Route = createFileRoute('/_auth/company/$id')({ component: CompanyPage })
