import pino from 'pino'
import { startPgCluster } from '../server/test/pg-cluster'
import { openPostgres } from '../server/db/postgres'
import { openDatabase, transaction, type Database_, type Db } from '../server/db/client'
import { createApp } from '../server/app'
import { parseConfig } from '../server/env'
import { TestClock } from '../server/lib/clock'
import { WriteLock } from '../server/lib/write-lock'
import { companies, addresses, companyMembers } from '../server/db/schema/companies'
import { paymentProviders } from '../server/db/schema/payments'
import { users } from '../server/db/schema/users'
import { agreements, agreementParts, agreementAddresses, charges, providerOutbox } from '../server/db/schema/agreements'
import { invoices, invoiceLines, invoiceCounters } from '../server/db/schema/invoices'
import { changeLog } from '../server/db/schema/sync'
import { billingRepository } from '../server/features/billing/billing.repository'
import { historyWriter } from '../server/features/billing/charge-history'
import { asc, eq } from 'drizzle-orm'

const NOW = '2026-11-20T09:00:00.000Z'
const config = parseConfig({ APP_ENV: 'test', DATABASE_PATH: ':memory:', PUBLIC_URL: 'http://localhost:3000', APP_SECRET_KEY: 'try-secret' })

async function seed(db: Db) {
  for (const c of [1, 2]) {
    const cid = `c${c}`
    await db.insert(companies).values({ id: cid, name: `Forening ${c}`, acronym: `F${c}`, cvr: `1000000${c}`, unionType: 'COOP', status: 'ACTIVE', createdAt: NOW, updatedAt: NOW }).run()
    await db.insert(addresses).values({ id: `${cid}-addr0`, companyId: cid, street: 'Vej', number: '1', zip: '2100', city: 'København Ø', createdAt: NOW }).run()
    await db.insert(addresses).values({ id: `${cid}-addr1`, companyId: cid, street: 'Solvej', number: '12', floor: '2', side: 'th', zip: '2100', city: 'København Ø', createdAt: NOW }).run()
    await db.insert(paymentProviders).values({ id: `${cid}-p`, companyId: cid, providerName: 'Vipps', merchantSerialNumber: '1', clientId: 'c', clientSecretSealed: 'x', subscriptionKeySealed: 'x', isActive: true, createdAt: NOW, updatedAt: NOW }).run()
    await db.insert(users).values({ id: `${cid}-admin`, fullName: 'Admin', emailAddress: `admin${c}@x.dk`, language: 'DA', systemRole: 'USER', createdAt: NOW, updatedAt: NOW }).run()
    await db.insert(companyMembers).values({ id: `${cid}-m`, companyId: cid, userId: `${cid}-admin`, role: 'ADMINISTRATOR', createdAt: NOW }).run()
    for (let i = 0; i < 5; i++) {
      const id = `${cid}-a${i}`
      const uid = `${cid}-u${i}`
      await db.insert(users).values({ id: uid, fullName: `Beboer ${c}-${i}`, emailAddress: `b${c}${i}@x.dk`, mobileNumber: '+4512345678', language: 'DA', systemRole: 'USER', createdAt: NOW, updatedAt: NOW }).run()
      // Two share a next payment date (the keyset's tie-breaker), one is weekly (catch-up), one terminated with a final payment.
      const weekly = i === 3
      await db
        .insert(agreements)
        .values({
          id,
          companyId: cid,
          externalSeq: 1001 + i,
          memberUserId: uid,
          paymentProviderId: `${cid}-p`,
          status: 'ACCEPTED',
          priceOre: 515_050,
          paymentPeriod: weekly ? 'WEEKLY' : 'MONTHLY',
          startPaymentDate: weekly ? '2026-11-02' : '2026-12-01',
          nextRegularPaymentDate: weekly ? '2026-11-02' : '2026-12-01',
          terminationDate: i === 4 ? '2027-01-15' : null,
          finalPaymentRequired: i === 4,
          vippsAgreementId: `agr_${cid}_${i}`,
          createdAt: '2026-10-01T00:00:00.000Z',
          updatedAt: NOW,
        })
        .run()
      await db.insert(agreementParts).values({ agreementId: id, id: `${id}-p0`, position: 0, type: 'COMMON_EXPENSES', description: 'Boligafgift', priceOre: 450_000, vatRate: 0 }).run()
      await db.insert(agreementParts).values({ agreementId: id, id: `${id}-p1`, position: 1, type: 'HEAT', description: 'Aconto varme', priceOre: 65_050, vatRate: 25 }).run()
      await db.insert(agreementAddresses).values({ agreementId: id, addressId: `${cid}-addr${i % 2}`, position: 0 }).run()
    }
  }
}

async function scenario(database: Database_, label: string) {
  const clock = new TestClock(NOW)
  const log = pino({ level: 'silent' })
  await seed(database.db)
  const db = database.db
  // Two apps (two instances) billing at once in batches of 2.
  // One SQLite connection: both apps under one write lock. PostgreSQL: two instances, a lock each.
  const lock = database.engine === 'sqlite' ? new WriteLock() : undefined
  const one = createApp({ config, database, clock, log, lock, billing: { batchSize: 2 } })
  const two = createApp({ config, database, clock, log, lock, billing: { batchSize: 3 } })
  clock.set('2026-11-28T09:00:00.000Z')
  const runs = await Promise.all([one.services.billing.run(), two.services.billing.run()])
  const again = await one.services.billing.run()
  clock.set('2027-01-10T09:00:00.000Z')
  const later = await Promise.all([two.services.billing.run(), one.services.billing.run()])
  const chargeRows = await db.select().from(charges).orderBy(asc(charges.agreementId), asc(charges.due)).all()
  const inv = await db.select().from(invoices).orderBy(asc(invoices.companyId), asc(invoices.number)).all()
  const lines = await db.select().from(invoiceLines).all()
  const outbox = await db.select().from(providerOutbox).all()
  const log_ = await db.select().from(changeLog).orderBy(asc(changeLog.seq)).all()
  const counters = await db.select().from(invoiceCounters).orderBy(asc(invoiceCounters.companyId)).all()
  const ags = await db.select().from(agreements).orderBy(asc(agreements.id)).all()
  const numbers = new Map<string, number[]>()
  for (const i of inv) numbers.set(i.companyId, [...(numbers.get(i.companyId) ?? []), i.number])
  for (const [c, ns] of numbers) if (ns.some((n, k) => n !== k + 1)) throw new Error(`${label}: gap in ${c}: ${ns.join(',')}`)
  const summary = {
    runs: runs.reduce((s, r) => s + r.charges, 0),
    again,
    later: later.reduce((s, r) => s + r.charges, 0),
    charges: chargeRows.map((c) => [c.agreementId, c.due, c.amountOre, c.description, c.status]),
    invoices: inv.map((i) => [i.companyId, i.agreementId, i.issueDate, i.dueDate, i.consumerName, i.consumerAddress, i.companyAddress, i.totalOre, i.vatOre]).sort(),
    lines: lines.length,
    outbox: outbox.map((o) => [o.kind, o.status, o.chargeId !== null]).sort().length,
    outboxPerCharge: chargeRows.every((c) => outbox.filter((o) => o.chargeId === c.id).length === 1),
    changeLog: log_.map((r) => r.entity).reduce<Record<string, number>>((m, e) => ((m[e] = (m[e] ?? 0) + 1), m), {}),
    counters: counters.map((c) => [c.companyId, c.lastNumber]),
    next: ags.map((a) => [a.id, a.nextRegularPaymentDate, a.version]),
  }
  // The other reads of the repository: overdue candidates, admin staff, history writer (refund, credit note).
  const firstCharge = chargeRows[0]!
  await db.update(charges).set({ status: 'FAILED', failedOn: '2027-01-05', overdueStep: 0 }).where(eq(charges.id, firstCharge.id)).run()
  const secondCharge = chargeRows[1]!
  await db.update(charges).set({ status: 'FAILED', failedOn: '2026-12-01', overdueStep: 2 }).where(eq(charges.id, secondCharge.id)).run()
  const overdue = {
    first: await billingRepository.overdueCandidates(db, ['2027-01-07', '2027-01-01'], '2026-12-11'),
    none: await billingRepository.overdueCandidates(db, ['2027-01-01', '2026-12-25'], '2026-11-01'),
    admins: await billingRepository.adminStaffOf(db, 'c1'),
    member: await billingRepository.member(db, 'c1-u1', 'c1-a1'),
    company: await billingRepository.company(db, 'c1'),
  }
  const history = await one.lock.run(() =>
    transaction(db, async () => {
      const w = historyWriter(db, NOW)
      const { chargeId, invoiceId } = await w.charge({ agreementId: 'c2-a0', paymentDate: '2026-10-01', lines: [{ type: 'COMMON_EXPENSES', amount: 450_000 }, { type: 'HEAT', amount: 65_050, vatRate: 25 }] })
      const note = await w.refund({ chargeId, amount: 10_000, paymentDate: '2026-10-10' })
      const doc = (await db.select().from(invoices).where(eq(invoices.id, note)).get())!
      const original = (await db.select().from(invoices).where(eq(invoices.id, invoiceId)).get())!
      return { note: [doc.kind, doc.number, doc.totalOre, doc.status, doc.paymentDate], original: [original.number, original.status, original.paymentDate] }
    }),
  )
  return { summary, overdue: { ...overdue, first: overdue.first.sort(), expected: [firstCharge.id, secondCharge.id].sort() }, history }
}

async function concurrentNumbers(database: Database_) {
  // 30 transactions at once take a number each for company c1; every third rolls back.
  const db = database.db
  const before = (await db.select().from(invoiceCounters).where(eq(invoiceCounters.companyId, 'c1')).get())!.lastNumber
  const taken: number[] = []
  await Promise.all(
    Array.from({ length: 30 }, (_, k) =>
      transaction(db, async () => {
        const n = await billingRepository.nextInvoiceNumber(db, 'c1')
        await new Promise((r) => setTimeout(r, 5))
        if (k % 3 === 0) throw new Error('rollback')
        taken.push(n)
      }).catch(() => undefined),
    ),
  )
  const after = (await db.select().from(invoiceCounters).where(eq(invoiceCounters.companyId, 'c1')).get())!.lastNumber
  taken.sort((x, y) => x - y)
  return { before, after, taken: taken.length, gapFree: taken.every((n, k) => n === before + k + 1) && after === before + taken.length }
}

const sqlite = openDatabase(':memory:')
const onSqlite = await scenario(sqlite, 'sqlite')
sqlite.close()

const cluster = await startPgCluster()
try {
  const pg = await openPostgres(await cluster.createDatabase('try'))
  const onPg = await scenario(pg, 'postgres')
  console.log(JSON.stringify(onPg.summary, null, 0).slice(0, 3000))
  console.log('overdue', JSON.stringify(onPg.overdue))
  console.log('history', JSON.stringify(onPg.history))
  const same = JSON.stringify(onSqlite) === JSON.stringify(onPg)
  console.log('same on both engines:', same)
  if (!same) {
    const a = JSON.stringify(onSqlite, null, 1).split('\n')
    const b = JSON.stringify(onPg, null, 1).split('\n')
    for (let i = 0; i < Math.max(a.length, b.length); i++) if (a[i] !== b[i]) console.log(i, 'sqlite', a[i], '| pg', b[i])
  }
  console.log('concurrent numbers on pg', JSON.stringify(await concurrentNumbers(pg)))
  await pg.close()
} finally {
  await cluster.stop()
}
