/**
 * The agreement create and edit forms as plain data, and their mapping to the request bodies of
 * docs/PRODUCT.md §3. Prices are typed in kroner and sent as integer øre; the shared zod schemas validate the
 * result, so the form shows exactly the docs/PRODUCT.md §5 messages the server would answer with.
 */
import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import type { z } from 'zod'
import {
  AgreementPartInput,
  CreateAgreementRequest,
  type Agreement,
  UpdateAgreementRequest,
  type CreateAgreementInput,
  type UpdateAgreementInput,
} from '../../../shared/contract/agreements'
import { issueMessage } from '../../../shared/contract/text'
import { DEFAULT_VAT_RATE, priceOfParts, type PartType, type PaymentPeriod, type VatRate } from '../../../shared/domain/agreement-parts'
import type { Locale } from '../../lib/format'
import { oreToKronerInput, parseKroner } from '../../lib/kroner-input'

/** An address as an agreement holds it. */
export type AgreementAddress = Agreement['addresses'][number]

/** docs/PRODUCT.md §9: the forms start with MONTHLY. */
export const DEFAULT_PAYMENT_PERIOD: PaymentPeriod = 'MONTHLY'

/** One line of the parts editor. `key` is the React key; `id` the part's id once it has one. */
export interface PartDraft {
  key: string
  id?: string
  type: PartType | ''
  description: string
  /** Kroner as typed ("1234,50"). */
  price: string
  vatRate: VatRate
}

export interface CreateAgreementForm {
  memberName: string
  emailAddress: string
  addressIds: string[]
  paymentProviderId: string
  startPaymentDate: string
  paymentPeriod: PaymentPeriod | ''
  parts: PartDraft[]
}

export interface EditAgreementForm {
  nextRegularPaymentDate: string
  paymentPeriod: PaymentPeriod | ''
  parts: PartDraft[]
}

export const emptyPart = (key: string, type: PartType): PartDraft => ({ key, type, description: '', price: '', vatRate: DEFAULT_VAT_RATE })

/** Parts already stored (edit screen) as editor lines, prices back in kroner for the locale. */
export const partDrafts = (
  parts: readonly { id: string; type: PartType; description: string; price: number; vatRate?: number }[],
  locale: Locale,
): PartDraft[] =>
  parts.map((p) => ({
    key: p.id,
    id: p.id,
    type: p.type,
    description: p.description,
    price: oreToKronerInput(p.price, locale),
    vatRate: p.vatRate === 25 ? 25 : 0,
  }))

/** A typed price that is not empty but is no amount: the editor says so itself (zod only sees "no number"). */
export const priceUnreadable = (part: PartDraft) => part.price.trim() !== '' && parseKroner(part.price) === null

/** The part as the API takes it; an unreadable or empty price becomes undefined, which the schema refuses. */
export function partInput(part: PartDraft): z.input<typeof AgreementPartInput> {
  return {
    ...(part.id ? { id: part.id } : {}),
    type: (part.type || undefined) as PartType,
    description: part.description,
    price: parseKroner(part.price) ?? (undefined as unknown as number),
    vatRate: part.vatRate,
    currency: 'DKK',
  }
}

/** The sum of the parts in øre, or null while a price is missing or unreadable. */
export function totalOre(parts: readonly PartDraft[]): number | null {
  const prices = parts.map((p) => parseKroner(p.price))
  return prices.every((p): p is number => p !== null) ? priceOfParts(prices.map((price) => ({ price }))) : null
}

/** POST /agreement body (docs/PRODUCT.md §3 "Create payload"), before validation. */
export function createRequestOf(form: CreateAgreementForm, ids: { id: string; companyId: string }): CreateAgreementInput & { id: string } {
  const total = totalOre(form.parts)
  return {
    id: ids.id,
    memberName: form.memberName,
    emailAddress: form.emailAddress,
    companyId: ids.companyId,
    paymentProviderId: form.paymentProviderId || (undefined as unknown as string),
    linkedAddress: form.addressIds,
    // Sent only when every price reads: the schema checks that it is the sum of the parts.
    ...(total !== null ? { price: total } : {}),
    currency: 'DKK',
    startPaymentDate: form.startPaymentDate,
    paymentPeriod: (form.paymentPeriod || undefined) as PaymentPeriod,
    parts: form.parts.map(partInput),
  }
}

/** PATCH /agreement/{id} body (docs/PRODUCT.md §3 "Update payload"), before validation. */
export function updateRequestOf(form: EditAgreementForm): UpdateAgreementInput {
  const total = totalOre(form.parts)
  return {
    nextRegularPaymentDate: form.nextRegularPaymentDate,
    paymentPeriod: (form.paymentPeriod || undefined) as PaymentPeriod,
    parts: form.parts.map(partInput),
    ...(total !== null ? { price: total } : {}),
    currency: 'DKK',
  }
}

/** Field errors keyed by the body's field name, or `parts.<index>.<field>` for a part. */
export type FieldErrors = Record<string, MessageDescriptor>

export const unreadablePrice = msg`Enter the price in kroner with at most two decimals, e.g. 1234,50`

/** zod issues → the first message per field (message ids of shared/i18n-messages.ts, translated by the caller). */
export function errorsOf(issues: readonly z.core.$ZodIssue[], parts: readonly PartDraft[]): FieldErrors {
  const errors: FieldErrors = {}
  for (const issue of issues) {
    const [first, index, field] = issue.path
    const key = first === 'parts' && typeof index === 'number' && typeof field === 'string' ? `parts.${index}.${field}` : String(first ?? '')
    const { message, values } = issueMessage(issue)
    errors[key] ??= values ? { id: message, values } : { id: message }
  }
  parts.forEach((p, i) => {
    if (priceUnreadable(p)) errors[`parts.${i}.price`] = unreadablePrice
  })
  return errors
}

/** Validates a create form: the body to send, or the errors to show. */
export function validateCreate(form: CreateAgreementForm, ids: { id: string; companyId: string }) {
  const parsed = CreateAgreementRequest.safeParse(createRequestOf(form, ids))
  if (!parsed.success || form.parts.some(priceUnreadable)) return { ok: false as const, errors: errorsOf(parsed.error?.issues ?? [], form.parts) }
  return { ok: true as const, body: { ...parsed.data, id: ids.id } }
}

/** Validates an edit form: the body to send, or the errors to show. */
export function validateEdit(form: EditAgreementForm) {
  const parsed = UpdateAgreementRequest.safeParse(updateRequestOf(form))
  if (!parsed.success || form.parts.some(priceUnreadable)) return { ok: false as const, errors: errorsOf(parsed.error?.issues ?? [], form.parts) }
  return { ok: true as const, body: parsed.data }
}

/** docs/PRODUCT.md §5: a part may be added only after the one before it is complete. Errors of `part` at `index`, if any. */
export function partErrors(part: PartDraft, index: number): FieldErrors | null {
  const parsed = AgreementPartInput.safeParse(partInput(part))
  if (parsed.success && !priceUnreadable(part)) return null
  const issues = (parsed.error?.issues ?? []).map((issue) => ({ ...issue, path: ['parts', index, ...issue.path] }))
  const errors = errorsOf(issues, [])
  if (priceUnreadable(part)) errors[`parts.${index}.price`] = unreadablePrice
  return errors
}
