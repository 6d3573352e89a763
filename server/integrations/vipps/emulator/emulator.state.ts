import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import type { LoginUser } from './login.service'
import type { RecurringWebhookEvent, RecurringWebhookPayload, TimePeriod, VippsAgreementStatus, VippsChargeStatus } from '../vipps.schemas'

/**
 * Everything the emulator knows, as one JSON-serialisable object: agreements, charges, webhook
 * registrations and their delivery queue, access tokens, idempotency records, injected faults and
 * the clock offset. Kept in memory and, when a path is given, written after each change (temp
 * file + rename, so a crash never leaves half a file) so that restarting `npm start` keeps the
 * agreements the product already points at. Sign-in (OIDC) sessions are deliberately not kept:
 * they live minutes and their signing key is regenerated at start.
 */

export type Currency = 'DKK' | 'NOK' | 'EUR'

export interface AgreementRecord {
  id: string
  uuid: string
  /** The merchant (sales unit) that created it; no other MSN can see it. */
  msn: string
  status: VippsAgreementStatus
  pricing: { type: 'LEGACY' | 'VARIABLE'; currency: Currency; amount?: number; suggestedMaxAmount?: number; maxAmount?: number }
  interval: TimePeriod
  productName: string
  productDescription?: string
  merchantRedirectUrl: string
  merchantAgreementUrl?: string
  phoneNumber?: string | null
  externalId?: string | null
  countryCode?: string
  scope?: string
  created: string
  /** PENDING agreements become EXPIRED at this instant (10 minutes after creation). */
  expiresAt: string
  start: string | null
  stop: string | null
  sub: string | null
  /** The phone number the member approved with on the confirmation page. */
  approvedBy?: string
}

export interface ChargeHistoryRecord {
  occurred: string
  event: 'CREATE' | 'RESERVE' | 'CAPTURE' | 'REFUND' | 'CANCEL' | 'FAIL'
  amount: number
  idempotencyKey: string
  success: boolean
}

export interface ChargeRecord {
  id: string
  msn: string
  agreementId: string
  amount: number
  currency: Currency
  description: string
  due: string
  retryDays: number
  type: 'RECURRING' | 'UNSCHEDULED'
  transactionType: 'DIRECT_CAPTURE' | 'RESERVE_CAPTURE'
  status: VippsChargeStatus
  externalId: string | null
  failureReason: string | null
  failureDescription: string | null
  captured: number
  refunded: number
  cancelled: number
  capturedAt: string | null
  created: string
  history: ChargeHistoryRecord[]
  /** Set by `fail-next-charges` when the charge is first attempted. */
  willFail: { reason: string; exhaustRetries: boolean } | null
  seq: number
}

export interface HookRecord {
  id: string
  msn: string
  url: string
  events: string[]
  secret: string
  created: string
}

export interface DeliveryRecord {
  id: string
  hookId: string
  eventId: string
  body: string
  attempts: number
  /** Epoch ms (injected clock) of the next attempt. */
  nextAttemptAt: number
  lastError: string | null
  seq: number
}

export interface EventRecord {
  id: string
  seq: number
  payload: RecurringWebhookPayload
}

export interface IdempotencyRecord {
  fingerprint: string
  status: number
  body: string | null
  contentType: string | null
  at: number
}

export interface TokenRecord {
  msn: string
  expiresAt: number
}

export type FailCallsMode = '500' | 'timeout' | 'timeout-after-effect'
export type WebhookMode = 'normal' | 'duplicate' | 'reverse'

export interface Faults {
  failNextCharges: { count: number; reason: string; exhaustRetries: boolean }
  failNextCalls: { count: number; mode: FailCallsMode; includeToken: boolean }
  webhookMode: WebhookMode
  /**
   * Random faults on every Recurring/Webhooks call (`/_control/chaos`): a share answers 500, a
   * share hangs like a timeout (half of those after doing the work, i.e. a lost answer). A seeded
   * generator, so a failing test run can be repeated.
   */
  chaos: { errorRate: number; timeoutRate: number; seed: number }
}

export interface EmulatorData {
  version: 1
  clockOffsetMs: number
  seq: number
  agreements: Record<string, AgreementRecord>
  /** Keyed by `${msn}/${chargeId}`: charge ids (orderIds) are unique per merchant. */
  charges: Record<string, ChargeRecord>
  hooks: Record<string, HookRecord>
  deliveries: DeliveryRecord[]
  /** Deliveries that ran out of retries, newest last (kept for `/_control/state`). */
  deadDeliveries: DeliveryRecord[]
  events: EventRecord[]
  accessTokens: Record<string, TokenRecord>
  /** Keyed by `${msn}:${Idempotency-Key}`. */
  idempotency: Record<string, IdempotencyRecord>
  faults: Faults
  /**
   * The people the sign-in page offers, as a product registered them (`PUT /_control/login-users`):
   * a standalone emulator cannot read the product's users. The built-in one is given them instead.
   */
  loginUsers: LoginUser[]
}

const MAX_EVENTS = 500
const MAX_DEAD = 200
const MAX_IDEMPOTENCY = 10_000

export const emptyFaults = (): Faults => ({
  failNextCharges: { count: 0, reason: 'user_action_required', exhaustRetries: false },
  failNextCalls: { count: 0, mode: '500', includeToken: false },
  webhookMode: 'normal',
  chaos: { errorRate: 0, timeoutRate: 0, seed: 1 },
})

export const emptyData = (): EmulatorData => ({
  version: 1,
  clockOffsetMs: 0,
  seq: 0,
  agreements: {},
  charges: {},
  hooks: {},
  deliveries: [],
  deadDeliveries: [],
  events: [],
  accessTokens: {},
  idempotency: {},
  faults: emptyFaults(),
  loginUsers: [],
})

export interface StateLog {
  warn(obj: object, msg?: string): void
}

export class EmulatorState {
  data: EmulatorData
  private dirty = false

  constructor(
    private readonly persistPath?: string,
    private readonly log?: StateLog,
  ) {
    this.data = persistPath ? this.load(persistPath) : emptyData()
  }

  /** A monotonically increasing number (orders charges, events and deliveries). */
  nextSeq(): number {
    this.dirty = true
    return ++this.data.seq
  }

  /** Marks the state as changed; `flush()` writes it. */
  changed(): void {
    this.dirty = true
  }

  /** Writes the state if it changed since the last write (no-op without a persist path). */
  flush(): void {
    if (!this.dirty) return
    this.dirty = false
    if (!this.persistPath) return
    mkdirSync(dirname(this.persistPath), { recursive: true })
    const temp = `${this.persistPath}.${process.pid}.tmp`
    writeFileSync(temp, JSON.stringify(this.data))
    renameSync(temp, this.persistPath)
  }

  reset(): void {
    // The sign-in people are the products' (registered once, when each starts), not Vipps state.
    this.data = { ...emptyData(), loginUsers: this.data.loginUsers }
    this.dirty = true
  }

  agreement(msn: string, id: string): AgreementRecord | undefined {
    const found = this.data.agreements[id]
    return found && found.msn === msn ? found : undefined
  }

  charge(msn: string, agreementId: string, chargeId: string): ChargeRecord | undefined {
    const found = this.data.charges[`${msn}/${chargeId}`]
    return found && found.agreementId === agreementId ? found : undefined
  }

  addCharge(charge: ChargeRecord): void {
    this.data.charges[`${charge.msn}/${charge.id}`] = charge
    this.dirty = true
  }

  chargeIdTaken(msn: string, chargeId: string): boolean {
    return `${msn}/${chargeId}` in this.data.charges
  }

  chargesOf(msn: string, agreementId: string): ChargeRecord[] {
    return Object.values(this.data.charges)
      .filter((c) => c.msn === msn && c.agreementId === agreementId)
      .sort((a, b) => a.seq - b.seq)
  }

  recordEvent(payload: RecurringWebhookPayload, id: string): EventRecord {
    const event = { id, seq: this.nextSeq(), payload }
    this.data.events.push(event)
    if (this.data.events.length > MAX_EVENTS) this.data.events.splice(0, this.data.events.length - MAX_EVENTS)
    return event
  }

  buryDelivery(delivery: DeliveryRecord): void {
    this.data.deadDeliveries.push(delivery)
    if (this.data.deadDeliveries.length > MAX_DEAD) this.data.deadDeliveries.splice(0, this.data.deadDeliveries.length - MAX_DEAD)
    this.dirty = true
  }

  saveIdempotency(id: string, record: IdempotencyRecord): void {
    this.data.idempotency[id] = record
    const keys = Object.keys(this.data.idempotency)
    // Bounded: the oldest records go first (insertion order is creation order).
    for (const key of keys.slice(0, Math.max(0, keys.length - MAX_IDEMPOTENCY))) delete this.data.idempotency[key]
    this.dirty = true
  }

  eventsOfType(type: RecurringWebhookEvent): EventRecord[] {
    return this.data.events.filter((e) => e.payload.eventType === type)
  }

  private load(path: string): EmulatorData {
    if (!existsSync(path)) return emptyData()
    try {
      const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<EmulatorData>
      if (parsed.version !== 1) throw new Error(`unknown state version ${String(parsed.version)}`)
      return { ...emptyData(), ...parsed, faults: { ...emptyFaults(), ...parsed.faults } }
    } catch (err) {
      // A broken file must not stop the product from starting; keep it aside for inspection.
      const aside = `${path}.corrupt-${Date.now()}`
      renameSync(path, aside)
      this.log?.warn({ err, path, movedTo: aside }, 'Vipps emulator state unreadable; starting empty')
      return emptyData()
    }
  }
}
