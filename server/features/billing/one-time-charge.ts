import { todayInCopenhagen, type Clock } from '../../lib/clock'
import type { Charge } from '../../../shared/contract/agreements'
import { plusDays } from '../../../shared/domain/billing-period'
import type { AgreementsService } from '../agreements'
import type { ChargesService } from './charges.service'

export type OneTimeCharges = ReturnType<typeof createOneTimeCharges>

/**
 * The one path of a ONE_TIME charge (UNSCHEDULED, due tomorrow: Vipps needs a day), for an extra
 * charge and for a debtor's retry: the charge, its invoice (unless it is a new attempt on an
 * existing invoice, `invoiceId`), its provider-outbox row (sent to Vipps with the row id as
 * Idempotency-Key) and the change-log rows, in the caller's transaction.
 */
export function createOneTimeCharges(deps: { clock: Clock; charges: ChargesService }) {
  const { clock, charges } = deps
  return {
    async create(
      a: NonNullable<Awaited<ReturnType<AgreementsService['rowOf']>>>,
      input: { id?: string; amount: number; description: string; invoiceId?: string },
    ): Promise<Charge> {
      const charge = await charges.create(a, {
        id: input.id,
        kind: 'ONE_TIME',
        type: 'UNSCHEDULED',
        amountOre: input.amount,
        description: input.description,
        due: plusDays(todayInCopenhagen(clock), 1),
        invoiceId: input.invoiceId ?? null,
        now: clock.now().toISOString(),
      })
      return (await charges.views([charge]))[0]!
    },
  }
}
