import { describe, expect, it } from 'vitest'
import type { AccountInfo } from '../../../shared/contract/account'
import { homePathOf, sidebarSections } from './navigation'

const company = { id: '00000000-0000-4000-8000-000000000001', name: 'AB Solbakken' }
const other = { id: '00000000-0000-4000-8000-000000000002', name: 'E/F Havudsigt' }

type User = Pick<AccountInfo, 'userRole' | 'companies' | 'currentCompany'>
const superAdmin: User = { userRole: 'SUPERADMIN', companies: [], currentCompany: null }
const plainUser: User = { userRole: 'USER', companies: [], currentCompany: null }
const member = (role: AccountInfo['companies'][number]['role']): User => ({
  userRole: 'MEMBER',
  companies: [{ ...company, role }],
  currentCompany: company,
})

/** The sidebar as "Section: link, link" lines, easy to compare. */
const outline = (user: User) => sidebarSections(user).map((s) => `${s.title.message}: ${s.links.map((l) => l.label.message).join(', ')}`)

describe('sidebarSections', () => {
  it('shows a super admin administration with system logs, the articles (they write the platform’s), and no agreements or economy', () => {
    expect(outline(superAdmin)).toEqual([
      'Administration: Companies, System Logs',
      'Communication: Messages, Documents, General assembly',
      'Account: Profile',
      'Knowledge: Articles',
    ])
  })

  it('gives company admin staff companies, debtors and charges but not system logs', () => {
    for (const role of ['ADMINISTRATOR', 'ACCOUNTANT', 'CHAIRMAN'] as const) {
      expect(outline(member(role))).toEqual([
        'Administration: Companies, Households, Invitations',
        'Communication: Messages, Documents, General assembly',
        'Account: Agreements, Profile',
        'Economy: Invoices, Account statement, Debtors, Charges, Bookkeeping',
        'Markets: Buy and sell, Share, Swap',
        'Sustainability: Lending',
        'Knowledge: Articles, Specialists, Forum',
      ])
    }
  })

  it('gives a board member the households to read, and neither companies, debtors nor charges', () => {
    expect(outline(member('BOARDMEMBER'))).toEqual([
      'Administration: Households',
      'Communication: Messages, Documents, General assembly',
      'Account: Agreements, Profile',
      'Economy: Invoices, Account statement',
      'Markets: Buy and sell, Share, Swap',
      'Sustainability: Lending',
      'Knowledge: Articles, Specialists, Forum',
    ])
  })

  it('treats a member without a role in the current company as a board member', () => {
    const user: User = { userRole: 'MEMBER', companies: [{ ...company, role: 'ADMINISTRATOR' }], currentCompany: other }
    expect(outline(user)).toEqual([
      'Communication: Messages, Documents, General assembly',
      'Account: Agreements, Profile',
      'Economy: Invoices, Account statement',
      'Markets: Buy and sell, Share, Swap',
      'Sustainability: Lending',
      'Knowledge: Articles, Specialists, Forum',
    ])
  })

  it('uses the role in the current company, not in another one', () => {
    const user: User = {
      userRole: 'MEMBER',
      companies: [
        { ...company, role: 'BOARDMEMBER' },
        { ...other, role: 'CHAIRMAN' },
      ],
      currentCompany: other,
    }
    expect(outline(user)[0]).toBe('Administration: Companies, Households, Invitations')
  })

  it('gives an ordinary user agreements, profile, invoices, the market, lending and Knowledge (articles, specialists, forum)', () => {
    expect(outline(plainUser)).toEqual([
      'Communication: Messages, Documents, General assembly',
      'Account: Agreements, Profile',
      'Economy: Invoices, Account statement',
      'Markets: Buy and sell, Share, Swap',
      'Sustainability: Lending',
      'Knowledge: Articles, Specialists, Forum',
    ])
  })
})

describe('homePathOf', () => {
  it('leads a super admin to companies', () => expect(homePathOf(superAdmin)).toBe('/companies'))
  it('leads a user with a company to the company dashboard', () => expect(homePathOf(member('BOARDMEMBER'))).toBe('/company/dashboard'))
  it('leads an ordinary user to agreements', () => expect(homePathOf(plainUser)).toBe('/agreements'))
  it('leads a guest to the front page', () => expect(homePathOf(null)).toBe('/'))
})
