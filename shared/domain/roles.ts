/**
 * Roles of docs/PRODUCT.md §6. A user has one system role; staff also hold a role per company.
 * The effective role decides what the shell shows; the server's policy module decides what is allowed.
 */
export const systemRoles = ['SUPERADMIN', 'MEMBER', 'USER'] as const
export type SystemRole = (typeof systemRoles)[number]

export const companyRoles = ['CHAIRMAN', 'ADMINISTRATOR', 'ACCOUNTANT', 'BOARDMEMBER'] as const
export type CompanyRole = (typeof companyRoles)[number]

export type EffectiveRole = 'SUPERADMIN' | 'USER' | CompanyRole

export interface CompanyMembership {
  id: string
  name: string
  role: CompanyRole
}

/**
 * docs/PRODUCT.md §6: the system role defaults to USER; for MEMBER the role in the current company is used,
 * defaulting to BOARDMEMBER when none is found.
 */
export function effectiveRole(
  systemRole: SystemRole | null | undefined,
  companies: readonly CompanyMembership[],
  currentCompanyId: string | null | undefined,
): EffectiveRole {
  if (systemRole === 'SUPERADMIN') return 'SUPERADMIN'
  if (systemRole !== 'MEMBER') return 'USER'
  return companies.find((c) => c.id === currentCompanyId)?.role ?? 'BOARDMEMBER'
}

/** "Company admin staff" of docs/PRODUCT.md §6: administrator, accountant or chairman (a route's `scope.roles` names them so). */
export const companyAdminStaffRoles = ['CHAIRMAN', 'ADMINISTRATOR', 'ACCOUNTANT'] as const satisfies readonly CompanyRole[]

export const isCompanyAdminStaff = (role: EffectiveRole): boolean => (companyAdminStaffRoles as readonly EffectiveRole[]).includes(role)

/**
 * Staff who may create, edit and terminate agreements, request one-off payments and refund (docs/PRODUCT.md
 * §6 "admin"): company admin staff — administrator, accountant, chairman. A board member reads
 * the agreements and takes no such action; docs/decisions/0024-agreements.md records this.
 */
export const isAgreementAdmin = (role: EffectiveRole): boolean => isCompanyAdminStaff(role)

/** Anyone who works for a company (every company role). */
export const isCompanyStaff = (role: EffectiveRole): boolean =>
  role === 'ADMINISTRATOR' || role === 'ACCOUNTANT' || role === 'CHAIRMAN' || role === 'BOARDMEMBER'
