import { describe, expect, it } from 'vitest'
import { householdPrefill } from './household-prefill'
import type { AgreementView } from './use-agreements'

const household = {
  id: 'h1',
  residents: [
    {
      id: 'r0',
      householdId: 'h1',
      userId: 'u0',
      fullName: 'Tidligere',
      emailAddress: 'old@example.dk',
      moveInDate: '2010-01-01',
      moveOutDate: '2020-01-01',
      kind: 'OWNER' as const,
      isPayer: true,
    },
    {
      id: 'r1',
      householdId: 'h1',
      userId: 'u1',
      fullName: 'Sofie Jensen',
      emailAddress: 'sofie@example.dk',
      moveInDate: '2020-01-01',
      moveOutDate: null,
      kind: 'OWNER' as const,
      isPayer: true,
    },
  ],
}
const agreement = (id: string, createdAt: string, price: number, address = 'h1'): AgreementView =>
  ({
    id,
    createdAt,
    addresses: [{ id: address }],
    paymentPeriod: 'YEARLY',
    paymentProviderId: 'p1',
    parts: [{ id: `${id}-a`, type: 'COMMON_EXPENSES', description: 'Boligafgift', price, vatRate: 0 }],
  }) as unknown as AgreementView

describe('an agreement for a household’s payer (decision 0090)', () => {
  it('takes the address, the current payer and the newest agreement’s period, provider and parts as new lines', () => {
    const form = householdPrefill(
      household,
      [agreement('old', '2019-01-01', 100_000), agreement('new', '2021-01-01', 450_050), agreement('x', '2022-01-01', 1, 'h2')],
      '2026-12-03',
      'da',
    )
    expect(form).toMatchObject({
      addressIds: ['h1'],
      memberName: 'Sofie Jensen',
      emailAddress: 'sofie@example.dk',
      paymentPeriod: 'YEARLY',
      paymentProviderId: 'p1',
    })
    expect(form.parts).toHaveLength(1)
    expect(form.parts![0]).toMatchObject({ type: 'COMMON_EXPENSES', description: 'Boligafgift', price: '4500,50' })
    expect(form.parts![0]!.id).toBeUndefined()
    expect(form.parts![0]!.key).not.toBe('new-a')
  })

  it('starts on the move-in date of a payer who has not moved in yet, and keeps the form’s parts without an earlier agreement', () => {
    const arriving = { id: 'h1', residents: [{ ...household.residents[1]!, moveInDate: '2027-01-11' }] }
    const form = householdPrefill(arriving, [], '2026-12-03', 'en')
    expect(form).toMatchObject({ memberName: 'Sofie Jensen', startPaymentDate: '2027-01-11' })
    expect(form.parts).toBeUndefined()
  })
})
