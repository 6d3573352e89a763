import type { Logger } from 'pino'
import type { Db } from '../db/client'
import type { WriteLock } from '../lib/write-lock'
import type { AgreementsService } from '../features/agreements/agreements.service'
import type { VippsObserver } from '../features/agreements/vipps-observer'
import type { ChargesService } from '../features/billing/charges.service'
import type { ProvidersService } from '../features/payment-providers/providers.service'
import { transaction } from '../db/client'

export interface VippsPollDeps {
  db: Db
  lock: WriteLock
  log: Logger
  providers: ProvidersService
  agreements: AgreementsService
  charges: ChargesService
  observer: VippsObserver
}

/**
 * Re-reads PENDING agreements and open charges from Vipps, so a member who never approves
 * reaches EXPIRED (Vipps expires a pending agreement after 10 minutes) and a charge settles even
 * without webhooks; then closes the CANCELED agreements whose end has passed. Vipps is called
 * outside the write lock; each answer is applied in its own transaction.
 */
export class VippsPoll {
  constructor(private readonly deps: VippsPollDeps) {}

  async run(): Promise<void> {
    const { db, lock, log, providers, agreements, charges, observer } = this.deps
    const { pending, open } = await lock.run(async () => ({ pending: await agreements.pendingAtVipps(), open: await charges.openAtVipps() }))
    for (const a of pending) {
      try {
        const provider = await providers.byId(a.paymentProviderId)
        if (!provider) continue
        const va = await providers.vippsClient(provider).getAgreement(a.vippsAgreementId!)
        await lock.run(() => transaction(db, async () => await observer.observeAgreement(va)))
      } catch (err) {
        log.warn({ err, agreementId: a.id }, 'vipps agreement poll failed')
      }
    }
    for (const ch of open) {
      try {
        const agreement = await lock.run(async () => await agreements.rowOf(ch.agreementId))
        const provider = agreement && (await providers.byId(agreement.paymentProviderId))
        if (!agreement?.vippsAgreementId || !provider) continue
        const vc = await providers.vippsClient(provider).getCharge(agreement.vippsAgreementId, ch.vippsChargeId!)
        await lock.run(() => transaction(db, async () => observer.observeCharge(vc)))
      } catch (err) {
        log.warn({ err, chargeId: ch.id }, 'vipps charge poll failed')
      }
    }
    await lock.run(() => transaction(db, async () => agreements.closeEnded()))
  }
}

export const createVippsPoll = (deps: VippsPollDeps) => new VippsPoll(deps)
