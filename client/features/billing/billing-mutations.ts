/**
 * Refunds and one-time charges (docs/PRODUCT.md §2, §5, decision 0045): money actions, queued in the outbox like
 * every write (so a request made offline is kept and sent exactly once: the mutation id is the
 * Idempotency-Key and the client-made id names the charge or refund), and shown as "will be sent
 * when online" until the server answers.
 */
import { msg } from '@lingui/core/macro'
import type { Charge } from '../../../shared/contract/agreements'
import type { OneTimeChargeRequest, RefundRequest } from '../../../shared/contract/billing'
import type { Row } from '../../sync/local-db'
import { registerMutationKind } from '../../sync/mutation-kinds'
import { answerAsRow, reduce } from '../../sync/optimistic'
import type { SyncHandle } from '../../sync/use-sync'

export const ONE_TIME_CHARGE = 'charge.oneTime'
export const REFUND = 'charge.refund'

registerMutationKind(ONE_TIME_CHARGE, {
  reducer: reduce.insert((m) => {
    const body = m.body as OneTimeChargeRequest & { id: string }
    const preview = m.preview as { agreementId: string; companyId: string }
    const at = new Date(m.createdAt).toISOString()
    const row: Omit<Charge, 'version'> = {
      id: body.id,
      agreementId: preview.agreementId,
      companyId: preview.companyId,
      kind: 'ONE_TIME',
      type: 'UNSCHEDULED',
      amount: body.amount,
      currency: 'DKK',
      description: body.description,
      due: '',
      status: 'CREATED',
      invoiceId: null,
      invoiceNumber: null,
      history: [],
      createdAt: at,
      updatedAt: at,
    }
    return { ...row, _version: 0 } as Row
  }),
  label: msg`One-off payment`,
  failed: msg`Error creating one time charge.`,
  answeredRow: answerAsRow,
})

registerMutationKind(REFUND, {
  // The refund shows in the charge's history at once; the server's own row follows with the next pull.
  reducer: reduce.patch((row, m) => {
    const body = m.body as RefundRequest
    const history = (row.history as Charge['history'] | undefined) ?? []
    return { history: [...history, { event: 'REFUND', amount: body.amount, occurredAt: new Date(m.createdAt).toISOString() }] }
  }),
  label: msg`Refund`,
  failed: msg`Error creating refund.`,
})

/** POST /agreement/{id}/requestOneTimeCharge with a client-made charge id. */
export const requestOneTimeCharge = ({ engine }: SyncHandle, agreement: { id: string; companyId: string }, body: OneTimeChargeRequest & { id: string }) =>
  engine.mutate({
    kind: ONE_TIME_CHARGE,
    method: 'POST',
    path: `/agreement/${agreement.id}/requestOneTimeCharge`,
    body,
    preview: { agreementId: agreement.id, companyId: agreement.companyId },
    entity: 'charge',
    entityId: body.id,
    money: true,
  })

/** POST /agreement/{id}/refund with a client-made refund id. */
export const refundCharge = ({ engine }: SyncHandle, agreementId: string, body: RefundRequest & { id: string }) =>
  engine.mutate({ kind: REFUND, method: 'POST', path: `/agreement/${agreementId}/refund`, body, entity: 'charge', entityId: body.chargeId, money: true })
