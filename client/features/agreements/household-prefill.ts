/**
 * A new agreement for a household's payer (docs/decisions/0090): the household's address, its
 * current payer as the member, and the period and parts of its newest agreement, if any.
 */
import type { Household } from '../../../shared/contract/households'
import { livesThereOn } from '../../../shared/domain/household'
import type { Locale } from '../../lib/format'
import { newId } from '../../lib/ids'
import type { CreateAgreementForm, PartDraft } from './agreement-form'
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

type HouseholdLike = Partial<Household> & { id: string }
type Resident = Household['residents'][number]

/** Whom a payer may be picked among: those living there today, and those moving in later (a new payer's agreement starts on their move-in date). */
export const payerCandidates = (household: HouseholdLike, today: string): Resident[] =>
  (household.residents ?? [])
    .filter((r) => livesThereOn(r, today) || r.moveInDate > today)
    .sort((a, b) => Number(b.isPayer) - Number(a.isPayer) || a.fullName.localeCompare(b.fullName, 'da'))

/** What a household proposes for the agreement's lines: the parts, period and provider of its newest agreement; null when it has none. */
export function householdProposal(household: HouseholdLike, agreements: readonly AgreementView[], today: string, locale: Locale) {
  const { parts, paymentPeriod, paymentProviderId } = householdPrefill(household, agreements, today, locale)
  return parts ? { parts, ...(paymentPeriod ? { paymentPeriod } : {}), ...(paymentProviderId ? { paymentProviderId } : {}) } : null
}
export type HouseholdProposal = NonNullable<ReturnType<typeof householdProposal>>

/** A line nobody has typed in yet. */
const blank = (p: PartDraft) => p.description.trim() === '' && p.price.trim() === ''

/** A payer of `household` is the form's member (name and e-mail as the household has them). */
export const isMemberOf = (form: Pick<CreateAgreementForm, 'memberName' | 'emailAddress'>, r: Resident) =>
  r.fullName === form.memberName.trim() && (r.emailAddress ?? '').toLowerCase() === form.emailAddress.trim().toLowerCase()

/**
 * The create form with `household` chosen in the household picker (docs/PRODUCT.md "Agreement
 * create"): its address replaces the previously chosen household's (other addresses stay); its payer
 * becomes the member unless staff typed someone else; its last agreement's parts, period and
 * provider are proposed when no line has been typed yet (`proposed` says whether they were; when
 * not, the screen offers them). A later move-in date of the payer is the start date.
 */
export function chooseHousehold(
  form: CreateAgreementForm,
  previous: HouseholdLike | undefined,
  household: HouseholdLike,
  agreements: readonly AgreementView[],
  today: string,
  locale: Locale,
): { form: CreateAgreementForm; proposal: HouseholdProposal | null; proposed: boolean } {
  const next: CreateAgreementForm = {
    ...form,
    addressIds: [household.id, ...form.addressIds.filter((id) => id !== household.id && id !== previous?.id)],
  }
  const untouched = (form.memberName.trim() === '' && form.emailAddress.trim() === '') || (previous?.residents ?? []).some((r) => isMemberOf(form, r))
  const payer = payerCandidates(household, today)[0]
  if (untouched) {
    next.memberName = payer?.fullName ?? ''
    next.emailAddress = payer?.emailAddress ?? ''
    if (payer && payer.moveInDate > today) next.startPaymentDate = payer.moveInDate
  }
  const proposal = householdProposal(household, agreements, today, locale)
  const proposed = proposal !== null && form.parts.every(blank)
  return { form: proposed ? { ...next, ...proposal } : next, proposal, proposed }
}

/** The form with `resident` as its member (the payer picked among the household's residents). */
export const withPayer = (form: CreateAgreementForm, resident: Resident, today: string): CreateAgreementForm => ({
  ...form,
  memberName: resident.fullName,
  emailAddress: resident.emailAddress ?? '',
  ...(resident.moveInDate > today ? { startPaymentDate: resident.moveInDate } : {}),
})
