/**
 * Every versioned edit (a PATCH sent with If-Match, so it can be answered 412; docs/OFFLINE.md "Conflicts and refusals")
 * registers its fields, and the conflict screen shows their values in words: money in kroner,
 * dates as dates, enum values by their label, a part as one line — never ids, JSON or øre.
 */
import { setupI18n } from '@lingui/core'
import { describe, expect, it } from 'vitest'
import './all-mutation-kinds'
import { AGREEMENT_UPDATE } from '../features/agreements/agreement-mutations'
import { COMPANY_FIELD } from '../features/companies/company-mutations'
import { MEMBER_ROLE } from '../features/companies/company-child-mutations'
import { MESSAGE_UPDATE } from '../features/messages/message-mutations'
import { PROVIDER_SWITCH } from '../features/payment-providers/provider-mutations'
import { mergeSpecOf, rowValues } from './mutation-kinds'

const i18n = setupI18n({ locale: 'en', messages: { en: {} } })

describe('the fields of versioned edits', () => {
  it('every PATCH kind sent with If-Match has merge fields', () => {
    for (const kind of [AGREEMENT_UPDATE, COMPANY_FIELD, MEMBER_ROLE, MESSAGE_UPDATE, PROVIDER_SWITCH]) expect(mergeSpecOf(kind), kind).toBeDefined()
  })

  it('an agreement edit shows dates, periods and parts in words, in both languages', () => {
    const fields = mergeSpecOf(AGREEMENT_UPDATE)!.fields({ path: '/agreement/a', body: {} })
    const byName = Object.fromEntries(fields.map((f) => [f.name, f]))
    const en = { i18n, locale: 'en' as const }
    const da = { i18n, locale: 'da' as const }
    expect(i18n._(byName.nextRegularPaymentDate!.label)).toBe('Next payment date')
    expect(byName.nextRegularPaymentDate!.format('2027-02-01', en)).toBe('1 February 2027')
    expect(byName.nextRegularPaymentDate!.format('2027-02-01', da)).toBe('1. februar 2027')
    expect(byName.paymentPeriod!.format('YEARLY', en)).toBe('Yearly')
    const heat = { id: 'p1', type: 'HEAT', description: 'Aconto varme', price: 45000, vatRate: 0 }
    expect(byName.parts!.format(heat, en)).toBe('Aconto varme (Heating) — DKK\u00a0450.00')
    expect(byName.parts!.format(heat, da)).toBe('Aconto varme (Heating) — 450,00\u00a0kr.')
    expect(byName.parts!.format({ ...heat, description: 'Heating', vatRate: 25 }, en)).toBe('Heating — DKK\u00a0450.00, incl. 25 % VAT')
  })

  it('compares parts without the currency the row has and the request lacks', () => {
    const fields = mergeSpecOf(AGREEMENT_UPDATE)!.fields({ path: '/agreement/a', body: {} })
    const fromRow = rowValues(fields, { parts: [{ id: 'p1', type: 'HEAT', description: 'x', price: 1, vatRate: 0, currency: 'DKK' }] })
    expect(fromRow).toEqual({ parts: [{ id: 'p1', type: 'HEAT', description: 'x', price: 1, vatRate: 0 }] })
  })

  it('a company field edit is about the one field in its path, named as on the Overview', () => {
    const spec = mergeSpecOf(COMPANY_FIELD)!
    const fields = spec.fields({ path: '/company/c/field/unionType', body: { value: 'CONDO' } })
    expect(fields.map((f) => f.name)).toEqual(['unionType'])
    expect(i18n._(fields[0]!.label)).toBe('Union type')
    expect(fields[0]!.format('CONDO', { i18n, locale: 'en' })).toBe('Condominium (CONDO)')
    expect(fields[0]!.format(null, { i18n, locale: 'en' })).toBe('(empty)')
  })
})
