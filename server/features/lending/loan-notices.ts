import type { Db } from '../../db/client'
import type { LoanAction, LoanParty, ReminderKind } from '../../../shared/domain/lending'
import type { Notice, NoticesService } from '../notifications'
import { lendingRepository, type ItemRow, type LoanRow } from './lending.repository'

/** A date as both languages write it in Denmark: 1.12.2026. */
export const dayText = (date: string) => {
  const [y, mo, d] = date.split('-')
  return `${Number(d)}.${Number(mo)}.${y}`
}

const open = /*i18n*/ { id: 'Open loan' }

type LoanNotice = Pick<Notice, 'title' | 'message'> & { type?: Notice['type'] }

/** Whom each step of a loan tells (the borrower, or the lender), and what. */
const stepNotices: Partial<Record<LoanAction, { to: 'borrower' | 'lender'; notice: LoanNotice }>> = {
  accept: {
    to: 'borrower',
    notice: {
      type: 'success',
      title: /*i18n*/ { id: 'Your request to borrow “{title}” was accepted' },
      message: /*i18n*/ { id: 'You can borrow “{title}” from {from} to {to}. Read and confirm the contract in the app.' },
    },
  },
  decline: {
    to: 'borrower',
    notice: {
      type: 'warning',
      title: /*i18n*/ { id: 'Your request to borrow “{title}” was declined' },
      message: /*i18n*/ { id: '“{title}” cannot be lent to you from {from} to {to}.' },
    },
  },
  cancel: {
    to: 'lender',
    notice: {
      title: /*i18n*/ { id: '{name} cancelled the loan of “{title}”' },
      message: /*i18n*/ { id: '{name} no longer needs “{title}” from {from} to {to}.' },
    },
  },
  terms: {
    to: 'borrower',
    notice: {
      title: /*i18n*/ { id: 'The contract for “{title}” was changed' },
      message: /*i18n*/ { id: 'The contract for “{title}” was changed (now {from} to {to}). Please read it and confirm it again.' },
    },
  },
  handover: {
    to: 'borrower',
    notice: {
      title: /*i18n*/ { id: 'You have borrowed “{title}”' },
      message: /*i18n*/ { id: 'The handover of “{title}” is recorded. Please return it by {to}.' },
    },
  },
  return: {
    to: 'borrower',
    notice: {
      type: 'success',
      title: /*i18n*/ { id: 'The return of “{title}” is recorded' },
      message: /*i18n*/ { id: 'Thank you for returning “{title}”.' },
    },
  },
}

/**
 * What each party of a loan is told, in-app and by e-mail in their own language (decision 0064):
 * the lender of a request and a cancellation, the borrower of every answer, both when the contract
 * is confirmed, the borrower before and on the return day and the lender when it is overdue. An
 * ASSOCIATION item's lender is its company admin staff.
 */
export function loanNotices(db: Db, notices: NoticesService) {
  const lenders = async (loan: LoanRow, item: ItemRow): Promise<string[]> =>
    item.lenderKind === 'MEMBER' ?
      loan.lenderUserId ?
        [loan.lenderUserId]
      : []
    : await lendingRepository.adminStaffOf(db, loan.companyId)
  const borrowers = (loan: LoanRow) => (loan.borrowerUserId ? [loan.borrowerUserId] : [])

  const values = (loan: LoanRow, item: ItemRow) => ({
    title: item.title,
    name: loan.borrowerName,
    lender: item.lenderName,
    from: dayText(loan.fromDate),
    to: dayText(loan.toDate),
  })
  async function send(to: string[], loan: LoanRow, item: ItemRow, n: LoanNotice, extra: Record<string, string> = {}) {
    for (const userId of new Set(to))
      await notices.tell(userId, {
        type: n.type ?? 'info',
        title: n.title,
        message: n.message,
        values: { ...values(loan, item), ...extra },
        actionUrl: `/lending/loans/${loan.id}`,
        actionText: open,
      })
  }

  return {
    requested: async (loan: LoanRow, item: ItemRow) =>
      await send(await lenders(loan, item), loan, item, {
        title: /*i18n*/ { id: '{name} wants to borrow “{title}”' },
        message: /*i18n*/ { id: '{name} asks to borrow “{title}” from {from} to {to}. Accept or decline the request in the app.' },
      }),

    async step(loan: LoanRow, item: ItemRow, action: LoanAction) {
      const step = stepNotices[action]
      if (!step) return
      return await send(step.to === 'lender' ? await lenders(loan, item) : borrowers(loan), loan, item, step.notice)
    },

    async confirmed(loan: LoanRow, item: ItemRow, by: LoanParty) {
      if (loan.status === 'CONFIRMED')
        return await send([...borrowers(loan), ...(await lenders(loan, item))], loan, item, {
          type: 'success',
          title: /*i18n*/ { id: 'The contract for “{title}” is confirmed' },
          message: /*i18n*/ { id: 'Both parties have confirmed the contract: “{title}” from {from} to {to}.' },
        })
      await send(
        by === 'lender' ? borrowers(loan) : await lenders(loan, item),
        loan,
        item,
        {
          title: /*i18n*/ { id: '{who} confirmed the contract for “{title}”' },
          message: /*i18n*/ { id: 'Please confirm the contract for “{title}” too, so the loan can go ahead.' },
        },
        { who: by === 'lender' ? (loan.lenderConfirmedBy ?? item.lenderName) : loan.borrowerName },
      )
    },

    /** `staff`: the association's company admin staff when it lends the item (looked up for a batch by the job). */
    async reminder(loan: LoanRow, item: ItemRow, kind: ReminderKind, staff?: string[]) {
      if (kind === 'OVERDUE')
        return await send(item.lenderKind === 'ASSOCIATION' && staff ? staff : await lenders(loan, item), loan, item, {
          type: 'warning',
          title: /*i18n*/ { id: '“{title}” is overdue' },
          message: /*i18n*/ { id: '{name} should have returned “{title}” on {to}, and the return has not been recorded.' },
        })
      await send(borrowers(loan), loan, item, {
        type: 'warning',
        title: kind === 'DAY_BEFORE' ? /*i18n*/ { id: 'Reminder: return “{title}” tomorrow' } : /*i18n*/ { id: 'Reminder: return “{title}” today' },
        message:
          kind === 'DAY_BEFORE' ?
            /*i18n*/ { id: 'Please return “{title}” to {lender} tomorrow, {to}.' }
          : /*i18n*/ { id: 'Please return “{title}” to {lender} today, {to}.' },
      })
    },
  }
}
