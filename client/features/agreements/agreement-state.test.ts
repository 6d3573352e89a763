import { describe, expect, it } from 'vitest'
import { collectionProblemOf, nextPaymentOf, pickableMembers } from './agreement-state'
import type { AgreementView } from './use-agreements'

const row = (extra: Partial<AgreementView>): AgreementView =>
  ({
    id: 'a',
    _version: 1,
    status: 'ACCEPTED',
    paymentPeriod: 'MONTHLY',
    startPaymentDate: '2027-01-01',
    nextRegularPaymentDate: '2027-02-01',
    terminationDate: null,
    finalPaymentRequired: false,
    paymentProviderId: 'p',
    providerAgreementId: 'agr_1',
    collectionProblem: null,
    ...extra,
  }) as AgreementView

describe('what the agreement screens say about money', () => {
  it('an accepted agreement without a Vipps agreement, or with its provider switched off here, is not collected', () => {
    expect(collectionProblemOf(row({}))).toBeNull()
    expect(collectionProblemOf(row({ providerAgreementId: null, collectionProblem: 'NO_PROVIDER_AGREEMENT' }))).toBe('NO_PROVIDER_AGREEMENT')
    // The local copy of the providers wins: switched off (or on again) shows at once.
    expect(collectionProblemOf(row({}), new Map([['p', { isActive: false }]]))).toBe('PROVIDER_INACTIVE')
    expect(collectionProblemOf(row({ collectionProblem: 'PROVIDER_INACTIVE' }), new Map([['p', { isActive: true }]]))).toBeNull()
    expect(collectionProblemOf(row({ collectionProblem: 'PROVIDER_INACTIVE' }))).toBe('PROVIDER_INACTIVE')
    expect(collectionProblemOf(row({ status: 'CREATED', providerAgreementId: null }))).toBeNull()
  })

  it('shows no next payment after the end; a terminating agreement shows its last payment', () => {
    expect(nextPaymentOf(row({}))).toEqual({ date: '2027-02-01', kind: 'REGULAR' })
    expect(nextPaymentOf(row({ status: 'CANCELED', terminationDate: '2027-01-20', nextRegularPaymentDate: '2027-02-01' }))).toBeNull()
    // Terminated offline, before the server answered: the row still holds its next regular date.
    expect(nextPaymentOf(row({ terminationDate: '2027-03-01', finalPaymentRequired: true }))).toEqual({ date: '2027-02-26', kind: 'FINAL' })
    expect(nextPaymentOf(row({ terminationDate: '2027-03-01', finalPaymentRequired: true, nextRegularPaymentDate: null }))).toEqual({
      date: '2027-02-26',
      kind: 'FINAL',
    })
  })

  it("offers the association's own people once each, by name", () => {
    const staff = [
      { name: 'Karen Holm', email: 'formand@solgaarden.dk' },
      { name: 'Anders Nielsen', email: 'admin@solgaarden.dk' },
    ]
    const agreements = [
      row({ member: { userId: 'u', title: 'EH', fullName: 'Emma Hansen', emailAddress: 'beboer03@solgaarden.dk', isVerified: true } }),
      row({ member: { userId: 'k', title: 'KH', fullName: 'Karen Holm', emailAddress: 'FORMAND@solgaarden.dk', isVerified: true } }),
    ]
    expect(pickableMembers(staff, agreements)).toEqual([
      { name: 'Anders Nielsen', email: 'admin@solgaarden.dk' },
      { name: 'Emma Hansen', email: 'beboer03@solgaarden.dk' },
      { name: 'Karen Holm', email: 'formand@solgaarden.dk' },
    ])
  })
})
