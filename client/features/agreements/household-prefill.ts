/**
 * A new agreement for a household's payer (docs/decisions/0090): the household's address, its
 * current payer as the member, and the period and parts of its newest agreement, if any.
 */
import type { Household } from '../../../shared/contract/households'
import { livesThereOn } from '../../../shared/domain/household'
import type { Locale } from '../../lib/format'
import { newId } from '../../lib/ids'
import type { CreateAgreementForm } from './agreement-form'
import { partDrafts } from './agreement-form'
import type { AgreementView } from './use-agreements'

export function householdPrefill(household: Partial<Household> & { id: string }, agreements: readonly AgreementView[], today: string, locale: Locale) {
  const living = (household.residents ?? []).filter((r) => livesThereOn(r, today) || r.moveInDate > today)
  const payer = living.find((r) => r.isPayer) ?? living[0]
  const last = agreements.filter((a) => a.addresses?.some((x) => x.id === household.id)).sort((a, b) => ((a.createdAt ?? '') < (b.createdAt ?? '') ? 1 : -1))[0]
  const form: Partial<CreateAgreementForm> = { addressIds: [household.id] }
  if (payer) {
    form.memberName = payer.fullName
    if (payer.emailAddress) form.emailAddress = payer.emailAddress
    if (payer.moveInDate > today) form.startPaymentDate = payer.moveInDate
  }
  if (last?.parts?.length) {
    // New lines of a new agreement: fresh keys, no stored ids.
    form.parts = partDrafts(last.parts, locale).map(({ id: _id, ...d }) => ({ ...d, key: newId() }))
    if (last.paymentPeriod) form.paymentPeriod = last.paymentPeriod
    if (last.paymentProviderId) form.paymentProviderId = last.paymentProviderId
  }
  return form
}
