import { createFileRoute } from '@tanstack/react-router'
import { requireSuperAdmin } from '../../../features/auth/guards'
import { CreateCompanyPage } from '../../../features/companies/CreateCompanyPage'

/** Only the super admin creates companies (docs/PRODUCT.md §6); others go back to the list. */
export const Route = createFileRoute('/_auth/companies/create')({
  beforeLoad: (ctx) => requireSuperAdmin(ctx, '/companies'),
  component: CreateCompanyPage,
})
