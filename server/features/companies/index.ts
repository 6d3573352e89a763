import { defineModule } from '../../kernel/module'
import { companyScope } from '../../access/scope'
import { addresses, companies, companyMembers } from '../../db/schema/companies'
import { addressSync, companySync, createCompaniesService, memberSync, type CompaniesService } from './companies.service'
import { companiesRoutes } from './companies.routes'

declare module '../../kernel/module' {
  interface Services {
    companies: CompaniesService
  }
}

/** Housing associations (companies), their members with roles, and their addresses. */
export const companiesModule = defineModule({
  name: 'companies',
  tables: [companies, companyMembers, addresses],
  services: {
    companies: (s, k) =>
      createCompaniesService({
        db: k.db,
        clock: k.clock,
        auth: s.auth,
        users: s.users,
        // What later features hold of a company, read when asked (docs/decisions/0016).
        usage: {
          agreementsCount: (_db, companyId) => s.agreements.agreementsCount(companyId),
          invoicesCount: async (_db, companyId) => await s.invoices.countOfCompany(companyId),
          // An address with agreements, or a household with residents (its history, decision 0090), stays.
          addressInUse: async (_db, addressId) => (await s.agreements.addressInUse(addressId)) || (await s.households.hasResidents(addressId)),
        },
      }),
  },
  routes: (s) => [companiesRoutes(s.companies)],
  scopes: (s) => ({ company: companyScope(), association: companyScope((userId, companyId) => s.residency.isResident(userId, companyId)) }),
  // Which fields a caller may change: the heating-water period any staff member, the rest the admin staff.
  acts: (s) => ({
    'company:update': async (actor, id, { body }) => void (await s.companies.changeable(actor, id, Object.keys(body))),
    'company:field': async (actor, id, { params }) => void (await s.companies.changeable(actor, id, [params.fieldName ?? ''])),
  }),
  sync: (s) => [companySync(s.companies), memberSync, addressSync],
})

// What other features use of this one (docs/ARCHITECTURE.md "Layers": a feature is reached through its entry).
export { assertCompanyInScope } from './company-scope'
export type { CompaniesService } from './companies.service'
