import { randomUUID } from 'node:crypto'
import { todayInCopenhagen, type Clock } from '../../../lib/clock'
import {
  AgreementStatus,
  CaptureRequestV3,
  ChargeStatus,
  CreateChargeV3,
  DraftAgreementV3,
  PatchAgreementV3,
  RefundRequest,
  type AgreementResponseV3,
  type ChargeResponseV3,
  type DraftAgreementResponseV3,
  type RecurringWebhookEvent,
  type RecurringWebhookPayload,
  type VippsChargeStatus,
} from '../vipps.schemas'
import { addDays, addYears, daysBetween, isCalendarDate } from './calendar'
import { randomAlnum } from './emulator.ids'
import type { AgreementRecord, ChargeRecord, ChargeHistoryRecord, EmulatorState } from './emulator.state'
import { ProblemError, fieldProblem, notFound, parseOr400, validationError } from './problems'

/**
 * The rules of the Recurring API v3 (https://developer.vippsmobilepay.com/docs/APIs/recurring-api/),
 * applied to the emulator's state. Every refusal is a ProblemError naming the field, as the real
 * API's problem+json does. The clock is the emulator's business clock (see EmulatorClock).
 */
export interface RecurringDeps {
  state: EmulatorState
  clock: Clock
  baseUrl: string
  emit: (payload: RecurringWebhookPayload) => void
  /** The `sub` of the Vipps user with this phone number (agreements with a profile `scope`). */
  subjectFor: (phoneNumber: string) => string
}

export type AgreementView = AgreementResponseV3 & { uuid: string; userinfoUrl: string | null; vippsConfirmationUrl?: string }

/** A PENDING agreement the member has not approved in 10 minutes expires (recurring-api-guide: agreement states). */
export const PENDING_AGREEMENT_TTL_MS = 10 * 60 * 1000
/** Limits on VARIABLE pricing's suggestedMaxAmount, per currency (openapi: pricingRequest). */
const SUGGESTED_MAX = { NOK: 2_000_000, DKK: 30_000_000, EUR: 200_000 } as const
/** LEGACY pricing: a charge may be at most 5 times the agreement price. */
const LEGACY_CAP_FACTOR = 5
/** A charge shows in the app (DUE) when its due date is under 30 days away; before that it is PENDING. */
const VISIBLE_DAYS = 30
/** Refunds are allowed up to 365 days after capture. */
const REFUND_WINDOW_DAYS = 365
const CHARGE_ID = /^[A-Za-z0-9._-]{1,50}$/

const failureDescriptions: Record<string, string> = {
  user_action_required: "The user's card cannot fulfil the payment; the user must act in the Vipps MobilePay app.",
  charge_amount_too_high: "The amount is above the user's chosen maximum for this agreement.",
  non_technical_error: 'The charge could not be completed (for example, the user deleted their profile).',
  technical_error: 'Recurring failed to perform the payment.',
}

export class RecurringService {
  constructor(private readonly deps: RecurringDeps) {}

  private get state(): EmulatorState {
    return this.deps.state
  }

  private get clock(): Clock {
    return this.deps.clock
  }

  private get baseUrl(): string {
    return this.deps.baseUrl
  }

  private today(): string {
    return todayInCopenhagen(this.clock)
  }

  private nowIso(): string {
    return this.clock.now().toISOString()
  }

  private emit(eventType: RecurringWebhookEvent, a: AgreementRecord, extra: { charge?: ChargeRecord; amount?: number; occurred?: string } = {}) {
    const { charge } = extra
    this.deps.emit({
      eventType,
      agreementId: a.id,
      agreementExternalId: a.externalId ?? null,
      ...(charge ?
        {
          chargeId: charge.id,
          chargeExternalId: charge.externalId,
          amount: extra.amount ?? charge.amount,
          currency: charge.currency,
          failureReason: charge.failureReason,
        }
      : {}),
      occurred: extra.occurred ?? this.nowIso(),
      msn: a.msn,
    })
  }

  private mustAgreement(msn: string, id: string): AgreementRecord {
    const a = this.state.agreement(msn, id)
    if (!a) throw notFound('Agreement', id)
    return a
  }

  private mustCharge(msn: string, agreementId: string, chargeId: string): ChargeRecord {
    this.mustAgreement(msn, agreementId)
    const ch = this.state.charge(msn, agreementId, chargeId)
    if (!ch) throw notFound('Charge', chargeId)
    return ch
  }

  private history(ch: ChargeRecord, event: ChargeHistoryRecord['event'], amount: number, idempotencyKey: string | undefined, success = true) {
    ch.history.push({ occurred: this.nowIso(), event, amount, idempotencyKey: idempotencyKey ?? randomUUID(), success })
    this.state.changed()
  }

  private confirmationUrl(id: string) {
    return `${this.baseUrl}/confirm/${id}`
  }

  agreementView(a: AgreementRecord): AgreementView {
    return {
      id: a.id,
      uuid: a.uuid,
      status: a.status,
      pricing:
        a.pricing.type === 'LEGACY' ?
          { type: 'LEGACY', currency: a.pricing.currency, amount: a.pricing.amount }
        : {
            type: 'VARIABLE',
            currency: a.pricing.currency,
            suggestedMaxAmount: a.pricing.suggestedMaxAmount,
            ...(a.pricing.maxAmount !== undefined ? { maxAmount: a.pricing.maxAmount } : {}),
          },
      interval: { unit: a.interval.unit, count: a.interval.count, text: intervalText(a.interval.unit, a.interval.count) },
      productName: a.productName,
      ...(a.productDescription !== undefined ? { productDescription: a.productDescription } : {}),
      created: a.created,
      start: a.start,
      stop: a.stop,
      merchantRedirectUrl: a.merchantRedirectUrl,
      ...(a.merchantAgreementUrl !== undefined ? { merchantAgreementUrl: a.merchantAgreementUrl } : {}),
      externalId: a.externalId ?? null,
      sub: a.sub,
      userinfoUrl: a.sub ? `${this.baseUrl}/vipps-userinfo-api/userinfo/${a.sub}` : null,
      countryCode: a.countryCode ?? 'DK',
      ...(a.status === 'PENDING' ? { vippsConfirmationUrl: this.confirmationUrl(a.id) } : {}),
    }
  }

  private chargeView(ch: ChargeRecord): ChargeResponseV3 {
    return {
      id: ch.id,
      agreementId: ch.agreementId,
      amount: ch.amount,
      currency: ch.currency,
      description: ch.description,
      due: ch.due,
      status: ch.status,
      type: ch.type,
      transactionType: ch.transactionType,
      retryDays: ch.retryDays,
      externalId: ch.externalId,
      failureReason: ch.failureReason,
      failureDescription: ch.failureDescription,
      summary: { captured: ch.captured, refunded: ch.refunded, cancelled: ch.cancelled },
      history: ch.history.map((h) => ({ ...h })),
    }
  }

  /** PENDING agreements past their 10 minutes become EXPIRED; run before every read and on each tick. */
  expirePending(): void {
    const now = this.clock.now().getTime()
    for (const a of Object.values(this.state.data.agreements)) {
      if (a.status !== 'PENDING' || Date.parse(a.expiresAt) > now) continue
      a.status = 'EXPIRED'
      this.state.changed()
      this.emit('recurring.agreement-expired.v1', a, { occurred: a.expiresAt })
    }
  }

  createAgreement(msn: string, input: unknown): DraftAgreementResponseV3 & { uuid: string } {
    const body = parseOr400(DraftAgreementV3, input)
    const p = body.pricing
    if (p.type === 'FLEXIBLE') throw fieldProblem('unsupported-feature', 'pricing.type', 'FLEXIBLE pricing is not supported by the emulator')
    if (p.type === 'LEGACY' && p.amount === undefined) throw validationError('pricing.amount', 'Required for LEGACY pricing and must be greater than 0')
    if (p.type === 'VARIABLE') {
      if (p.suggestedMaxAmount === undefined) throw validationError('pricing.suggestedMaxAmount', 'Required for VARIABLE pricing')
      if (p.suggestedMaxAmount > SUGGESTED_MAX[p.currency])
        throw fieldProblem('invalid-suggested-max-amount', 'pricing.suggestedMaxAmount', `At most ${SUGGESTED_MAX[p.currency]} for ${p.currency}`)
    }
    if (!body.interval) throw validationError('interval', 'Required for LEGACY and VARIABLE pricing')
    // The real API wants https:// or an app deeplink; http:// is allowed here because the
    // emulator serves a product running on http://localhost.
    if (!URL.canParse(body.merchantRedirectUrl)) throw validationError('merchantRedirectUrl', 'Must be an absolute URL')
    if (body.merchantAgreementUrl !== undefined && !URL.canParse(body.merchantAgreementUrl))
      throw validationError('merchantAgreementUrl', 'Must be an absolute URL')
    if (body.phoneNumber && !/^\+?\d{8,15}$/.test(body.phoneNumber))
      throw validationError('phoneNumber', 'Must be an MSISDN: country code and number, digits only')

    let id: string
    do id = `agr_${randomAlnum(7)}`
    while (this.state.data.agreements[id])
    const now = this.clock.now()
    const a: AgreementRecord = {
      id,
      uuid: randomUUID(),
      msn,
      status: 'PENDING',
      pricing:
        p.type === 'LEGACY' ?
          { type: 'LEGACY', currency: p.currency, amount: p.amount }
        : { type: 'VARIABLE', currency: p.currency, suggestedMaxAmount: p.suggestedMaxAmount },
      interval: body.interval,
      productName: body.productName,
      productDescription: body.productDescription,
      merchantRedirectUrl: body.merchantRedirectUrl,
      merchantAgreementUrl: body.merchantAgreementUrl,
      phoneNumber: body.phoneNumber ?? null,
      externalId: body.externalId ?? null,
      countryCode: body.countryCode,
      scope: body.scope,
      created: now.toISOString(),
      expiresAt: new Date(now.getTime() + PENDING_AGREEMENT_TTL_MS).toISOString(),
      start: null,
      stop: null,
      sub: null,
    }
    this.state.data.agreements[id] = a
    this.state.changed()
    return { agreementId: id, uuid: a.uuid, vippsConfirmationUrl: this.confirmationUrl(id), chargeId: null }
  }

  listAgreements(msn: string, query: { status?: string; createdAfter?: string; pageNumber?: string; pageSize?: string }): AgreementView[] {
    const status = query.status === undefined ? undefined : parseOr400(AgreementStatus, query.status)
    const createdAfter = query.createdAfter === undefined ? undefined : Number(query.createdAfter)
    if (createdAfter !== undefined && !Number.isFinite(createdAfter)) throw validationError('createdAfter', 'Must be a timestamp in milliseconds')
    const all = Object.values(this.state.data.agreements)
      .filter((a) => a.msn === msn && (!status || a.status === status) && (createdAfter === undefined || Date.parse(a.created) > createdAfter))
      .sort((x, y) => x.created.localeCompare(y.created))
    const { pageNumber, pageSize } = query
    if (pageNumber === undefined && pageSize === undefined) return all.map((a) => this.agreementView(a))
    const size = Number(pageSize ?? 1000)
    const number = Number(pageNumber ?? 1)
    if (!Number.isInteger(size) || size < 1) throw validationError('pageSize', 'Must be a positive integer')
    if (!Number.isInteger(number) || number < 1) throw validationError('pageNumber', 'Must be a positive integer')
    return all.slice((number - 1) * size, number * size).map((a) => this.agreementView(a))
  }

  getAgreement(msn: string, id: string): AgreementView {
    return this.agreementView(this.mustAgreement(msn, id))
  }

  patchAgreement(msn: string, id: string, input: unknown): void {
    const a = this.mustAgreement(msn, id)
    const body = parseOr400(PatchAgreementV3, input)
    if (a.status !== 'ACTIVE' && a.status !== 'PENDING')
      throw fieldProblem('illegal-agreement-update', 'status', `Cannot modify an agreement which is ${a.status}`, 'Illegal update')
    // Check everything before changing anything: a refused PATCH leaves the agreement as it was.
    const price = body.pricing?.amount
    const suggestedMax = body.pricing?.suggestedMaxAmount
    if (price !== undefined && a.pricing.type !== 'LEGACY') throw validationError('pricing.amount', 'The price can only be changed on LEGACY agreements')
    if (suggestedMax !== undefined) {
      if (a.pricing.type !== 'VARIABLE') throw validationError('pricing.suggestedMaxAmount', 'Only VARIABLE agreements have a suggested max amount')
      if (suggestedMax > SUGGESTED_MAX[a.pricing.currency])
        throw fieldProblem(
          'invalid-suggested-max-amount',
          'pricing.suggestedMaxAmount',
          `At most ${SUGGESTED_MAX[a.pricing.currency]} for ${a.pricing.currency}`,
        )
    }

    if (price !== undefined) a.pricing.amount = price
    if (suggestedMax !== undefined) a.pricing.suggestedMaxAmount = suggestedMax
    if (body.productName !== undefined) a.productName = body.productName
    if (body.productDescription !== undefined) a.productDescription = body.productDescription
    if (body.externalId !== undefined) a.externalId = body.externalId
    this.state.changed()
    if (body.status === 'STOPPED') this.stopAgreement(a, 'recurring.agreement-stopped.v1', true)
  }

  /**
   * Ends an agreement. Stopping cancels its PENDING, DUE and (when the merchant stops it) RESERVED
   * charges (recurring-api-guide: stopping an agreement).
   */
  private stopAgreement(a: AgreementRecord, eventType: RecurringWebhookEvent, cancelReserved: boolean) {
    a.status = 'STOPPED'
    a.stop = this.nowIso()
    this.state.changed()
    this.emit(eventType, a)
    for (const ch of this.state.chargesOf(a.msn, a.id)) {
      if (ch.status === 'PENDING' || ch.status === 'DUE' || (cancelReserved && ch.status === 'RESERVED')) this.cancel(a, ch, undefined)
    }
  }

  /** The member approves on the confirmation page (or `/_control/approve`, or the test API's force accept). */
  approve(id: string, phoneNumber?: string | null): AgreementRecord {
    this.expirePending()
    const a = this.state.data.agreements[id]
    if (!a) throw notFound('Agreement', id)
    if (a.status !== 'PENDING') throw fieldProblem('illegal-agreement-update', 'status', `The agreement is ${a.status}, not PENDING`)
    a.status = 'ACTIVE'
    a.start = this.nowIso()
    const phone = phoneNumber || a.phoneNumber || undefined
    if (phone) a.approvedBy = phone
    // The subject is only shared when the merchant asked for profile data (scope).
    if (a.scope && phone) a.sub = this.deps.subjectFor(phone)
    if (a.pricing.type === 'VARIABLE') a.pricing.maxAmount = a.pricing.suggestedMaxAmount
    this.state.changed()
    this.emit('recurring.agreement-activated.v1', a)
    return a
  }

  reject(id: string): AgreementRecord {
    this.expirePending()
    const a = this.state.data.agreements[id]
    if (!a) throw notFound('Agreement', id)
    if (a.status !== 'PENDING') throw fieldProblem('illegal-agreement-update', 'status', `The agreement is ${a.status}, not PENDING`)
    this.stopAgreement(a, 'recurring.agreement-rejected.v1', true)
    return a
  }

  /** The member stops an ACTIVE agreement in the app: RESERVED charges stay for the merchant to capture or cancel. */
  stopByMember(id: string): AgreementRecord {
    const a = this.state.data.agreements[id]
    if (!a) throw notFound('Agreement', id)
    if (a.status !== 'ACTIVE') throw fieldProblem('illegal-agreement-update', 'status', `The agreement is ${a.status}, not ACTIVE`)
    this.stopAgreement(a, 'recurring.agreement-stopped.v1', false)
    return a
  }

  /** The test environment's force accept (PATCH /agreements/{id}/accept {phoneNumber}). */
  forceAccept(msn: string, id: string, input: unknown): void {
    this.mustAgreement(msn, id)
    const phone = typeof input === 'object' && input !== null && 'phoneNumber' in input ? String(input.phoneNumber) : ''
    if (!/^\+?\d{8,15}$/.test(phone)) throw validationError('phoneNumber', 'Must be an MSISDN: country code and number, digits only')
    this.approve(id, phone)
  }

  createCharge(msn: string, agreementId: string, input: unknown, idempotencyKey: string | undefined): { chargeId: string } {
    const a = this.mustAgreement(msn, agreementId)
    const body = parseOr400(CreateChargeV3, input)
    if (body.amount <= 0) throw validationError('amount', 'Must be greater than 0 (øre)')
    if (body.description.length < 1 || body.description.length > 45) throw validationError('description', 'Must be 1 to 45 characters')
    if (body.orderId !== undefined && !CHARGE_ID.test(body.orderId)) throw validationError('orderId', 'Must be 1 to 50 letters, digits, ".", "_" or "-"')

    const t = this.today()
    let due: string
    let retryDays: number
    if (body.type === 'RECURRING') {
      if (body.due === undefined) throw validationError('due', 'Required for RECURRING charges')
      if (!isCalendarDate(body.due)) throw validationError('due', 'Must be a date, YYYY-MM-DD')
      // Due at least 1 day ahead (the test environment's minimum) and at most 2 years ahead,
      // in Norwegian/Danish local time (recurring-api-guide: create a charge).
      if (body.due < addDays(t, 1)) throw fieldProblem('charge-due-too-soon', 'due', `Must be at least 1 day after ${t}`)
      if (body.due > addYears(t, 2)) throw fieldProblem('charge-due-in-too-long', 'due', `Must be at most 2 years after ${t}`)
      if (body.retryDays === undefined) throw validationError('retryDays', 'Required for RECURRING charges')
      if (body.retryDays < 0 || body.retryDays > 14) throw validationError('retryDays', 'Must be 0 to 14')
      due = body.due
      retryDays = body.retryDays
    } else {
      // UNSCHEDULED charges have no due date and no retries: they are processed right after
      // creation (at the next processing run); `due` is reported as tomorrow.
      due = addDays(t, 1)
      retryDays = 0
    }

    if (a.status !== 'ACTIVE') throw fieldProblem('charge-creation-failed', 'agreementId', `The agreement is ${a.status}; charges need an ACTIVE agreement`)
    if (a.pricing.type === 'LEGACY' && a.pricing.amount !== undefined && body.amount > LEGACY_CAP_FACTOR * a.pricing.amount)
      throw fieldProblem('charge-amount-too-high', 'amount', `At most ${LEGACY_CAP_FACTOR} times the agreement price (${LEGACY_CAP_FACTOR * a.pricing.amount})`)

    let id: string
    if (body.orderId !== undefined) {
      if (this.state.chargeIdTaken(msn, body.orderId))
        throw new ProblemError(409, 'conflict', 'orderId is already used by another charge', [{ name: 'orderId', reason: 'Must be unique per merchant' }])
      id = body.orderId
    } else {
      do id = `chr-${randomAlnum(7)}`
      while (this.state.chargeIdTaken(msn, id))
    }

    const ch: ChargeRecord = {
      id,
      msn,
      agreementId,
      amount: body.amount,
      currency: a.pricing.currency,
      description: body.description,
      due,
      retryDays,
      type: body.type,
      transactionType: body.transactionType,
      status: daysBetween(t, due) > VISIBLE_DAYS ? 'PENDING' : 'DUE',
      externalId: body.externalId ?? null,
      failureReason: null,
      failureDescription: null,
      captured: 0,
      refunded: 0,
      cancelled: 0,
      capturedAt: null,
      created: this.nowIso(),
      history: [],
      willFail: null,
      seq: this.state.nextSeq(),
    }
    this.state.addCharge(ch)
    this.history(ch, 'CREATE', ch.amount, idempotencyKey)
    return { chargeId: id }
  }

  listCharges(msn: string, agreementId: string, status: string | undefined): ChargeResponseV3[] {
    this.mustAgreement(msn, agreementId)
    const wanted = status === undefined ? undefined : parseOr400(ChargeStatus, status)
    return this.state
      .chargesOf(msn, agreementId)
      .filter((c) => !wanted || c.status === wanted)
      .map((c) => this.chargeView(c))
  }

  getCharge(msn: string, agreementId: string, chargeId: string): ChargeResponseV3 {
    return this.chargeView(this.mustCharge(msn, agreementId, chargeId))
  }

  getChargeById(msn: string, chargeId: string): ChargeResponseV3 {
    const ch = this.state.data.charges[`${msn}/${chargeId}`]
    if (!ch) throw notFound('Charge', chargeId)
    return this.chargeView(ch)
  }

  private cancel(a: AgreementRecord, ch: ChargeRecord, idempotencyKey: string | undefined) {
    const remaining = ch.amount - ch.captured - ch.cancelled
    ch.cancelled += remaining
    // Cancelling after a partial capture releases the rest of the reservation; what was
    // captured stays, so the charge ends CHARGED with the captured amount.
    ch.status = ch.status === 'PARTIALLY_CAPTURED' ? 'CHARGED' : 'CANCELLED'
    this.history(ch, 'CANCEL', remaining, idempotencyKey)
    this.emit('recurring.charge-canceled.v1', a, { charge: ch, amount: remaining })
  }

  cancelCharge(msn: string, agreementId: string, chargeId: string, idempotencyKey: string | undefined): void {
    const ch = this.mustCharge(msn, agreementId, chargeId)
    const cancellable: VippsChargeStatus[] = ['PENDING', 'DUE', 'RESERVED', 'PARTIALLY_CAPTURED']
    if (!cancellable.includes(ch.status)) throw fieldProblem('cancel-charge-failed', 'status', `A ${ch.status} charge cannot be cancelled`)
    this.cancel(this.mustAgreement(msn, agreementId), ch, idempotencyKey)
  }

  captureCharge(msn: string, agreementId: string, chargeId: string, input: unknown, idempotencyKey: string | undefined): void {
    const ch = this.mustCharge(msn, agreementId, chargeId)
    const body = parseOr400(CaptureRequestV3, input)
    if (ch.status !== 'RESERVED' && ch.status !== 'PARTIALLY_CAPTURED')
      throw fieldProblem('charge-capture-failed', 'status', `A ${ch.status} charge cannot be captured; it must be RESERVED`)
    if (body.amount <= 0) throw validationError('amount', 'Must be greater than 0 (øre)')
    const remaining = ch.amount - ch.captured - ch.cancelled
    if (body.amount > remaining) throw fieldProblem('charge-capture-failed', 'amount', `At most the reserved amount not yet captured (${remaining})`)
    ch.captured += body.amount
    ch.capturedAt ??= this.nowIso()
    ch.status = ch.captured === ch.amount ? 'CHARGED' : 'PARTIALLY_CAPTURED'
    this.history(ch, 'CAPTURE', body.amount, idempotencyKey)
    this.emit('recurring.charge-captured.v1', this.mustAgreement(msn, agreementId), { charge: ch, amount: body.amount })
  }

  refundCharge(msn: string, agreementId: string, chargeId: string, input: unknown, idempotencyKey: string | undefined): void {
    const ch = this.mustCharge(msn, agreementId, chargeId)
    const body = parseOr400(RefundRequest, input)
    const refundable: VippsChargeStatus[] = ['CHARGED', 'PARTIALLY_CAPTURED', 'PARTIALLY_REFUNDED']
    if (!refundable.includes(ch.status)) throw fieldProblem('operation-failed', 'status', `A ${ch.status} charge cannot be refunded`)
    if (body.amount <= 0) throw validationError('amount', 'Must be greater than 0 (øre)')
    if (body.description.trim().length === 0) throw validationError('description', 'Required')
    const left = ch.captured - ch.refunded
    if (body.amount > left) throw validationError('amount', `Refunds may total at most the captured amount; ${left} left`)
    if (ch.capturedAt && Date.parse(ch.capturedAt) + REFUND_WINDOW_DAYS * 86_400_000 < this.clock.now().getTime())
      throw fieldProblem('operation-failed', 'chargeId', `Refunds are possible up to ${REFUND_WINDOW_DAYS} days after capture`)
    ch.refunded += body.amount
    ch.status = ch.refunded === ch.captured ? 'REFUNDED' : 'PARTIALLY_REFUNDED'
    this.history(ch, 'REFUND', body.amount, idempotencyKey)
    this.emit('recurring.charge-refunded.v1', this.mustAgreement(msn, agreementId), { charge: ch, amount: body.amount })
  }

  private fail(a: AgreementRecord, ch: ChargeRecord, reason: string) {
    ch.status = 'FAILED'
    ch.failureReason = reason
    ch.failureDescription = failureDescriptions[reason] ?? reason
    this.history(ch, 'FAIL', ch.amount, undefined, false)
    this.emit('recurring.charge-failed.v1', a, { charge: ch })
  }

  private settle(ch: ChargeRecord) {
    const a = this.state.data.agreements[ch.agreementId]
    if (!a) return
    if (ch.willFail) return this.fail(a, ch, ch.willFail.reason)
    if (a.pricing.type === 'VARIABLE' && a.pricing.maxAmount !== undefined && ch.amount > a.pricing.maxAmount) return this.fail(a, ch, 'charge_amount_too_high')
    this.history(ch, 'RESERVE', ch.amount, undefined)
    if (ch.transactionType === 'RESERVE_CAPTURE') {
      ch.status = 'RESERVED'
      this.emit('recurring.charge-reserved.v1', a, { charge: ch })
      return
    }
    ch.captured = ch.amount
    ch.capturedAt = this.nowIso()
    ch.status = 'CHARGED'
    this.history(ch, 'CAPTURE', ch.amount, undefined)
    this.emit('recurring.charge-captured.v1', a, { charge: ch })
  }

  /**
   * The daily run: PENDING charges within 30 days become DUE; DUE charges whose date has come
   * (UNSCHEDULED ones at once) go PROCESSING, then CHARGED / RESERVED, or FAILED when
   * `fail-next-charges` picked them. With `hold`, charges stop at PROCESSING until the next run.
   * Returns how many charges moved.
   */
  processDue(options: { hold?: boolean } = {}): number {
    this.expirePending()
    const t = this.today()
    const faults = this.state.data.faults.failNextCharges
    let moved = 0
    const charges = Object.values(this.state.data.charges).sort((x, y) => x.due.localeCompare(y.due) || x.seq - y.seq)
    for (const ch of charges) {
      if (ch.status === 'PENDING' && daysBetween(t, ch.due) <= VISIBLE_DAYS) {
        ch.status = 'DUE'
        moved++
        this.state.changed()
      }
      if (ch.status !== 'DUE' || (ch.type === 'RECURRING' && ch.due > t)) continue
      if (!ch.willFail && faults.count > 0) {
        ch.willFail = { reason: faults.reason, exhaustRetries: faults.exhaustRetries }
        faults.count--
        this.state.changed()
      }
      // Vipps keeps a failing charge DUE and retries for `retryDays` after the due date.
      if (ch.willFail?.exhaustRetries && ch.type === 'RECURRING' && t < addDays(ch.due, ch.retryDays)) continue
      ch.status = 'PROCESSING'
      moved++
      this.state.changed()
    }
    if (!options.hold) for (const ch of charges) if (ch.status === 'PROCESSING') this.settle(ch)
    return moved
  }
}

export const createRecurringService = (deps: RecurringDeps) => new RecurringService(deps)

function intervalText(unit: string, count: number): string {
  const word = unit.toLowerCase()
  return count === 1 ? `every ${word}` : `every ${count} ${word}s`
}
