/**
 * What staff and members are told about an agreement's money (decisions 0035 and 0036): whether an ACCEPTED
 * agreement is really collected, and the next payment it will make — never one after its end.
 * Pure, so the list, the view and their tests agree.
 */
import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { collectionProblem, type CollectionProblem } from '../../../shared/domain/agreement-status'
import { upcomingPayment } from '../../../shared/domain/termination'
import type { AgreementView } from './use-agreements'

/** Short, for the list. */
export const collectionProblemShort: Record<CollectionProblem, MessageDescriptor> = {
  NO_PROVIDER_AGREEMENT: msg`Not collected: no Vipps MobilePay agreement`,
  PROVIDER_INACTIVE: msg`Not collected: payment provider switched off`,
  COMPANY_NOT_COLLECTING: msg`Not collected: the association is not active`,
}

/** For staff on the agreement: what is wrong and what to do. */
export const collectionProblemText: Record<CollectionProblem, MessageDescriptor> = {
  NO_PROVIDER_AGREEMENT: msg`This agreement is accepted, but it has no agreement in Vipps MobilePay, so no payment is collected. Terminate it and create a new agreement for the member to accept.`,
  PROVIDER_INACTIVE: msg`This agreement is accepted, but its payment provider is switched off, so no payment is collected. Ask the system administrator to switch it on; the missed payments are then collected.`,
  COMPANY_NOT_COLLECTING: msg`This agreement is accepted, but the association is suspended or deactivated, so no payment is collected.`,
}

/**
 * Why this agreement is not collected, or null. The server's answer, refined by the local copy of
 * the company's payment providers (staff have it), so switching a provider shows at once.
 */
export function collectionProblemOf(a: AgreementView, providers?: ReadonlyMap<string, { isActive?: boolean }>): CollectionProblem | null {
  if (a.status !== 'ACCEPTED') return null
  const provider = a.paymentProviderId ? providers?.get(a.paymentProviderId) : undefined
  return collectionProblem(
    { status: a.status, providerAgreementId: a.providerAgreementId ?? null },
    {
      companyCollects: a.collectionProblem !== 'COMPANY_NOT_COLLECTING',
      providerActive: provider?.isActive ?? a.collectionProblem !== 'PROVIDER_INACTIVE',
    },
  )
}

/**
 * The next payment to show: the next regular charge, else a termination's last payment; null
 * once the agreement has ended or will charge nothing more. Computed from the row itself, so an
 * agreement terminated offline shows the right date before the server answers.
 */
export function nextPaymentOf(a: AgreementView): { date: string; kind: 'REGULAR' | 'FINAL' } | null {
  if (!a.status || !a.paymentPeriod || !a.startPaymentDate) return a.nextRegularPaymentDate ? { date: a.nextRegularPaymentDate, kind: 'REGULAR' } : null
  return upcomingPayment({
    status: a.status,
    nextRegularPaymentDate: a.nextRegularPaymentDate ?? null,
    terminationDate: a.terminationDate ?? null,
    finalPaymentRequired: a.finalPaymentRequired === true,
    paymentPeriod: a.paymentPeriod,
    startPaymentDate: a.startPaymentDate,
  })
}

/** Someone of the association the create form can pick: its staff and the members of its agreements. */
export interface PickableMember {
  name: string
  email: string
}

/**
 * The association's own people for the member picker (docs/decisions/0037-an-agreement-for-someone-outside-the-association.md):
 * only the company's staff and the members of its agreements, from the local copy — never a
 * search of users beyond the association. One entry per e-mail, by name.
 */
export function pickableMembers(staff: readonly { name?: string; email?: string }[], agreements: readonly AgreementView[]): PickableMember[] {
  const byEmail = new Map<string, PickableMember>()
  for (const s of staff) if (s.email && s.name) byEmail.set(s.email.toLowerCase(), { name: s.name, email: s.email })
  for (const a of agreements) {
    const m = a.member
    if (m?.emailAddress && m.fullName && !byEmail.has(m.emailAddress.toLowerCase()))
      byEmail.set(m.emailAddress.toLowerCase(), { name: m.fullName, email: m.emailAddress })
  }
  return [...byEmail.values()].sort((x, y) => x.name.localeCompare(y.name, 'da') || x.email.localeCompare(y.email))
}
