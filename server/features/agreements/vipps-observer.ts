import type { AgreementResponseV3, ChargeResponseV3 } from '../../integrations/vipps/vipps.schemas'
import { isChargeSettled, type ChargeStatus } from '../../../shared/domain/agreement-status'
import type { ChargeRow, ChargesService } from '../billing'
import type { VippsObservation } from '../webhooks'
import type { AgreementsService } from './agreements.service'

export type VippsObserver = ReturnType<typeof createVippsObserver>

/**
 * What Vipps says, applied to the domain (webhooks, the poll and the provider-outbox job call
 * this inside their transaction): an agreement's state moves the agreement forward; a charge's
 * state moves the charge (and its invoice), and a termination's FINAL charge that settled ends
 * its agreement (stopped at Vipps, CANCELED).
 */
export function createVippsObserver(deps: { agreements: AgreementsService; charges: ChargesService }) {
  const { agreements, charges } = deps

  async function settled(charge: Pick<ChargeRow, 'kind' | 'status' | 'agreementId'>) {
    if (charge.kind === 'FINAL' && isChargeSettled(charge.status)) await agreements.finishTermination(charge.agreementId)
  }

  const observer = {
    observeAgreement: async (va: AgreementResponseV3): Promise<void> => await agreements.observeAgreement(va),

    async observeCharge(vc: ChargeResponseV3): Promise<void> {
      const moved = await charges.observe(vc)
      if (moved) await settled(moved)
    },

    /** A status our side decides (Vipps refused to create the charge). */
    async setChargeStatus(charge: ChargeRow, status: ChargeStatus, extra: Partial<ChargeRow> = {}): Promise<void> {
      await charges.setStatus(charge, status, extra)
      await settled({ ...charge, status })
    },

    async observe(observation: VippsObservation): Promise<void> {
      if (observation.kind === 'agreement') await observer.observeAgreement(observation.agreement)
      else await observer.observeCharge(observation.charge)
    },
  }
  return observer
}
