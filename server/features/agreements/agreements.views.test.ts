import { and, asc, count, eq, isNotNull } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import type { Db } from '../../db/client'
import { openDatabase } from '../../db/client'
import { seedDemoData } from '../../db/seed'
import { agreementAddresses, agreementParts, agreements, charges } from '../../db/schema/agreements'
import { addresses, companies } from '../../db/schema/companies'
import { paymentProviders } from '../../db/schema/payments'
import { authMethods, users } from '../../db/schema/users'
import { TestClock } from '../../lib/clock'
import { createSecretBox } from '../../lib/secret-box'
import { initialsOf } from '../../../shared/domain/agreement-parts'
import { upcomingPayment } from '../../../shared/domain/termination'
import { collectionProblem } from '../../../shared/domain/agreement-status'
import { collectsCharges } from '../../../shared/domain/company-status'
import { testApp } from '../../test/harness'
import { companyIds } from '../companies/test-helpers'
import { insertAgreements } from './bulk-test-data'
import type { AgreementRow } from './agreements.repository'
import { agreementPage, agreementSyncPage } from './agreements.reads'
import { createAgreementViews } from './agreements.views'

/**
 * The view as it was built before the set-based reads, one agreement at a time with a query per member,
 * sign-in, addresses, parts, charges, company and provider. The set-based views must give the
 * same JSON, byte for byte.
 */
async function referenceView(db: Db, row: AgreementRow) {
  const member = (await db.select().from(users).where(eq(users.id, row.memberUserId)).get())!
  const chargeRows = await db.select().from(charges).where(eq(charges.agreementId, row.id)).orderBy(asc(charges.due)).all()
  const overdueOf = () => {
    const lastFailed = chargeRows.filter((c) => c.status === 'FAILED').reduce<string | null>((m, c) => (m === null || c.due > m ? c.due : m), null)
    if (lastFailed === null) return false
    return !chargeRows.some((c) => c.status === 'EXECUTED' && c.due >= lastFailed)
  }
  const hasSignIn =
    (await db
      .select({ n: count() })
      .from(authMethods)
      .where(and(eq(authMethods.userId, member.id), isNotNull(authMethods.verifiedAt)))
      .get())!.n > 0
  const linked = (
    await db
      .select({ address: addresses })
      .from(agreementAddresses)
      .innerJoin(addresses, eq(addresses.id, agreementAddresses.addressId))
      .where(eq(agreementAddresses.agreementId, row.id))
      .orderBy(asc(agreementAddresses.position))
      .all()
  ).map((r) => r.address)
  const parts = await db.select().from(agreementParts).where(eq(agreementParts.agreementId, row.id)).orderBy(asc(agreementParts.position)).all()
  const provider = await db.select().from(paymentProviders).where(eq(paymentProviders.id, row.paymentProviderId)).get()
  const company = await db.select().from(companies).where(eq(companies.id, row.companyId)).get()
  const upcoming = upcomingPayment(row)
  return {
    id: row.id,
    externalId: String(row.externalSeq),
    companyId: row.companyId,
    paymentProviderId: row.paymentProviderId,
    member: { userId: member.id, title: initialsOf(member.fullName), fullName: member.fullName, emailAddress: member.emailAddress, isVerified: hasSignIn },
    addresses: linked.map((a) => ({
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
    overdue: overdueOf(),
    debtCollection: row.debtCollectionSince !== null && overdueOf(),
    debtCollectionSince: row.debtCollectionSince,
    paymentPeriod: row.paymentPeriod,
    startPaymentDate: row.startPaymentDate,
    nextRegularPaymentDate: upcoming?.kind === 'REGULAR' ? upcoming.date : null,
    nextPaymentDate: upcoming?.date ?? null,
    terminationDate: row.terminationDate,
    finalPaymentRequired: row.finalPaymentRequired,
    parts: parts.map((p) => ({ id: p.id, type: p.type, description: p.description, price: p.priceOre, vatRate: p.vatRate, currency: 'DKK' as const })),
    providerAgreementId: row.vippsAgreementId,
    collectionProblem: collectionProblem(
      { status: row.status, providerAgreementId: row.vippsAgreementId },
      { providerActive: provider?.isActive ?? false, companyCollects: company ? collectsCharges(company.status) : false },
    ),
    version: row.version,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  }
}

const allRows = async (db: Db) => await db.select().from(agreements).orderBy(asc(agreements.companyId), asc(agreements.externalSeq)).all()

async function expectSameJson(db: Db) {
  const rows = await allRows(db)
  const { viewsOf, view } = createAgreementViews({ db })
  const reference = JSON.stringify(await Promise.all(rows.map((r) => referenceView(db, r))))
  expect(JSON.stringify(await viewsOf(rows))).toBe(reference)
  // One at a time (GET /agreement/{id}) and in uneven sets (sync pages) the same.
  expect(JSON.stringify(await Promise.all(rows.map(view)))).toBe(reference)
  expect(JSON.stringify([...(await viewsOf(rows.slice(0, 7))), ...(await viewsOf(rows.slice(7)))])).toBe(reference)
  return rows.length
}

describe('agreement views, set-based', () => {
  it('give the same JSON as the per-row views on the demo data', async () => {
    const { db } = openDatabase(':memory:')
    await seedDemoData(db, new TestClock('2026-11-23T09:00:00.000Z'), createSecretBox('test-secret-key'))
    // Six running, one awaiting acceptance, one ended (the former resident, decision 0070).
    expect(await expectSameJson(db)).toBe(8)
  })

  it('give the same JSON on varied agreements: every status, overdue and recovered, no sign-in, no address, collection problems', async () => {
    const t = await testApp()
    const { main, second } = await companyIds(t)
    await insertAgreements(t.db, main, 150, 7)
    await insertAgreements(t.db, second, 60, 8)
    const rows = await allRows(t.db)
    const { viewsOf } = createAgreementViews({ db: t.db })
    const views = await viewsOf(rows)
    // The data covers what the views compute.
    expect(views.some((v) => v.overdue) && views.some((v) => !v.overdue)).toBe(true)
    expect(views.some((v) => v.debtCollection)).toBe(true)
    expect(views.some((v) => v.member.isVerified) && views.some((v) => !v.member.isVerified)).toBe(true)
    expect(views.some((v) => v.addresses.length === 0) && views.some((v) => v.addresses.length === 2)).toBe(true)
    expect(new Set(views.map((v) => v.collectionProblem))).toEqual(new Set([null, 'NO_PROVIDER_AGREEMENT']))
    expect(await expectSameJson(t.db)).toBe(210)
    // The prepared pages give drizzle's rows exactly (booleans mapped, every column named as in the schema).
    expect(await agreementPage(t.db, 'all', { limit: 1000 })).toEqual(rows)
    expect(await agreementSyncPage(t.db, 'all', null, 1000)).toEqual([...rows].sort((a, b) => (a.id < b.id ? -1 : 1)))
    expect(rows.some((r) => r.finalPaymentRequired === true)).toBe(true)

    // A switched-off provider and a suspended company.
    await t.db.update(paymentProviders).set({ isActive: false }).where(eq(paymentProviders.companyId, main)).run()
    await t.db.update(companies).set({ status: 'SUSPENDED' }).where(eq(companies.id, second)).run()
    expect(new Set((await viewsOf(await allRows(t.db))).map((v) => v.collectionProblem))).toEqual(
      new Set([null, 'NO_PROVIDER_AGREEMENT', 'PROVIDER_INACTIVE', 'COMPANY_NOT_COLLECTING']),
    )
    await expectSameJson(t.db)
  })

  it('overdue: a FAILED charge with no EXECUTED one due on or after the last FAILED', async () => {
    const t = await testApp()
    const { main } = await companyIds(t)
    const [id] = await insertAgreements(t.db, main, 1, 3)
    await t.db.delete(charges).run()
    const { view } = createAgreementViews({ db: t.db })
    const overdue = async () => (await view((await t.db.select().from(agreements).where(eq(agreements.id, id!)).get())!)).overdue
    const charge = async (due: string, status: 'FAILED' | 'EXECUTED', n: number) =>
      await t.db
        .insert(charges)
        .values({
          id: `0190d5e6-0009-7000-8000-00000000000${n}`,
          agreementId: id!,
          companyId: main,
          kind: 'ONE_TIME',
          type: 'UNSCHEDULED',
          amountOre: 100,
          description: 'x',
          due,
          status,
          createdAt: '2026-11-01T00:00:00.000Z',
          updatedAt: '2026-11-01T00:00:00.000Z',
        })
        .run()
    expect(await overdue()).toBe(false)
    await charge('2026-10-01', 'EXECUTED', 1)
    await charge('2026-11-01', 'FAILED', 2)
    expect(await overdue()).toBe(true) // collected before the failure does not help
    await charge('2026-11-01', 'EXECUTED', 3)
    expect(await overdue()).toBe(false) // due the same day counts
    await charge('2026-12-01', 'FAILED', 4)
    expect(await overdue()).toBe(true) // the last FAILED one decides
    await expectSameJson(t.db)
  })
})
