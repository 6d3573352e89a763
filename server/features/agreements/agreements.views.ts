import type { Db } from '../../db/client'
import type { Agreement } from '../../../shared/contract/agreements'
import { initialsOf } from '../../../shared/domain/agreement-parts'
import { upcomingPayment, type PaymentSchedule } from '../../../shared/domain/termination'
import { collectionProblem, type CollectionProblem } from '../../../shared/domain/agreement-status'
import { collectsCharges } from '../../../shared/domain/company-status'
import type { ChargeRow, ChargesService } from '../billing/charges.service'
import type { CompaniesService } from '../companies/companies.service'
import type { ProvidersService } from '../payment-providers/providers.service'
import { agreementsRepository as repo, type AgreementRow } from './agreements.repository'

export type AgreementViews = ReturnType<typeof createAgreementViews>

/** An agreement as the API and the offline store show it: member, addresses, parts, overdue, next payment, why it cannot be charged. */
export function createAgreementViews(deps: { db: Db; companies: CompaniesService; providers: ProvidersService; charges: ChargesService }) {
  const { db, companies, providers, charges } = deps

  function overdueOf(charges: ChargeRow[]): boolean {
    const lastFailed = charges.filter((c) => c.status === 'FAILED').reduce<string | null>((m, c) => (m === null || c.due > m ? c.due : m), null)
    if (lastFailed === null) return false
    return !charges.some((c) => c.status === 'EXECUTED' && c.due >= lastFailed)
  }

  const scheduleOf = (row: AgreementRow): PaymentSchedule => ({
    price: row.priceOre,
    paymentPeriod: row.paymentPeriod,
    startPaymentDate: row.startPaymentDate,
    nextRegularPaymentDate: row.nextRegularPaymentDate,
  })

  /**
   * Why an ACCEPTED agreement cannot be charged, or null (issue #16): billing skips it (no Vipps
   * agreement, a switched-off provider, a company that collects nothing), so staff are told.
   */
  function collectionProblemOf(row: AgreementRow): CollectionProblem | null {
    const provider = providers.byId(row.paymentProviderId)
    const company = companies.byId(row.companyId)
    return collectionProblem(
      { status: row.status, providerAgreementId: row.vippsAgreementId },
      { providerActive: provider?.isActive ?? false, companyCollects: company ? collectsCharges(company.status) : false },
    )
  }

  function view(row: AgreementRow): Agreement {
    const member = repo.member(db, row.memberUserId)!
    const chargeRows = charges.rowsOf(row.id)
    // No next payment after the end (issue #16): the regular ones, then a termination's last payment.
    const upcoming = upcomingPayment(row)
    return {
      id: row.id,
      externalId: String(row.externalSeq),
      companyId: row.companyId,
      paymentProviderId: row.paymentProviderId,
      member: {
        userId: member.id,
        title: initialsOf(member.fullName),
        fullName: member.fullName,
        emailAddress: member.emailAddress,
        isVerified: repo.hasSignIn(db, member.id),
      },
      addresses: repo
        .addresses(db, row.id)
        .map((a) => ({ id: a.id, street: a.street, number: a.number, floor: a.floor, side: a.side, zip: a.zip, city: a.city, country: a.country })),
      price: row.priceOre,
      currency: row.currency,
      status: row.status,
      overdue: overdueOf(chargeRows),
      debtCollection: row.debtCollectionSince !== null && overdueOf(chargeRows),
      debtCollectionSince: row.debtCollectionSince,
      paymentPeriod: row.paymentPeriod,
      startPaymentDate: row.startPaymentDate,
      nextRegularPaymentDate: upcoming?.kind === 'REGULAR' ? upcoming.date : null,
      nextPaymentDate: upcoming?.date ?? null,
      terminationDate: row.terminationDate,
      finalPaymentRequired: row.finalPaymentRequired,
      parts: repo
        .parts(db, row.id)
        .map((p) => ({ id: p.id, type: p.type, description: p.description, price: p.priceOre, vatRate: p.vatRate, currency: 'DKK' as const })),
      providerAgreementId: row.vippsAgreementId,
      collectionProblem: collectionProblemOf(row),
      version: row.version,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    }
  }

  return { view, scheduleOf, overdueOf }
}
