import { describe, expect, it } from 'vitest'
import { and, eq, inArray } from 'drizzle-orm'
import { demo, testApp } from '../../test/harness'
import { agreementAddresses, agreementParts, agreements } from '../../db/schema/agreements'
import { invitationSends } from '../../db/schema/invitations'
import { mailOutbox } from '../../db/schema/platform'
import { notifications } from '../../db/schema/notifications'
import { paymentProviders } from '../../db/schema/payments'
import { users } from '../../db/schema/users'
import type { WriteLock } from '../../lib/write-lock'
import { AddressProviderUnavailable, type AddressProvider } from '../../integrations/addresses/address-provider'
import { createBuiltinAddressProvider } from '../../integrations/addresses/builtin'
import { companyIds } from '../companies/test-helpers'
import { csvOf, DANISH, importFile } from './import-test-helpers'

type T = Awaited<ReturnType<typeof testApp>>

async function setup(overrides: Parameters<typeof testApp>[1] = {}) {
  const t = await testApp({}, overrides)
  const { main } = await companyIds(t)
  return { t, main, admin: await t.login(demo.admin) }
}

const ofCompany = async (t: T, companyId: string) => await t.db.select().from(agreements).where(eq(agreements.companyId, companyId)).all()
const countOf = async (t: T, table: typeof mailOutbox | typeof notifications) => (await t.db.select().from(table).all()).length

/** The household import creates the payers' agreements (docs/decisions/0093). */
describe('household import: the agreements', () => {
  it('a dry run counts them; the import makes one in CREATED for each payer with amounts, invites nobody, and a second import makes none', async () => {
    const { t, main, admin } = await setup()
    const before = await ofCompany(t, main)
    const mails = await countOf(t, mailOutbox)
    const told = await countOf(t, notifications)

    const dry = await importFile(t, admin, main, csvOf(DANISH), '?dryRun=true')
    expect(dry.status, JSON.stringify(dry.json)).toBe(200)
    // The clock is 23 November 2026 (Copenhagen): the default first payment date is the first of December.
    expect(dry.json.agreements).toEqual({ NEW: 2, EXISTING: 0, startPaymentDate: '2026-12-01', problem: null })
    expect(dry.json.rows.map((r: { agreement: string | null }) => r.agreement)).toEqual(['NEW', null, 'NEW'])
    expect(await ofCompany(t, main)).toHaveLength(before.length)

    const res = await importFile(t, admin, main, csvOf(DANISH), '?startPaymentDate=2027-01-01', { locale: 'da' })
    expect(res.status, JSON.stringify(res.json)).toBe(200)
    expect(res.json.agreements).toMatchObject({ NEW: 2, EXISTING: 0, startPaymentDate: '2027-01-01' })
    const made = (await ofCompany(t, main)).filter((a) => !before.some((b) => b.id === a.id))
    expect(made).toHaveLength(2)
    const provider = (await t.db.select().from(paymentProviders).where(eq(paymentProviders.companyId, main)).get())!
    const karen = (await t.db.select().from(users).where(eq(users.emailAddress, 'karen.holm@example.dk')).get())!
    const mette = (await t.db.select().from(users).where(eq(users.emailAddress, 'mette.lund@example.dk')).get())!
    const byMember = new Map(made.map((a) => [a.memberUserId, a]))
    for (const a of made)
      expect(a).toMatchObject({
        status: 'CREATED',
        paymentPeriod: 'MONTHLY',
        startPaymentDate: '2027-01-01',
        nextRegularPaymentDate: '2027-01-01',
        paymentProviderId: provider.id,
        terminationDate: null,
      })
    expect(byMember.get(karen.id)!.priceOre).toBe(425_000 + 60_000 + 25_000)
    expect(byMember.get(mette.id)!.priceOre).toBe(390_050 + 17_500)
    const parts = await t.db
      .select()
      .from(agreementParts)
      .where(eq(agreementParts.agreementId, byMember.get(karen.id)!.id))
      .all()
    expect(parts.sort((a, b) => a.position - b.position).map((p) => [p.type, p.description, p.priceOre, p.vatRate])).toEqual([
      ['FEE', 'Boligafgift', 425_000, 0],
      ['HEAT', 'Aconto varme', 60_000, 0],
      ['HOT_AND_COLD_WATER', 'Aconto vand', 25_000, 0],
    ])
    // Linked to the household's address; their external numbers follow the association's.
    const links = await t.db
      .select()
      .from(agreementAddresses)
      .where(
        inArray(
          agreementAddresses.agreementId,
          made.map((a) => a.id),
        ),
      )
      .all()
    expect(links.map((l) => l.addressId).sort()).toEqual([res.json.rows[0].householdId, res.json.rows[2].householdId].sort())
    expect(new Set(made.map((a) => a.externalSeq)).size).toBe(2)
    // Nobody is invited, mailed or told: inviting is the invitations' step (decision 0091).
    expect(await countOf(t, mailOutbox)).toBe(mails)
    expect(await countOf(t, notifications)).toBe(told)
    expect(await t.db.select().from(invitationSends).where(eq(invitationSends.companyId, main)).all()).toEqual([])
    // Staff and the member see them at their next pull.
    const karenSees = await t.call('GET', `/agreement/${byMember.get(karen.id)!.id}`, { token: admin })
    expect(karenSees.json).toMatchObject({ status: 'CREATED', price: 510_000 })

    const again = await importFile(t, admin, main, csvOf(DANISH))
    expect(again.json.agreements).toMatchObject({ NEW: 0, EXISTING: 2 })
    expect(again.json.rows.map((r: { agreement: string | null }) => r.agreement)).toEqual(['EXISTING', null, 'EXISTING'])
    expect(await ofCompany(t, main)).toHaveLength(before.length + 2)
  })

  it('a household whose agreement ended gets a new one; rows without amounts get none', async () => {
    const { t, main, admin } = await setup()
    await importFile(t, admin, main, csvOf(DANISH))
    const karen = (await t.db.select().from(users).where(eq(users.emailAddress, 'karen.holm@example.dk')).get())!
    const theirs = (await ofCompany(t, main)).find((a) => a.memberUserId === karen.id)!
    const ended = await t.call('POST', `/agreement/${theirs.id}/cancel`, { token: admin, body: { terminationDate: '2026-12-01', finalPaymentRequired: false } })
    expect(ended.status, JSON.stringify(ended.json)).toBe(200)
    const noAmounts = DANISH.map((r) => [...r])
    noAmounts[3]![15] = ''
    noAmounts[3]![17] = ''
    const res = await importFile(t, admin, main, csvOf(noAmounts))
    expect(res.json.rows.map((r: { agreement: string | null }) => r.agreement)).toEqual(['NEW', null, null])
    expect((await ofCompany(t, main)).filter((a) => a.memberUserId === karen.id && a.status === 'CREATED')).toHaveLength(1)
  })

  it('a first payment date in the past is a 400 in the caller’s language, writing nothing', async () => {
    const { t, main, admin } = await setup()
    const before = await ofCompany(t, main)
    const res = await importFile(t, admin, main, csvOf(DANISH), '?startPaymentDate=2026-11-01', { locale: 'da' })
    expect(res.status).toBe(400)
    expect(res.json.issues).toEqual([{ path: 'startPaymentDate', message: 'Startdatoen for betaling skal være i dag eller senere' }])
    const notADate = await importFile(t, admin, main, csvOf(DANISH), '?dryRun=true&startPaymentDate=2026-02-31')
    expect(notADate.status).toBe(400)
    expect(notADate.json.issues[0].path).toBe('startPaymentDate')
    expect(await ofCompany(t, main)).toHaveLength(before.length)
  })

  it('without an active payment provider the dry run says so and the import is a 422 in the caller’s language, writing nothing', async () => {
    const { t, main, admin } = await setup()
    await t.db.update(paymentProviders).set({ isActive: false }).where(eq(paymentProviders.companyId, main)).run()
    const dry = await importFile(t, admin, main, csvOf(DANISH), '?dryRun=true', { locale: 'da' })
    expect(dry.status).toBe(200)
    expect(dry.json.agreements.problem).toMatch(/^Foreningen har ingen aktiv betalingsudbyder/)
    const res = await importFile(t, admin, main, csvOf(DANISH), '', { locale: 'da' })
    expect(res.status).toBe(422)
    expect(res.json.message).toMatch(/^Foreningen har ingen aktiv betalingsudbyder/)
    expect(await t.db.select().from(users).where(eq(users.emailAddress, 'karen.holm@example.dk')).get()).toBeUndefined()
    // Without amounts no agreement is asked for, so no provider is needed.
    const plain = DANISH.map((r) => r.slice(0, 15))
    expect((await importFile(t, admin, main, csvOf(plain))).status).toBe(200)
  })
})

/** The address register is asked before the write transaction, never under the write lock (decisions 0009, 0093). */
describe('household import: the address register outside the write lock', () => {
  /** The builtin register's answers, after checking that the write lock is free (it is taken at once when nobody holds it). */
  const builtin = createBuiltinAddressProvider()
  const checking = (lockOf: () => WriteLock, seen: boolean[], unavailable = false): AddressProvider => ({
    name: 'builtin',
    async search(query) {
      const free = await Promise.race([lockOf().run(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 1000))])
      seen.push(free)
      if (unavailable) throw new AddressProviderUnavailable('down')
      return await builtin.search(query, 50)
    },
  })

  it('each new address is looked up with the lock free, and a register that is down is a 503 in the caller’s language', async () => {
    let lock: WriteLock | undefined
    const seen: boolean[] = []
    const { t, main, admin } = await setup({ addressProvider: checking(() => lock!, seen) })
    lock = t.lock
    const res = await importFile(t, admin, main, csvOf(DANISH))
    expect(res.status, JSON.stringify(res.json)).toBe(200)
    expect(seen).toEqual([true, true])

    const down: boolean[] = []
    const d = await setup({ addressProvider: checking(() => lock!, down, true) })
    lock = d.t.lock
    const failed = await importFile(d.t, d.admin, d.main, csvOf(DANISH), '', { locale: 'da' })
    expect(failed.status).toBe(503)
    expect(failed.json.code).toBe('PROVIDER_UNAVAILABLE')
    expect(failed.json.message).toBe('Adressesøgningen er ikke tilgængelig lige nu. Prøv igen senere.')
    expect(down).toEqual([true])
    expect(
      await d.t.db
        .select()
        .from(agreements)
        .where(and(eq(agreements.companyId, d.main), eq(agreements.status, 'CREATED')))
        .all(),
    ).toEqual([])
  })

  it('while a slow register answers, other writes go on (the import holds no lock)', async () => {
    let release!: () => void
    let asked!: () => void
    const waiting = new Promise<void>((r) => (asked = r))
    const gate = new Promise<void>((r) => (release = r))
    // Slow on the first address it is asked (until released), then at once.
    const slow: AddressProvider = {
      name: 'builtin',
      async search(query) {
        asked()
        await gate
        return await builtin.search(query, 50)
      },
    }
    const { t, main, admin } = await setup({ addressProvider: slow })
    const importing = importFile(t, admin, main, csvOf(DANISH))
    await waiting
    // Another write while the import waits for the register: it is not held up.
    const other = t.call('POST', '/account/current-company', { token: admin, body: { companyId: main } })
    const answered = await Promise.race([other.then((r) => r.status), new Promise((r) => setTimeout(() => r('waiting'), 2000))])
    expect(answered).toBe(200)
    release()
    expect((await importing).status).toBe(200)
  })

  it('an amount above the highest price of a part (DKK 1,000,000, as the agreement form) is a problem of its row and column; no agreement is made', async () => {
    const { t, main, admin } = await setup()
    const before = await ofCompany(t, main)
    const sheet = DANISH.map((r) => [...r])
    sheet[1]![15] = '2.000.000,00'
    const dry = await importFile(t, admin, main, csvOf(sheet), '?dryRun=true', { locale: 'da' })
    expect(dry.status).toBe(200)
    expect(dry.json.problems).toContainEqual(expect.objectContaining({ row: 2, column: 'rent', message: 'Beløbet kan højst være 1.000.000 kr.' }))
    const res = await importFile(t, admin, main, csvOf(sheet))
    expect(res.status).toBe(400)
    expect(res.json.issues.map((i: { path: string }) => i.path)).toContain('rows.2.rent')
    expect(await ofCompany(t, main)).toHaveLength(before.length)
  })

  it('a retry with the same Idempotency-Key answers as before', async () => {
    const { t, main, admin } = await setup()
    const first = await importFile(t, admin, main, csvOf(DANISH), '', { key: 'import-once' })
    const again = await importFile(t, admin, main, csvOf(DANISH), '', { key: 'import-once' })
    expect(again.status).toBe(200)
    expect(again.json).toEqual(first.json)
    expect(again.json.agreements.NEW).toBe(2)
  })
})
