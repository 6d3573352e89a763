/**
 * What the signed-in sidebar shows (docs/PRODUCT.md §2 "Shell", §6): a pure function of the user,
 * so the role rules are tested without rendering.
 */
import { msg } from '@lingui/core/macro'
import type { MessageDescriptor } from '@lingui/core'
import type { AccountInfo } from '../../../shared/contract/account'
import { effectiveRole, isCompanyAdminStaff, isCompanyStaff, type EffectiveRole } from '../../../shared/domain/roles'

export type NavPath =
  | '/companies'
  | '/households'
  | '/documents'
  | '/logs'
  | '/messages'
  | '/assemblies'
  | '/agreements'
  | '/user'
  | '/invoices'
  | '/account-statement'
  | '/debtors'
  | '/statistics'
  | '/bookkeeping'
  | '/articles'
  | '/specialists'
  | '/forum'
  | '/markets/buy'
  | '/markets/share'
  | '/markets/swap'
  | '/lending'
  | '/invitations'

export interface NavLink {
  to: NavPath
  label: MessageDescriptor
}

export interface NavSection {
  key: 'administration' | 'communication' | 'account' | 'economy' | 'knowledge' | 'markets' | 'sustainability'
  title: MessageDescriptor
  links: NavLink[]
}

type User = Pick<AccountInfo, 'userRole' | 'companies' | 'currentCompany'>

export const roleOf = (user: User): EffectiveRole => effectiveRole(user.userRole, user.companies, user.currentCompany?.id)

/** Where the sidebar logo leads: super admin → companies, staff of a company → dashboard, user → agreements. */
export function homePathOf(user: User | null): '/companies' | '/company/dashboard' | '/agreements' | '/' {
  if (!user) return '/'
  if (user.userRole === 'SUPERADMIN') return '/companies'
  if (user.currentCompany) return '/company/dashboard'
  return '/agreements'
}

export function sidebarSections(user: User): NavSection[] {
  const role = roleOf(user)
  const superAdmin = role === 'SUPERADMIN'
  const staff = isCompanyAdminStaff(role)
  const when = <T>(condition: boolean, ...items: T[]): T[] => (condition ? items : [])

  const sections: NavSection[] = [
    {
      key: 'administration',
      title: msg`Administration`,
      links: [
        ...when(superAdmin || staff, { to: '/companies' as const, label: msg`Companies` }),
        // Households (decision 0090): every staff role of the current association reads them (a role held there, not a default).
        ...when(!!user.currentCompany && (superAdmin || (isCompanyStaff(role) && user.companies.some((c) => c.id === user.currentCompany?.id))), {
          to: '/households' as const,
          label: msg`Households`,
        }),
        ...when(superAdmin, { to: '/logs' as const, label: msg`System Logs` }),
        // Invitations at scale (decision 0091): company admin staff invite (a board member may read the page, but it is not theirs to act on).
        ...when(staff, { to: '/invitations' as const, label: msg`Invitations` }),
      ],
    },
    // Messages work for real (decision 0025), so Communication shows in production too; so do the
    // association's documents (decision 0062), for everyone (each reads those meant for them).
    {
      key: 'communication',
      title: msg`Communication`,
      links: [
        { to: '/messages', label: msg`Messages` },
        { to: '/documents', label: msg`Documents` },
        // General assemblies (decision 0061): every member sees their association's; company admin staff call them.
        { to: '/assemblies', label: msg`General assembly` },
      ],
    },
    {
      key: 'account',
      title: msg`Account`,
      links: [...when(!superAdmin, { to: '/agreements' as const, label: msg`Agreements` }), { to: '/user', label: msg`Profile` }],
    },
    ...when<NavSection>(!superAdmin, {
      key: 'economy',
      title: msg`Economy`,
      // "Company admin staff or an accountant": the accountant is already company admin staff.
      // The debtor overview (decision 0042) is company admin staff's, like its actions.
      links: [
        { to: '/invoices', label: msg`Invoices` },
        // The member's own account statement (decision 0068), beside their invoices.
        { to: '/account-statement', label: msg`Account statement` },
        ...when(
          staff,
          { to: '/debtors' as const, label: msg`Debtors` },
          { to: '/statistics' as const, label: msg`Charges` },
          // The journal for the accountant (decision 0067): company admin staff, like the debtors.
          { to: '/bookkeeping' as const, label: msg`Bookkeeping` },
        ),
      ],
    }),
    // The market (decision 0063) works for real, so it shows in production too: for the members of an
    // association (residents and staff). The super admin belongs to none, so has no market of their own.
    ...when<NavSection>(!superAdmin, {
      key: 'markets',
      title: msg`Markets`,
      links: [
        { to: '/markets/buy', label: msg`Buy and sell` },
        { to: '/markets/share', label: msg`Share` },
        { to: '/markets/swap', label: msg`Swap` },
      ],
    }),
    // Lending (decision 0064) works for real, so it shows in production too: for the members of an
    // association (residents and staff); the super admin belongs to none.
    ...when<NavSection>(!superAdmin, {
      key: 'sustainability',
      title: msg`Sustainability`,
      links: [{ to: '/lending', label: msg`Lending` }],
    }),
    // The forum (decision 0066) works for real, so it shows in production too: for the members of an
    // association. The super admin belongs to none, so has no forum of their own.
    {
      key: 'knowledge',
      title: msg`Knowledge`,
      links: [
        // The knowledge bank (decision 0065) for everyone (the super admin writes the platform's articles);
        // the association's specialists for its members.
        { to: '/articles' as const, label: msg`Articles` },
        ...when(!superAdmin, { to: '/specialists' as const, label: msg`Specialists` }),
        ...when(!superAdmin, { to: '/forum' as const, label: msg`Forum` }),
      ],
    },
  ]
  return sections.filter((s) => s.links.length > 0)
}
