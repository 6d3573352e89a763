import type { Db } from '../../db/client'
import type { Agreement } from '../../../shared/contract/agreements'
import { initialsOf } from '../../../shared/domain/agreement-parts'
import { upcomingPayment, type PaymentSchedule } from '../../../shared/domain/termination'
import { collectionProblem, type CollectionProblem } from '../../../shared/domain/agreement-status'
import { collectsCharges, type CompanyStatus } from '../../../shared/domain/company-status'
import type { AgreementRow } from './agreements.repository'
import { agreementReads, type AddressFacts, type MemberFacts, type PartFacts } from './agreements.reads'

const groupBy = <T extends { agreementId: string }>(rows: T[]): Map<string, T[]> => {
  const by = new Map<string, T[]>()
  for (const r of rows) {
    const list = by.get(r.agreementId)
    if (list) list.push(r)
    else by.set(r.agreementId, [r])
  }
  return by
}

/** Company statuses and provider switches of a set of rows, by id (AgreementViews.collectingOf). */
interface CollectionContext {
  companies: Map<string, string>
  providers: Map<string, boolean>
}

/** What one view is made of besides its row: the set's members, addresses, parts, overdue ids and collecting facts. */
interface ViewContext {
  members: Map<string, MemberFacts>
  addresses: Map<string, AddressFacts[]>
  parts: Map<string, PartFacts[]>
  overdue: Set<string>
  collecting: CollectionContext
}

/**
 * An agreement as the API and the offline store show it: member, addresses, parts, overdue, next
 * payment, why it cannot be charged. Built for a set of rows at once (five queries per row made a
 * page of 500 take a second; docs/API.md "Lists": a page costs a constant number of statements).
 */
export class AgreementViews {
  constructor(private readonly deps: { db: Db }) {}

  scheduleOf(row: AgreementRow): PaymentSchedule {
    return {
      price: row.priceOre,
      paymentPeriod: row.paymentPeriod,
      startPaymentDate: row.startPaymentDate,
      nextRegularPaymentDate: row.nextRegularPaymentDate,
    }
  }

  /**
   * The views of `rows`, in their order, in a constant number of statements however many there
   * are (agreements.reads.ts): the list, a sync page and a single agreement all come through here.
   * `on` is the handle to read with (the sync endpoint passes its own). An arrow property: it is
   * handed around detached (`const { viewsOf } = views`).
   */
  readonly viewsOf = async (rows: readonly AgreementRow[], on: Db = this.deps.db): Promise<Agreement[]> => {
    if (rows.length === 0) return []
    const ids = [JSON.stringify(rows.map((r) => r.id))] as [string]
    const members = new Map((await agreementReads.members.all(on, [JSON.stringify([...new Set(rows.map((r) => r.memberUserId))])])).map((m) => [m.id, m]))
    const addresses = groupBy(await agreementReads.addresses.all(on, ids))
    const parts = groupBy(await agreementReads.parts.all(on, ids))
    const overdue = new Set(await agreementReads.overdue.all(on, ids))
    const collecting = await this.collectingOf(rows, on)
    return rows.map((row) => this.viewOf(row, { members, addresses, parts, overdue, collecting }))
  }

  /** One agreement's view (an arrow property like viewsOf: `rows.map(view)`). */
  readonly view = async (row: AgreementRow): Promise<Agreement> => (await this.viewsOf([row]))[0]!

  private viewOf(row: AgreementRow, context: ViewContext): Agreement {
    const member = context.members.get(row.memberUserId)!
    const isOverdue = context.overdue.has(row.id)
    // No next payment after the end (decision 0035): the regular ones, then a termination's last payment.
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
        isVerified: member.verified === 1,
      },
      addresses: (context.addresses.get(row.id) ?? []).map((a) => ({
        id: a.id,
        street: a.street,
        number: a.number,
        floor: a.floor,
        side: a.side,
        zip: a.zip,
        city: a.city,
        country: a.country,
      })),
      price: row.priceOre,
      currency: row.currency,
      status: row.status,
      overdue: isOverdue,
      debtCollection: row.debtCollectionSince !== null && isOverdue,
      debtCollectionSince: row.debtCollectionSince,
      paymentPeriod: row.paymentPeriod,
      startPaymentDate: row.startPaymentDate,
      nextRegularPaymentDate: upcoming?.kind === 'REGULAR' ? upcoming.date : null,
      nextPaymentDate: upcoming?.date ?? null,
      terminationDate: row.terminationDate,
      finalPaymentRequired: row.finalPaymentRequired,
      parts: (context.parts.get(row.id) ?? []).map((p) => ({
        id: p.id,
        type: p.type,
        description: p.description,
        price: p.priceOre,
        vatRate: p.vatRate,
        currency: 'DKK' as const,
      })),
      providerAgreementId: row.vippsAgreementId,
      collectionProblem: this.collectionProblemOf(row, context.collecting),
      version: row.version,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    }
  }

  /** Company statuses and provider switches, read only for ACCEPTED rows: no other status has a collection problem. */
  private async collectingOf(rows: readonly AgreementRow[], on: Db): Promise<CollectionContext> {
    const companies = new Map<string, string>()
    const providers = new Map<string, boolean>()
    const accepted = rows.filter((r) => r.status === 'ACCEPTED')
    if (accepted.length === 0) return { companies, providers }
    const unique = (ids: string[]) => JSON.stringify([...new Set(ids)])
    const facts = await agreementReads.collecting.all(on, [unique(accepted.map((a) => a.companyId)), unique(accepted.map((a) => a.paymentProviderId))])
    for (const r of facts)
      if (r.kind === 'company') companies.set(r.id, r.status!)
      else providers.set(r.id, r.active === 1)
    return { companies, providers }
  }

  /**
   * Why an ACCEPTED agreement cannot be charged, or null (docs/decisions/0036-an-accepted-agreement-that-is-not-collected-says-so.md): billing skips it (no Vipps
   * agreement, a switched-off provider, a company that collects nothing), so staff are told.
   */
  private collectionProblemOf(row: AgreementRow, context: CollectionContext): CollectionProblem | null {
    const companyStatus = context.companies.get(row.companyId)
    return collectionProblem(
      { status: row.status, providerAgreementId: row.vippsAgreementId },
      {
        providerActive: context.providers.get(row.paymentProviderId) ?? false,
        companyCollects: companyStatus !== undefined && collectsCharges(companyStatus as CompanyStatus),
      },
    )
  }
}

export const createAgreementViews = (deps: { db: Db }) => new AgreementViews(deps)
