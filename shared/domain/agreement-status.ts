/**
 * Agreement life cycle (docs/PRODUCT.md §4 names the statuses but not the transitions; docs/DOMAIN.md maps them
 * to Vipps; docs/decisions/0024-agreements.md records this table). Who may trigger an action is the server's
 * policy; this table only says from which statuses it is allowed and where it leads.
 *
 * | action            | by                 | from                                        | to        |
 * |-------------------|--------------------|---------------------------------------------|-----------|
 * | edit              | staff              | CREATED, ACCEPTED (no termination date)     | (same)    |
 * | accept            | the member         | CREATED                                     | PENDING   |
 * | reject            | the member         | CREATED                                     | REJECTED  |
 * | vippsActivated    | Vipps (ACTIVE)     | PENDING                                     | ACCEPTED  |
 * | vippsRejected     | Vipps (STOPPED)    | PENDING                                     | REJECTED  |
 * | vippsExpired      | Vipps (EXPIRED)    | PENDING                                     | EXPIRED   |
 * | terminate         | staff              | CREATED, PENDING, ACCEPTED, REJECTED, EXPIRED (no termination date) | CANCELED (ACCEPTED with a final payment: after it settles) |
 * | vippsStopped      | Vipps (STOPPED)    | ACCEPTED                                    | CANCELED  |
 * | close             | the server         | CANCELED, termination date passed           | CLOSED    |
 *
 * Every move goes forward only, so a webhook delivered late or twice never moves an agreement back.
 */
export const agreementStatuses = ['CREATED', 'PENDING', 'ACCEPTED', 'REJECTED', 'CANCELED', 'CLOSED', 'EXPIRED'] as const
export type AgreementStatus = (typeof agreementStatuses)[number]

export const agreementActions = ['edit', 'accept', 'reject', 'vippsActivated', 'vippsRejected', 'vippsExpired', 'terminate', 'vippsStopped', 'close'] as const
export type AgreementAction = (typeof agreementActions)[number]

export const agreementTransitions: Record<AgreementAction, { from: readonly AgreementStatus[]; to: AgreementStatus | 'same' }> = {
  edit: { from: ['CREATED', 'ACCEPTED'], to: 'same' },
  accept: { from: ['CREATED'], to: 'PENDING' },
  reject: { from: ['CREATED'], to: 'REJECTED' },
  vippsActivated: { from: ['PENDING'], to: 'ACCEPTED' },
  vippsRejected: { from: ['PENDING'], to: 'REJECTED' },
  vippsExpired: { from: ['PENDING'], to: 'EXPIRED' },
  terminate: { from: ['CREATED', 'PENDING', 'ACCEPTED', 'REJECTED', 'EXPIRED'], to: 'CANCELED' },
  vippsStopped: { from: ['ACCEPTED'], to: 'CANCELED' },
  close: { from: ['CANCELED'], to: 'CLOSED' },
}

/** The status after `action`, or undefined when it is not allowed from `status`. */
export function nextAgreementStatus(status: AgreementStatus, action: AgreementAction): AgreementStatus | undefined {
  const t = agreementTransitions[action]
  if (!t.from.includes(status)) return undefined
  return t.to === 'same' ? status : t.to
}

/** Whether staff may still edit or terminate it: not once a termination date is set (docs/PRODUCT.md §2 Terminate). */
export const canEdit = (a: { status: AgreementStatus; terminationDate: string | null }) =>
  a.terminationDate === null && nextAgreementStatus(a.status, 'edit') !== undefined
export const canTerminate = (a: { status: AgreementStatus; terminationDate: string | null }) =>
  a.terminationDate === null && nextAgreementStatus(a.status, 'terminate') !== undefined

/** docs/PRODUCT.md §4 badge colours: CREATED and ACCEPTED green; PENDING yellow; the rest (and overdue) red. */
export const agreementStatusColour = (status: AgreementStatus, overdue: boolean): 'green' | 'yellow' | 'red' =>
  overdue ? 'red'
  : status === 'CREATED' || status === 'ACCEPTED' ? 'green'
  : status === 'PENDING' ? 'yellow'
  : 'red'

/** Our charge (payment) statuses of docs/PRODUCT.md §3 and how Vipps' charge statuses map to them (docs/DOMAIN.md). */
export const chargeStatuses = ['CREATED', 'CANCELED', 'RESERVED', 'EXECUTED', 'FAILED', 'EXPIRED', 'DECLINED'] as const
export type ChargeStatus = (typeof chargeStatuses)[number]

/** Open charges may still move; the rest are settled one way or the other. */
export const isChargeSettled = (s: ChargeStatus) => s !== 'CREATED' && s !== 'RESERVED'

/** Order of charge statuses: a re-read from Vipps only ever moves a charge to a higher rank. */
export const chargeStatusRank: Record<ChargeStatus, number> = { CREATED: 0, RESERVED: 1, EXECUTED: 2, FAILED: 2, CANCELED: 2, EXPIRED: 2, DECLINED: 2 }

/**
 * Why an ACCEPTED agreement cannot be charged (never silent: docs/decisions/0036-an-accepted-agreement-that-is-not-collected-says-so.md). Billing skips exactly
 * these: no agreement at Vipps MobilePay (e.g. brought over from an earlier system), a payment
 * provider that is switched off, a company that collects nothing (suspended or deactivated).
 */
export const collectionProblems = ['NO_PROVIDER_AGREEMENT', 'PROVIDER_INACTIVE', 'COMPANY_NOT_COLLECTING'] as const
export type CollectionProblem = (typeof collectionProblems)[number]

/** The reason an agreement that should collect does not, or null (also null for any status but ACCEPTED). */
export function collectionProblem(
  a: { status: AgreementStatus; providerAgreementId: string | null },
  context: { providerActive: boolean; companyCollects: boolean },
): CollectionProblem | null {
  if (a.status !== 'ACCEPTED') return null
  if (!context.companyCollects) return 'COMPANY_NOT_COLLECTING'
  if (!a.providerAgreementId) return 'NO_PROVIDER_AGREEMENT'
  if (!context.providerActive) return 'PROVIDER_INACTIVE'
  return null
}
