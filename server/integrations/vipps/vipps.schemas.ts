/**
 * Vipps MobilePay request and response shapes, modelled with zod from the official OpenAPI
 * documents (vippsas/vipps-recurring-api docs/openapi.yaml; the generated Recurring v3 types in
 * vippsas/deno-sdk src/generated_types/recurring/types.gen.ts; vippsas/webhooks-api; the access
 * token API). Only the fields this product uses are modelled strictly; unknown fields pass.
 * The client parses every answer with these, and the built-in emulator accepts and answers them.
 */
import { z } from 'zod'
import { vippsWebhookEvents } from '../../../shared/contract/webhooks'

// --- Access token (POST /accesstoken/get) -------------------------------------------------
export const AccessTokenResponse = z.object({
  token_type: z.string().default('Bearer'),
  expires_in: z.coerce.number().int().positive(),
  access_token: z.string().min(1),
})
export type AccessTokenResponse = z.infer<typeof AccessTokenResponse>

// --- Recurring v3 -----------------------------------------------------------------------
export const agreementStatuses = ['PENDING', 'ACTIVE', 'STOPPED', 'EXPIRED'] as const
export const AgreementStatus = z.enum(agreementStatuses)
export type VippsAgreementStatus = z.infer<typeof AgreementStatus>

export const chargeStatuses = [
  'PENDING',
  'DUE',
  'PROCESSING',
  'RESERVED',
  'PARTIALLY_CAPTURED',
  'CHARGED',
  'FAILED',
  'CANCELLED',
  'PARTIALLY_REFUNDED',
  'REFUNDED',
] as const
export const ChargeStatus = z.enum(chargeStatuses)
export type VippsChargeStatus = z.infer<typeof ChargeStatus>

export const CurrencyV3 = z.enum(['NOK', 'EUR', 'DKK'])
export const TimePeriod = z.object({ unit: z.enum(['YEAR', 'MONTH', 'WEEK', 'DAY']), count: z.number().int().min(1).max(31) })
export type TimePeriod = z.infer<typeof TimePeriod>

export const PricingRequest = z.object({
  type: z.enum(['LEGACY', 'VARIABLE', 'FLEXIBLE']).default('LEGACY'),
  currency: CurrencyV3,
  amount: z.number().int().positive().optional(),
  suggestedMaxAmount: z.number().int().positive().optional(),
})

export const DraftAgreementV3 = z.object({
  pricing: PricingRequest,
  interval: TimePeriod.optional(),
  productName: z.string().min(1).max(45),
  productDescription: z.string().max(100).optional(),
  merchantRedirectUrl: z.string().min(1),
  merchantAgreementUrl: z.string().min(1).optional(),
  phoneNumber: z.string().nullable().optional(),
  externalId: z.string().max(64).nullable().optional(),
  countryCode: z.enum(['NO', 'DK', 'FI']).optional(),
  isApp: z.boolean().optional(),
  scope: z.string().optional(),
})
export type DraftAgreementV3 = z.infer<typeof DraftAgreementV3>

export const DraftAgreementResponseV3 = z.object({
  agreementId: z.string(),
  uuid: z.string().optional(),
  vippsConfirmationUrl: z.string(),
  chargeId: z.string().nullable().optional(),
})
export type DraftAgreementResponseV3 = z.infer<typeof DraftAgreementResponseV3>

export const AgreementResponseV3 = z.object({
  id: z.string(),
  status: AgreementStatus,
  pricing: z.object({ type: z.string(), currency: CurrencyV3, amount: z.number().int().optional(), suggestedMaxAmount: z.number().int().optional() }),
  interval: z.object({ unit: z.string().optional(), count: z.number().int().optional(), text: z.string().optional() }),
  productName: z.string(),
  productDescription: z.string().optional(),
  created: z.string(),
  start: z.string().nullable().optional(),
  stop: z.string().nullable().optional(),
  merchantRedirectUrl: z.string().optional(),
  merchantAgreementUrl: z.string().optional(),
  externalId: z.string().nullable().optional(),
  sub: z.string().nullable().optional(),
  countryCode: z.string().optional(),
})
export type AgreementResponseV3 = z.infer<typeof AgreementResponseV3>

/** PATCH: change price or product name, or stop (status STOPPED). */
export const PatchAgreementV3 = z.object({
  productName: z.string().min(1).max(45).optional(),
  productDescription: z.string().max(100).optional(),
  status: z.literal('STOPPED').optional(),
  pricing: z.object({ amount: z.number().int().positive().optional(), suggestedMaxAmount: z.number().int().positive().optional() }).optional(),
  externalId: z.string().optional(),
})
export type PatchAgreementV3 = z.infer<typeof PatchAgreementV3>

export const CreateChargeV3 = z.object({
  amount: z.number().int(),
  transactionType: z.enum(['DIRECT_CAPTURE', 'RESERVE_CAPTURE']),
  type: z.enum(['RECURRING', 'UNSCHEDULED']).default('RECURRING'),
  description: z.string(),
  due: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional(),
  retryDays: z.number().int().optional(),
  orderId: z.string().max(50).optional(),
  externalId: z.string().max(64).optional(),
})
export type CreateChargeV3 = z.input<typeof CreateChargeV3>

export const CreateChargeResponse = z.object({ chargeId: z.string() })

export const ChargeEvent = z.object({
  occurred: z.string(),
  event: z.enum(['CREATE', 'RESERVE', 'CAPTURE', 'REFUND', 'CANCEL', 'FAIL']),
  amount: z.number().int(),
  idempotencyKey: z.string().nullable().optional(),
  success: z.boolean(),
})

export const ChargeResponseV3 = z.object({
  id: z.string(),
  agreementId: z.string(),
  amount: z.number().int(),
  currency: CurrencyV3,
  description: z.string(),
  due: z.string(),
  status: ChargeStatus,
  type: z.enum(['INITIAL', 'RECURRING', 'UNSCHEDULED']),
  transactionType: z.enum(['DIRECT_CAPTURE', 'RESERVE_CAPTURE']),
  retryDays: z.number().int(),
  externalId: z.string().nullable().optional(),
  failureReason: z.string().nullable().optional(),
  failureDescription: z.string().nullable().optional(),
  summary: z.object({ captured: z.number().int(), refunded: z.number().int(), cancelled: z.number().int() }),
  history: z.array(ChargeEvent),
})
export type ChargeResponseV3 = z.infer<typeof ChargeResponseV3>

export const RefundRequest = z.object({ amount: z.number().int(), description: z.string() })
export const CaptureRequestV3 = z.object({ amount: z.number().int(), description: z.string().optional() })

// --- Webhooks API v1 --------------------------------------------------------------------
/** The Recurring events of the Webhooks API (the list lives in the shared contract, which the register form uses). */
export const recurringWebhookEvents = vippsWebhookEvents
export const RecurringWebhookEvent = z.enum(recurringWebhookEvents)
export type RecurringWebhookEvent = z.infer<typeof RecurringWebhookEvent>

export const RegisterWebhookRequest = z.object({ url: z.string().min(1), events: z.array(z.string()).min(1) })
export const RegisterWebhookResponse = z.object({ id: z.string(), secret: z.string() })
export const WebhookList = z.object({ webhooks: z.array(z.object({ id: z.string(), url: z.string(), events: z.array(z.string()) })) })

/** The body Vipps posts for recurring events (agreement events have no charge fields). */
export const RecurringWebhookPayload = z.object({
  eventType: RecurringWebhookEvent,
  agreementId: z.string(),
  agreementExternalId: z.string().nullable().optional(),
  chargeId: z.string().nullable().optional(),
  chargeExternalId: z.string().nullable().optional(),
  amount: z.number().int().nullable().optional(),
  currency: z.string().nullable().optional(),
  occurred: z.string(),
  msn: z.string(),
  failureReason: z.string().nullable().optional(),
})
export type RecurringWebhookPayload = z.infer<typeof RecurringWebhookPayload>

// --- Errors (RFC 7807) ------------------------------------------------------------------
export const Problem = z.object({
  type: z.string().nullable().optional(),
  title: z.string().nullable().optional(),
  status: z.number().int().nullable().optional(),
  detail: z.string().nullable().optional(),
  instance: z.string().nullable().optional(),
  contextId: z.string().nullable().optional(),
  extraDetails: z
    .array(z.object({ name: z.string().optional(), field: z.string().optional(), reason: z.string().optional(), text: z.string().optional() }))
    .nullable()
    .optional(),
})
export type Problem = z.infer<typeof Problem>

// --- Vipps Login (OIDC) ---------------------------------------------------------------
export const OidcTokenResponse = z.object({ access_token: z.string(), id_token: z.string(), token_type: z.string(), expires_in: z.number().int() })
export const OidcUserinfo = z.object({
  sub: z.string(),
  phone_number: z.string().optional(),
  email: z.string().optional(),
  name: z.string().optional(),
  email_verified: z.boolean().optional(),
})
