import { describe, expect, it } from 'vitest'
import { messages } from '../../../shared/i18n-messages'
import {
  createRequestOf,
  emptyPart,
  partDrafts,
  partErrors,
  totalOre,
  unreadablePrice,
  validateCreate,
  validateEdit,
  type CreateAgreementForm,
  type PartDraft,
} from './agreement-form'

const ids = { id: '0b1c2d3e-4f50-4617-8293-a4b5c6d7e8f9', companyId: '11111111-2222-4333-8444-555555555555' }
const addressId = '66666666-7777-4888-8999-aaaaaaaaaaaa'
const providerId = 'bbbbbbbb-cccc-4ddd-8eee-ffffffffffff'

const part = (over: Partial<PartDraft> = {}): PartDraft => ({ ...emptyPart('k1', 'OTHER'), description: 'Boligafgift', price: '4.250,50', ...over })

const filled = (over: Partial<CreateAgreementForm> = {}): CreateAgreementForm => ({
  memberName: '  Sofie Jensen ',
  emailAddress: 'Sofie@Example.DK',
  addressIds: [addressId],
  paymentProviderId: providerId,
  startPaymentDate: '2026-12-01',
  paymentPeriod: 'MONTHLY',
  parts: [part(), part({ key: 'k2', type: 'HEAT', description: 'Varme', price: '0.1', vatRate: 25 })],
  ...over,
})

describe('create form → POST /agreement body', () => {
  it('sends øre, the sum of the parts as price, DKK and the client id', () => {
    const result = validateCreate(filled(), ids)
    expect(result.ok).toBe(true)
    if (!result.ok) return
    expect(result.body).toEqual({
      id: ids.id,
      memberName: 'Sofie Jensen',
      emailAddress: 'sofie@example.dk',
      companyId: ids.companyId,
      paymentProviderId: providerId,
      linkedAddress: [addressId],
      price: 425060,
      currency: 'DKK',
      startPaymentDate: '2026-12-01',
      paymentPeriod: 'MONTHLY',
      parts: [
        { type: 'OTHER', description: 'Boligafgift', price: 425050, vatRate: 0, currency: 'DKK' },
        { type: 'HEAT', description: 'Varme', price: 10, vatRate: 25, currency: 'DKK' },
      ],
    })
    expect(result.body.parts.every((p) => Number.isInteger(p.price))).toBe(true)
  })

  it('answers the docs/PRODUCT.md §5 message of every missing field', () => {
    const result = validateCreate(
      { memberName: ' ', emailAddress: 'nope', addressIds: [], paymentProviderId: '', startPaymentDate: '', paymentPeriod: '', parts: [] },
      ids,
    )
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.errors.memberName?.id).toBe(messages.memberNameRequired.id)
    expect(result.errors.emailAddress?.id).toBe(messages.invalidEmail.id)
    expect(result.errors.linkedAddress?.id).toBe(messages.addressesRequired.id)
    expect(result.errors.paymentProviderId?.id).toBe(messages.paymentProviderRequired.id)
    expect(result.errors.startPaymentDate?.id).toBe(messages.startPaymentDateRequired.id)
    expect(result.errors.paymentPeriod?.id).toBe(messages.paymentPeriodRequired.id)
    expect(result.errors.parts?.id).toBe(messages.partsRequired.id)
  })

  it('puts part messages on the part and its field', () => {
    const result = validateCreate(filled({ parts: [part(), part({ key: 'k2', description: ' ', price: '0' }), part({ key: 'k3', price: '12,345' })] }), ids)
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.errors['parts.1.description']?.id).toBe(messages.partDescriptionRequired.id)
    expect(result.errors['parts.1.price']?.id).toBe(messages.partPriceInvalid.id)
    expect(result.errors['parts.2.price']?.id).toBe(unreadablePrice.id)
    expect(result.errors['parts.0.price']).toBeUndefined()
    expect(result.errors.price).toBeUndefined()
  })

  it('leaves price out while a part price is unreadable', () => {
    expect(createRequestOf(filled({ parts: [part({ price: 'x' })] }), ids)).not.toHaveProperty('price')
  })
})

describe('parts', () => {
  it('totals the typed kroner exactly in øre', () => {
    expect(totalOre([part({ price: '0,1' }), part({ price: '0.2' })])).toBe(30)
    expect(totalOre([part({ price: '' })])).toBeNull()
  })

  it('lets a part be added only after the one before is complete (docs/PRODUCT.md §5)', () => {
    expect(partErrors(part(), 0)).toBeNull()
    const errors = partErrors(part({ type: '', description: '', price: '' }), 2)
    expect(Object.keys(errors ?? {}).sort()).toEqual(['parts.2.description', 'parts.2.price', 'parts.2.type'])
  })

  it('shows stored parts in kroner and keeps their ids', () => {
    expect(partDrafts([{ id: 'p1', type: 'FEE', description: 'Fee', price: 123456, vatRate: 25 }], 'da')).toEqual([
      { key: 'p1', id: 'p1', type: 'FEE', description: 'Fee', price: '1234,56', vatRate: 25 },
    ])
  })
})

describe('edit form → PATCH /agreement/{id} body', () => {
  it('keeps part ids and sends the new sum', () => {
    const result = validateEdit({
      nextRegularPaymentDate: '2027-01-01',
      paymentPeriod: 'YEARLY',
      parts: [part({ key: 'p1', id: 'p1', price: '100' }), part({ key: 'new', price: '0,50', type: 'FEE' })],
    })
    expect(result.ok && result.body).toEqual({
      nextRegularPaymentDate: '2027-01-01',
      paymentPeriod: 'YEARLY',
      parts: [
        { id: 'p1', type: 'OTHER', description: 'Boligafgift', price: 10000, vatRate: 0, currency: 'DKK' },
        { type: 'FEE', description: 'Boligafgift', price: 50, vatRate: 0, currency: 'DKK' },
      ],
      price: 10050,
      currency: 'DKK',
    })
  })

  it('requires the next payment date with the docs/PRODUCT.md §5 message', () => {
    const result = validateEdit({ nextRegularPaymentDate: '', paymentPeriod: 'MONTHLY', parts: [part()] })
    expect(!result.ok && result.errors.nextRegularPaymentDate?.id).toBe(messages.startPaymentDateRequired.id)
  })
})
