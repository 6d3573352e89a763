import { asc, eq } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { agreementAddresses, agreementParts, agreements, charges } from '../../db/schema/agreements'
import { addresses } from '../../db/schema/companies'
import { paymentProviders } from '../../db/schema/payments'
import { authMethods, users } from '../../db/schema/users'
import { agreementStatuses, chargeStatuses } from '../../../shared/domain/agreement-status'
import { paymentPeriods, partTypes } from '../../../shared/domain/agreement-parts'
import { transaction } from '../../db/client'

/** A small deterministic generator (mulberry32), so a failing case can be run again. */
export function randomOf(seed: number) {
  let a = seed >>> 0
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const int = (n: number) => Math.floor(next() * n)
  const pick = <T>(list: readonly T[]): T => list[int(list.length)]!
  return { next, int, pick }
}

const ISO = '2026-11-20T10:00:00.000Z'
const pad = (n: number) => String(n).padStart(12, '0')
/** UUID-shaped ids (the contract checks `z.uuid()`) that sort by `n` within a kind. */
const idOf = (kind: number, n: number) => `0190d5e6-${String(kind).padStart(4, '0')}-7000-8000-${pad(n)}`

/** A copy of an existing provider (its sealed secrets too) for a company that has none. */
async function providerFor(db: Db, companyId: string, seed: number): Promise<string> {
  const any = (await db.select().from(paymentProviders).get())!
  const id = idOf(5, seed)
  await db
    .insert(paymentProviders)
    .values({ ...any, id, companyId })
    .run()
  return id
}

/**
 * Inserts `n` agreements for `companyId` directly (no HTTP, no change log), numbered after the
 * company's highest external id, with the variety the views must render: every status, members
 * with and without a proven sign-in, zero to two addresses, one to three parts, charges in every
 * status (so some are overdue and some recovered), debt collection, terminations, no Vipps id.
 * Returns the ids in insertion order.
 */
export async function insertAgreements(db: Db, companyId: string, n: number, seed = 1): Promise<string[]> {
  const rnd = randomOf(seed)
  const provider =
    (await db.select().from(paymentProviders).where(eq(paymentProviders.companyId, companyId)).get())?.id ?? (await providerFor(db, companyId, seed))
  const addressIds = (await db.select({ id: addresses.id }).from(addresses).where(eq(addresses.companyId, companyId)).orderBy(asc(addresses.id)).all()).map(
    (a) => a.id,
  )
  const firstSeq =
    ((await db.select({ seq: agreements.externalSeq }).from(agreements).where(eq(agreements.companyId, companyId)).all())
      .map((a) => a.seq)
      .sort((a, b) => b - a)[0] ?? 1000) + 1
  const base = seed * 1_000_000 + firstSeq * 10
  const ids: string[] = []
  await transaction(db, async () => {
    const members = await insertMembers(db, rnd, base, Math.max(1, Math.ceil(n / 3)))
    const batch: Batch = { db, rnd, companyId, provider, addressIds, firstSeq, base, members }
    for (let i = 0; i < n; i++) ids.push(await insertAgreement(batch, i))
  })
  return ids
}

type Random = ReturnType<typeof randomOf>

/** What every agreement of one `insertAgreements` call shares. */
interface Batch {
  db: Db
  rnd: Random
  companyId: string
  provider: string
  addressIds: string[]
  firstSeq: number
  base: number
  members: string[]
}

/** The members, each at random without a sign-in, with an unconfirmed one or with a proven one. */
async function insertMembers(db: Db, rnd: Random, base: number, memberCount: number): Promise<string[]> {
  const members: string[] = []
  for (let m = 0; m < memberCount; m++) {
    const id = idOf(1, base + m)
    members.push(id)
    await db
      .insert(users)
      .values({
        id,
        fullName: `Beboer ${rnd.pick(['Ærø', 'Søren', 'Anne Marie', 'Bo'])} ${base + m}`,
        emailAddress: `bulk${base + m}@example.dk`,
        createdAt: ISO,
        updatedAt: ISO,
      })
      .run()
    const signIn = rnd.int(3) // none, unconfirmed, proven
    if (signIn > 0)
      await db
        .insert(authMethods)
        .values({
          id: idOf(2, base + m),
          userId: id,
          type: 'EMAIL_PASSWORD',
          identifier: `bulk${base + m}@example.dk`,
          verifiedAt: signIn === 2 ? ISO : null,
          createdAt: ISO,
        })
        .run()
  }
  return members
}

/** Agreement number `i` with its parts, addresses and charges; returns its id. */
async function insertAgreement(batch: Batch, i: number): Promise<string> {
  const { db, rnd, companyId, base, members, addressIds } = batch
  const id = idOf(3, base + i)
  const status = rnd.pick(agreementStatuses)
  const partCount = 1 + rnd.int(3)
  const parts = Array.from({ length: partCount }, (_, p) => ({
    agreementId: id,
    id: `part-${i}-${p}`,
    position: p,
    type: rnd.pick(partTypes),
    description: `Del ${p + 1}`,
    priceOre: 1_000 + rnd.int(500_000),
    vatRate: rnd.pick([0, 25]),
  }))
  const terminating = rnd.int(5) === 0
  await db
    .insert(agreements)
    .values({
      id,
      companyId,
      externalSeq: batch.firstSeq + i,
      memberUserId: rnd.pick(members),
      paymentProviderId: batch.provider,
      status,
      priceOre: parts.reduce((s, p) => s + p.priceOre, 0),
      paymentPeriod: rnd.pick(paymentPeriods),
      startPaymentDate: '2026-09-01',
      nextRegularPaymentDate: rnd.int(6) === 0 ? null : rnd.pick(['2026-12-01', '2027-01-01', '2026-11-25']),
      terminationDate: terminating ? rnd.pick(['2026-12-20', '2027-02-28']) : null,
      finalPaymentRequired: terminating && rnd.int(2) === 0,
      vippsAgreementId: rnd.int(4) === 0 ? null : `agr_bulk_${base + i}`,
      debtCollectionSince: rnd.int(4) === 0 ? ISO : null,
      version: 1 + rnd.int(4),
      createdAt: ISO,
      updatedAt: ISO,
    })
    .run()
  await db.insert(agreementParts).values(parts).run()
  const linked = [...new Set(Array.from({ length: addressIds.length ? rnd.int(3) : 0 }, () => rnd.pick(addressIds)))]
  if (linked.length)
    await db
      .insert(agreementAddresses)
      .values(linked.map((addressId, position) => ({ agreementId: id, addressId, position })))
      .run()
  await insertCharges(batch, id, i)
  return id
}

/** Some of the five monthly charges, in every status. */
async function insertCharges({ db, rnd, companyId, base }: Batch, agreementId: string, i: number): Promise<void> {
  const dues = ['2026-08-01', '2026-09-01', '2026-10-01', '2026-11-01', '2026-12-01'].filter(() => rnd.int(2) === 0)
  for (const [c, due] of dues.entries())
    await db
      .insert(charges)
      .values({
        id: idOf(4, (base + i) * 10 + c),
        agreementId,
        companyId,
        kind: 'REGULAR',
        type: 'RECURRING',
        amountOre: 10_000,
        description: 'Boligafgift',
        due,
        status: rnd.pick([...chargeStatuses, 'FAILED', 'EXECUTED']),
        createdAt: ISO,
        updatedAt: ISO,
      })
      .run()
}
