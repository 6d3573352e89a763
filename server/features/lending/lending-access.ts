import type { Db } from '../../db/client'
import { notFound } from '../../errors'
import { isCompanyAdminStaff } from '../../../shared/domain/roles'
import type { LoanParty } from '../../../shared/domain/lending'
import { messages as m } from '../../../shared/i18n-messages'
import type { Actor } from '../../access/actor'
import { isSuperAdmin, roleIn } from '../../access/policy'
import type { Residency } from '../agreements'
import type { ItemRow, LendingScope, LoanRow } from './lending.repository'
import { lendingRepository as repo } from './lending.repository'

/**
 * Who is who in lending (decision 0064): members of an association are its staff (any role) and its
 * residents with a living agreement; an ASSOCIATION item's lender is its company admin staff
 * (chairman, administrator, accountant); a MEMBER item's lender is that member. Another
 * association's item or loan is 404.
 */
export function lendingAccess(db: Db, residency: Residency) {
  const isMember = async (actor: Actor, companyId: string) =>
    roleIn(actor, companyId) !== undefined || (await residency.residentCompanyIds(actor.userId)).includes(companyId)

  const lendsForAssociation = (actor: Actor, companyId: string) => {
    const role = roleIn(actor, companyId)
    return role !== undefined && isCompanyAdminStaff(role)
  }

  /** Whether the actor is this item's lender. */
  const isLender = (actor: Actor, item: Pick<ItemRow, 'lenderKind' | 'lenderUserId' | 'companyId'>) =>
    item.lenderKind === 'MEMBER' ? item.lenderUserId === actor.userId : lendsForAssociation(actor, item.companyId)

  /** The actor's parts in a loan (both when an administrator borrows the association's own item). */
  const partiesIn = (actor: Actor, loan: LoanRow, item: ItemRow): LoanParty[] => [
    ...(isLender(actor, { ...item, lenderUserId: item.lenderKind === 'MEMBER' ? loan.lenderUserId : null }) ? (['lender'] as const) : []),
    ...(loan.borrowerUserId === actor.userId ? (['borrower'] as const) : []),
  ]

  return {
    isMember,
    lendsForAssociation,
    isLender,
    partiesIn,

    async scopeOf(actor: Actor): Promise<LendingScope> {
      if (isSuperAdmin(actor)) return { all: true, companyIds: [] }
      return { all: false, companyIds: await residency.memberCompanyIds(actor) }
    },

    /** An item the actor may read (a member of its association, or the super admin); otherwise 404. */
    async readableItem(actor: Actor, id: string): Promise<ItemRow> {
      const row = await repo.item(db, id)
      if (!row || !(isSuperAdmin(actor) || (await isMember(actor, row.companyId)))) throw notFound(m.lendingItemNotFound.id)
      return row
    },

    /** A loan and its item the actor may read (a member of its association, one of its parties, the super admin); otherwise 404. */
    async readableLoan(actor: Actor, id: string): Promise<{ loan: LoanRow; item: ItemRow }> {
      const loan = await repo.loan(db, id)
      // Its parties always read (and act on) it, also after moving out of the association.
      const party = loan && (loan.borrowerUserId === actor.userId || loan.lenderUserId === actor.userId)
      if (!loan || !(party || isSuperAdmin(actor) || (await isMember(actor, loan.companyId)))) throw notFound(m.loanNotFound.id)
      return { loan, item: (await repo.item(db, loan.itemId))! }
    },

    /** Whether the actor sees a loan's contract (its parties, the association's staff, the super admin). */
    seesContract: (actor: Actor, loan: LoanRow, item: ItemRow) =>
      isSuperAdmin(actor) || roleIn(actor, loan.companyId) !== undefined || partiesIn(actor, loan, item).length > 0,
  }
}
export type LendingAccess = ReturnType<typeof lendingAccess>
