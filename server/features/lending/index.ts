import { defineModule } from '../../kernel/module'
import type { Actor } from '../../access/actor'
import { loanActions } from '../../../shared/domain/lending'
import { viewedScope } from '../../access/scope'
import { lendingItems, loanReminders, loans } from '../../db/schema/lending'
import { attachmentStore } from '../../integrations/files/attachment-store'
import { RateLimiter } from '../../http/rate-limit'
import { createLoanDeposits } from '../billing'
import { createOneTimeCharges } from '../billing'
import { resolve } from 'node:path'
import { createLendingService, type LendingService } from './lending.service'
import { createLoansService, type LoansService } from './loans.service'
import { loanReminderJob } from './loan-reminders'
import { lendingRoutes } from './lending.routes'
import { loansRoutes } from './loans.routes'

declare module '../../kernel/module' {
  interface Services {
    lending: LendingService
    loans: LoansService
    loanReminders: ReturnType<typeof loanReminderJob>
  }
}

/** Lending among neighbours: items, loans with a contract both confirm, and deposits (docs/decisions/0064). */
export const lendingModule = defineModule({
  name: 'lending',
  tables: [lendingItems, loans, loanReminders],
  services: {
    lending: (s, k) =>
      createLendingService({
        db: k.db,
        clock: k.clock,
        companies: s.companies,
        residency: s.residency,
        files: attachmentStore(resolve(k.filesDir, 'lending')),
        scanner: k.scanner,
        // The association's storage quota, read when an upload asks (docs/decisions/0082).
        quota: { assertRoom: (companyId, bytes, replacing) => s.storage.assertRoom(companyId, bytes, replacing) },
      }),
    // A deposit goes through billing's one-time charge and refund paths.
    loans: (s, k) =>
      createLoansService({
        db: k.db,
        clock: k.clock,
        companies: s.companies,
        residency: s.residency,
        notices: s.notices,
        deposits: createLoanDeposits({
          db: k.db,
          clock: k.businessClock,
          sendClock: k.clock,
          agreements: s.agreements,
          charges: s.charges,
          invoicing: s.invoicing,
          oneTime: createOneTimeCharges({ clock: k.businessClock, charges: s.charges }),
          billing: s.billing,
          users: s.users,
        }),
      }),
    loanReminders: (s, k) => loanReminderJob({ db: k.db, clock: k.clock, notices: s.notices }),
  },
  routes: (s, k) => [lendingRoutes(s.lending, s.loans, { photo: new RateLimiter(k.clock, 30, 3_600_000) }), loansRoutes(s.loans)],
  scopes: (s) => ({
    lendingItem: viewedScope((actor, id) => s.lending.view(actor, id)),
    loan: viewedScope((actor, id) => s.loans.view(actor, id)),
  }),
  // Who may lend, borrow, take a loan's steps and settle its deposit (lending.service.ts, loans.service.ts), decided before the body too.
  acts: (s) => ({
    'lending:lend': (actor, companyId, { body }) => s.lending.assertMayLend(actor, companyId, body.lender === 'ASSOCIATION'),
    'loan:request': async (actor, id) => void (await s.loans.borrowable(actor, id)),
    'loan:settle': async (actor, id) => void (await s.loans.settleable(actor, id)),
    ...Object.fromEntries(loanActions.map((action) => [`loan:${action}`, async (actor: Actor, id: string) => void (await s.loans.stepper(actor, id, action))])),
  }),
  sync: (s) => [s.lending.syncEntity(), s.loans.syncEntity()],
  jobs: (s) => [
    // Loans' return reminders (the day before and on the day, 08:00) and the lender's overdue notice, each
    // once, and refunds of deposits collected although their loan ended without damage.
    {
      name: 'lending',
      everyMs: 5000,
      run: async () => {
        await s.loanReminders.tick()
        await s.loans.sweepDeposits()
      },
    },
  ],
  sweepFiles: (s) => s.lending.sweepFiles(),
})

// What other features use of this one (docs/ARCHITECTURE.md "Layers": a feature is reached through its entry).
export type { DepositDesk, LoanRow } from './deposit-desk'
