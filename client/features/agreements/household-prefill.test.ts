import { describe, expect, it } from 'vitest'
import type { CreateAgreementForm } from './agreement-form'
import { chooseHousehold, householdPrefill, payerCandidates, withPayer } from './household-prefill'
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

const blankForm = (): CreateAgreementForm => ({
  memberName: '',
  emailAddress: '',
  addressIds: [],
  paymentProviderId: '',
  startPaymentDate: '',
  paymentPeriod: 'MONTHLY',
  parts: [{ key: 'k0', type: 'OTHER', description: '', price: '', vatRate: 0 }],
})
const other = {
  id: 'h2',
  residents: [
    { ...household.residents[1]!, id: 'r2', householdId: 'h2', userId: 'u2', fullName: 'Anders And', emailAddress: 'anders@example.dk', isPayer: false },
    { ...household.residents[1]!, id: 'r3', householdId: 'h2', userId: 'u3', fullName: 'Bodil Bo', emailAddress: 'bodil@example.dk', isPayer: true },
    {
      ...household.residents[1]!,
      id: 'r4',
      householdId: 'h2',
      userId: 'u4',
      fullName: 'Carl Ny',
      emailAddress: 'carl@example.dk',
      moveInDate: '2027-02-01',
      isPayer: false,
    },
  ],
}

describe('the household picker of the create form (decision 0090)', () => {
  it('offers the payer first, then the current and arriving residents by name; never who moved out', () => {
    expect(payerCandidates(other, '2026-12-03').map((r) => r.fullName)).toEqual(['Bodil Bo', 'Anders And', 'Carl Ny'])
    expect(payerCandidates(household, '2026-12-03').map((r) => r.fullName)).toEqual(['Sofie Jensen'])
  })

  it('links the address, fills the payer and proposes the last agreement’s lines into an untouched form', () => {
    const { form, proposal, proposed } = chooseHousehold(blankForm(), undefined, household, [agreement('new', '2021-01-01', 450_050)], '2026-12-03', 'da')
    expect(proposed).toBe(true)
    expect(proposal?.parts).toHaveLength(1)
    expect(form).toMatchObject({
      addressIds: ['h1'],
      memberName: 'Sofie Jensen',
      emailAddress: 'sofie@example.dk',
      paymentPeriod: 'YEARLY',
      paymentProviderId: 'p1',
    })
    expect(form.parts[0]).toMatchObject({ description: 'Boligafgift', price: '4500,50' })
  })

  it('keeps typed lines and a typed member (the proposal is offered instead), and another household replaces the first one’s address', () => {
    const typed: CreateAgreementForm = {
      ...blankForm(),
      memberName: 'Ny Person',
      emailAddress: 'ny@example.dk',
      addressIds: ['a9'],
      parts: [{ key: 'k1', type: 'FEE', description: 'Leje', price: '100', vatRate: 0 }],
    }
    const first = chooseHousehold(typed, undefined, household, [agreement('new', '2021-01-01', 450_050)], '2026-12-03', 'en')
    expect(first.proposed).toBe(false)
    expect(first.proposal).not.toBeNull()
    expect(first.form).toMatchObject({ addressIds: ['h1', 'a9'], memberName: 'Ny Person', emailAddress: 'ny@example.dk' })
    expect(first.form.parts.map((p) => p.description)).toEqual(['Leje'])
    // The payer picked among the residents fills the member; choosing another household then follows it.
    const picked = withPayer(first.form, household.residents[1]!, '2026-12-03')
    expect(picked).toMatchObject({ memberName: 'Sofie Jensen', emailAddress: 'sofie@example.dk' })
    const second = chooseHousehold(picked, household, other, [], '2026-12-03', 'en')
    expect(second.proposal).toBeNull()
    expect(second.form).toMatchObject({ addressIds: ['h2', 'a9'], memberName: 'Bodil Bo', emailAddress: 'bodil@example.dk' })
    // An arriving payer starts the agreement on their move-in date.
    expect(withPayer(second.form, other.residents[2]!, '2026-12-03')).toMatchObject({ memberName: 'Carl Ny', startPaymentDate: '2027-02-01' })
  })
})
