import { defineModule } from '../../kernel/module'
import { viewedScope } from '../../access/scope'
import { chargeEvents, charges, providerOutbox } from '../../db/schema/agreements'
import { invoiceCounters, invoiceLines, invoices } from '../../db/schema/invoices'
import { createProviderOutbox, type ProviderOutbox } from '../../jobs/provider-outbox'
import { createVippsPoll, type VippsPoll } from '../../jobs/vipps-poll'
import { createBillingService, type BillingService } from './billing.service'
import { chargeSync, createChargesService, type ChargesService } from './charges.service'
import { createInvoicing, type Invoicing } from './invoicing'
import { createInvoicesService, invoiceSync, type InvoicesService } from './invoices.service'
import { billingRoutes } from './billing.routes'

declare module '../../kernel/module' {
  interface Services {
    invoicing: Invoicing
    charges: ChargesService
    billing: BillingService
    invoices: InvoicesService
    /** Sends the provider outbox's rows to Vipps (charges, stops, price updates, refunds). */
    providerOutbox: ProviderOutbox
    /** Reads back pending agreements and open charges from Vipps. */
    vippsPoll: VippsPoll
    /** The outbox, then the poll: the `agreements-vipps` job. */
    vippsSync: { run(): Promise<void> }
  }
}

/**
 * Money, top-down (docs/decisions/0029): invoices follow charges; charges are made by agreements
 * (a termination's last payment) and the billing engine; the jobs send them to Vipps and read back.
 */
export const billingModule = defineModule({
  name: 'billing',
  tables: [charges, chargeEvents, providerOutbox, invoices, invoiceLines, invoiceCounters],
  services: {
    invoicing: (s, k) =>
      createInvoicing({ database: k.database, clock: k.businessClock, notices: s.notices, faultPoint: k.options.billing?.faultPoint, log: k.log }),
    charges: (s, k) => createChargesService({ db: k.db, clock: k.clock, invoicing: s.invoicing }),
    billing: (s, k) => {
      const { clock: _clock, faultPoint, ...config } = k.options.billing ?? {}
      return createBillingService({
        database: k.database,
        clock: k.businessClock,
        sendClock: k.clock,
        lock: k.lock,
        log: k.log,
        agreements: s.agreements,
        charges: s.charges,
        invoicing: s.invoicing,
        companies: s.companies,
        users: s.users,
        notices: s.notices,
        config: { ...k.config.billing, ...config },
        faultPoint,
      })
    },
    invoices: (_s, k) => createInvoicesService({ db: k.db }),
    // Due dates sent to Vipps follow the provider's calendar (the built-in emulator's clock in demos).
    providerOutbox: (s, k) =>
      createProviderOutbox({
        db: k.db,
        clock: k.clock,
        businessClock: k.options.billing?.clock,
        lock: k.lock,
        log: k.log,
        providers: s.providers,
        agreements: s.agreements,
        charges: s.charges,
        observer: s.vippsObserver,
        invoicing: s.invoicing,
        leaseMs: k.config.claimLeaseMs,
      }),
    vippsPoll: (s, k) =>
      createVippsPoll({ db: k.db, lock: k.lock, log: k.log, providers: s.providers, agreements: s.agreements, charges: s.charges, observer: s.vippsObserver }),
    vippsSync: (s) => ({
      async run(): Promise<void> {
        await s.providerOutbox.run()
        await s.vippsPoll.run()
      },
    }),
  },
  routes: (s) => [billingRoutes(s.billing, s.invoices)],
  scopes: (s) => ({ invoice: viewedScope((actor, id) => s.invoices.get(actor, id)) }),
  sync: (s) => [chargeSync(s.charges), invoiceSync(s.invoices)],
  jobs: (s) => [
    // Sends stops, price updates and final charges to Vipps, then re-reads pending agreements and open charges.
    { name: 'agreements-vipps', everyMs: 5000, run: async () => await s.vippsSync.run(), locked: false },
    // Creates due regular charges with their invoices (queued for the job above) and takes the overdue steps.
    { name: 'billing', everyMs: 10_000, run: () => s.billing.tick(), locked: false },
  ],
})

// What other features use of this one (docs/ARCHITECTURE.md "Layers": a feature is reached through its entry).
export type { ChargesService, ChargeRow } from './charges.service'
export type { BillingService } from './billing.service'
export type { InvoicesService } from './invoices.service'
export { createLoanDeposits } from './loan-deposits'
export { createOneTimeCharges } from './one-time-charge'
