/**
 * Unpaid stays visible (docs/decisions/0042-unpaid-stays-visible.md). The debtor overview (GET /debtors)
 * and its actions — retry, paid outside Vipps, write-off — with their bookkeeping (gap-free numbers,
 * credit notes, what statistics count), refunds to chosen invoice lines (decision 0044), and the one
 * due-date rule (decision 0043).
 */
import { describe, expect, it } from 'vitest'
import { and, eq } from 'drizzle-orm'
import { demo, testApp, type TestApp } from '../../test/harness'
import { agreements, charges, providerOutbox } from '../../db/schema/agreements'
import { invoices, invoiceLines } from '../../db/schema/invoices'
import { chargeStatistics } from '../../db/schema/statistics'
import { isUnpaid } from '../../../shared/domain/invoice'
import { agreementFixtures } from '../agreements/test-helpers'
import { acceptedAgreement, assertBookkeeping } from './test-helpers'
import { transaction } from '../../db/client'
import { users } from '../../db/schema/users'

type Status = 'FAILED' | 'EXECUTED' | 'RESERVED'

/** Vipps' word on a charge, as the webhook job would apply it: the charge's status, then the billing listeners. */
async function vippsSays(t: TestApp, chargeId: string, status: Status) {
  await transaction(t.db, async () => {
    const before = (await t.services.charges.row(chargeId))!
    await t.db
      .update(charges)
      .set({
        status,
        vippsChargeId: before.vippsChargeId ?? `chr_${chargeId.slice(-12)}`,
        capturedOre: status === 'EXECUTED' ? before.amountOre : 0,
        version: before.version + 1,
      })
      .where(eq(charges.id, chargeId))
      .run()
    await t.services.invoicing.followCharge((await t.services.charges.row(chargeId))!, before.status)
  })
}

const chargesOf = async (t: TestApp, agreementId: string) =>
  await t.db.select().from(charges).where(eq(charges.agreementId, agreementId)).orderBy(charges.due).all()
const invoiceOf = async (t: TestApp, id: string) => (await t.db.select().from(invoices).where(eq(invoices.id, id)).get())!
const statisticsTotal = async (t: TestApp) =>
  (await t.db.select().from(chargeStatistics).all()).reduce(
    (s, r) => s + r.commonExpenses + r.heating + r.fee + r.other + r.addition + r.hotWater + r.coldWater + r.hotAndColdWater,
    0,
  )

/**
 * December's charge fails, January's is collected (the case of decision 0042: a paid later month
 * used to clear "Overdue"); the clock stands on 10 January 2027.
 */
async function failedThenPaid() {
  const t = await testApp()
  const f = await agreementFixtures(t)
  const a = await acceptedAgreement(t)
  t.clock.set('2026-11-28T09:00:00.000Z')
  await t.services.billing.run()
  const [december] = await chargesOf(t, a.id)
  t.clock.set('2026-12-01T12:00:00.000Z')
  await vippsSays(t, december!.id, 'FAILED')
  t.clock.set('2026-12-29T09:00:00.000Z')
  await t.services.billing.run()
  const january = (await chargesOf(t, a.id))[1]!
  t.clock.set('2027-01-01T12:00:00.000Z')
  await vippsSays(t, january.id, 'EXECUTED')
  t.clock.set('2027-01-10T09:00:00.000Z')
  const admin = await t.login(demo.admin)
  const list = async (query = '', token = admin) => t.call('GET', `/debtors?companyId=${f.main}${query}`, { token })
  return { t, f, a, december: december!, january, admin, list }
}

describe('GET /api/debtors', () => {
  it('lists a failed month after a later month was paid, with member, address, amount, days overdue and reminders', async () => {
    const { t, a, december, list } = await failedThenPaid()
    // The agreement itself no longer says overdue (a later month was collected) …
    expect((await t.call('GET', `/agreement/${a.id}`, { token: await t.login(demo.admin) })).json.overdue).toBe(false)
    await t.services.billing.tick()
    // … but December's 5,150.50 kr. stays owed, and the reminders go on (day 3 and 10 after the failure on 1 December).
    const res = await list()
    expect(res.status, JSON.stringify(res.json)).toBe(200)
    expect(res.json).toMatchObject({ total: { count: 1, amount: 515_050 }, nextCursor: null, reminderDays: [3, 10], debtCollectionDays: 30 })
    expect(res.json.items).toEqual([
      {
        invoiceId: december.invoiceId,
        invoiceNumber: '1',
        name: december.description,
        agreementId: a.id,
        agreementExternalId: a.externalId,
        memberUserId: expect.any(String),
        memberName: 'Sofie Jensen',
        address: expect.stringContaining(','),
        dueDate: '2026-12-01',
        daysOverdue: 40,
        amount: 515_050,
        status: 'FAILED',
        remindersSent: 2,
        debtCollection: true,
        retryPending: false,
        retryBlocked: null,
      },
    ])
    // 40 days after the failure the agreement went to debt collection, although January was paid.
    expect((await t.db.select().from(agreements).where(eq(agreements.id, a.id)).get())!.debtCollectionSince).not.toBeNull()
    // One agreement's balance.
    expect((await list(`&agreementId=${a.id}`)).json.total).toEqual({ count: 1, amount: 515_050 })
  })

  it('lists a charge past its due date that Vipps has not collected yet, which cannot be retried while Vipps still tries', async () => {
    const t = await testApp()
    const f = await agreementFixtures(t)
    await acceptedAgreement(t)
    t.clock.set('2026-11-28T09:00:00.000Z')
    await t.services.billing.run()
    const admin = await t.login(demo.admin)
    // Due 1 December: not listed on the day, listed the day after.
    t.clock.set('2026-12-01T20:00:00.000Z')
    expect((await t.call('GET', `/debtors?companyId=${f.main}`, { token: admin })).json.total.count).toBe(0)
    t.clock.set('2026-12-02T09:00:00.000Z')
    const page = (await t.call('GET', `/debtors?companyId=${f.main}`, { token: admin })).json
    expect(page.items[0]).toMatchObject({ status: 'CREATED', daysOverdue: 1, retryBlocked: 'COLLECTING' })
    const retry = await t.call('POST', `/invoice/${page.items[0].invoiceId}/retry`, { token: admin, body: {} })
    expect(retry).toMatchObject({
      status: 409,
      json: { code: 'INVALID_STATE', message: 'Vipps MobilePay is still trying to collect this payment. Try again once it has failed.' },
    })
  })

  it('pages by due date with a cursor; totals count every page; a foreign cursor is 400', async () => {
    const t = await testApp()
    const f = await agreementFixtures(t)
    const admin = await t.login(demo.admin)
    for (let i = 0; i < 5; i++) await acceptedAgreement(t, { startPaymentDate: `2026-12-0${i + 1}` }, admin)
    t.clock.set('2026-12-02T09:00:00.000Z')
    await t.services.billing.run()
    for (const c of await t.db.select().from(charges).all()) await vippsSays(t, c.id, 'FAILED')
    const seen: string[] = []
    let cursor: string | null = null
    let pages = 0
    do {
      const res = await t.call('GET', `/debtors?companyId=${f.main}&limit=2${cursor ? `&cursor=${cursor}` : ''}`, { token: admin })
      expect(res.status).toBe(200)
      expect(res.json.total).toEqual({ count: 5, amount: 5 * 515_050 })
      seen.push(...res.json.items.map((d: { dueDate: string }) => d.dueDate))
      cursor = res.json.nextCursor
      pages++
    } while (cursor)
    expect(pages).toBe(3)
    expect(seen).toEqual(['2026-12-01', '2026-12-02', '2026-12-03', '2026-12-04', '2026-12-05'])
    expect((await t.call('GET', `/debtors?companyId=${f.main}&cursor=bm90LW91cnM`, { token: admin })).status).toBe(400)
  })

  it('the SQL rule lists exactly the invoices the shared rule calls unpaid (random statuses, due dates and settlements)', async () => {
    const t = await testApp()
    const f = await agreementFixtures(t)
    const admin = await t.login(demo.admin)
    for (let i = 0; i < 4; i++) await acceptedAgreement(t, { startPaymentDate: `2026-12-0${i + 1}`, paymentPeriod: 'WEEKLY' }, admin)
    t.clock.set('2027-01-10T09:00:00.000Z')
    await t.services.billing.run()
    let seed = 11
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647
    const statuses = ['CREATED', 'RESERVED', 'EXECUTED', 'FAILED', 'CANCELED'] as const
    for (const i of await t.db.select().from(invoices).all()) {
      const status = statuses[Math.floor(random() * statuses.length)]!
      const settlement = random() < 0.2 ? 'PAID_OUTSIDE' : null
      await t.db.update(invoices).set({ status, settlement }).where(eq(invoices.id, i.id)).run()
    }
    t.clock.set('2026-12-20T09:00:00.000Z')
    const today = '2026-12-20'
    const expected = (await t.db.select().from(invoices).all())
      .filter((i) =>
        isUnpaid(
          { kind: i.kind, status: i.status, dueDate: i.dueDate, totalAmount: i.totalOre, settlement: i.settlement ? { kind: i.settlement } : null },
          today,
        ),
      )
      .map((i) => i.id)
      .sort()
    const listed = (await t.call('GET', `/debtors?companyId=${f.main}&limit=200`, { token: admin })).json.items
      .map((d: { invoiceId: string }) => d.invoiceId)
      .sort()
    expect(expected.length).toBeGreaterThan(3)
    expect(listed).toEqual(expected)
  })
})

describe('POST /api/invoice/{id}/retry', () => {
  it('a new one-time charge for the open amount on the same invoice, queued once; collected, the invoice is paid and leaves the overview', async () => {
    const { t, a, december, admin, list } = await failedThenPaid()
    const statsBefore = await statisticsTotal(t)
    const id = '01935f6e-0000-7000-8000-00000000a001'
    const send = (key: string, body: unknown = { id }) =>
      t.call('POST', `/invoice/${december.invoiceId}/retry`, { token: admin, headers: { 'Idempotency-Key': key }, body })
    const first = await send('retry-1')
    expect(first.status, JSON.stringify(first.json)).toBe(201)
    expect(first.json).toMatchObject({
      id,
      kind: 'ONE_TIME',
      type: 'UNSCHEDULED',
      amount: 515_050,
      due: '2027-01-11',
      invoiceId: december.invoiceId,
      invoiceNumber: '1',
      status: 'CREATED',
    })
    // A lost answer replayed; the same id again; a double click with a new key: one charge, queued once.
    expect((await send('retry-1')).headers.get('Idempotent-Replayed')).toBe('true')
    expect((await send('retry-2')).json.id).toBe(id)
    expect(await send('retry-3', {})).toMatchObject({ status: 409, json: { message: 'A new attempt to collect this invoice is already under way.' } })
    expect((await t.db.select().from(providerOutbox).where(eq(providerOutbox.chargeId, id)).all()).map((o) => o.kind)).toEqual(['CREATE_CHARGE'])
    expect((await list()).json.items[0]).toMatchObject({ retryPending: true, retryBlocked: 'UNDER_WAY' })
    // No second invoice: the retry is a new attempt on invoice 1.
    expect(await t.db.select().from(invoices).all()).toHaveLength(2)

    t.clock.set('2027-01-11T12:00:00.000Z')
    await vippsSays(t, id, 'EXECUTED')
    expect(await invoiceOf(t, december.invoiceId!)).toMatchObject({ status: 'EXECUTED', paymentDate: '2027-01-11', settlement: null })
    expect((await list()).json.total).toEqual({ count: 0, amount: 0 })
    // Collected through Vipps: statistics count it, once.
    expect((await statisticsTotal(t)) - statsBefore).toBe(515_050)
    // And it can be refunded like any collected charge, against invoice 1's lines.
    const refund = await t.call('POST', `/agreement/${a.id}/refund`, { token: admin, body: { chargeId: id, amount: 10_000, description: 'Rabat' } })
    expect(refund.status, JSON.stringify(refund.json)).toBe(201)
    expect((await invoiceOf(t, refund.json.creditNote.id)).creditedInvoiceId).toBe(december.invoiceId)
  })

  it('a failed retry leaves the invoice unpaid (and can be retried again); an agreement Vipps cannot charge is refused', async () => {
    const { t, december, admin, list } = await failedThenPaid()
    const first = await t.call('POST', `/invoice/${december.invoiceId}/retry`, { token: admin, body: {} })
    await vippsSays(t, first.json.id, 'FAILED')
    expect((await invoiceOf(t, december.invoiceId!)).status).toBe('FAILED')
    expect((await list()).json.items[0]).toMatchObject({ retryPending: false, retryBlocked: null, amount: 515_050 })
    await t.db.update(agreements).set({ status: 'CANCELED' }).where(eq(agreements.id, december.agreementId)).run()
    expect((await list()).json.items[0].retryBlocked).toBe('AGREEMENT_INACTIVE')
    const refused = await t.call('POST', `/invoice/${december.invoiceId}/retry`, { token: admin, body: {} })
    expect(refused).toMatchObject({ status: 409, json: { code: 'INVALID_STATE' } })
  })
})

describe('POST /api/invoice/{id}/markPaid', () => {
  it('records the payment outside Vipps with the note on the invoice; statistics do not count it; 409 the second time with another note', async () => {
    const { t, december, admin, list } = await failedThenPaid()
    const statsBefore = await statisticsTotal(t)
    const res = await t.call('POST', `/invoice/${december.invoiceId}/markPaid`, { token: admin, body: { note: 'Bankoverførsel 8. januar' } })
    expect(res.status, JSON.stringify(res.json)).toBe(200)
    expect(res.json).toMatchObject({
      id: december.invoiceId,
      status: 'FAILED',
      settlement: { kind: 'PAID_OUTSIDE', date: '2027-01-10', note: 'Bankoverførsel 8. januar', by: 'Anders Nielsen' },
    })
    expect((await t.call('GET', `/invoice/${december.invoiceId}`, { token: await t.login(demo.resident) })).json.settlement.note).toBe(
      'Bankoverførsel 8. januar',
    )
    expect((await list()).json.total).toEqual({ count: 0, amount: 0 })
    expect(await statisticsTotal(t)).toBe(statsBefore)
    // Repeated with the same note: the same answer; anything else on a settled invoice: 409.
    expect((await t.call('POST', `/invoice/${december.invoiceId}/markPaid`, { token: admin, body: { note: 'Bankoverførsel 8. januar' } })).status).toBe(200)
    expect(await t.call('POST', `/invoice/${december.invoiceId}/markPaid`, { token: admin, body: { note: 'Kontant' } })).toMatchObject({
      status: 409,
      json: { message: 'This invoice is not unpaid: it is paid, settled or not due yet.' },
    })
    expect((await t.call('POST', `/invoice/${december.invoiceId}/retry`, { token: admin, body: {} })).status).toBe(409)
    // The reminders stop.
    const steps = (await chargesOf(t, december.agreementId))[0]!.overdueStep
    t.clock.set('2027-03-10T09:00:00.000Z')
    await t.services.billing.tick()
    expect((await chargesOf(t, december.agreementId))[0]!.overdueStep).toBe(steps)
  })

  it('a charge Vipps still tries to collect is cancelled there (CANCEL_CHARGE); one never sent is not sent', async () => {
    const t = await testApp()
    const f = await agreementFixtures(t)
    const a = await acceptedAgreement(t)
    const b = await acceptedAgreement(t)
    t.clock.set('2026-11-28T09:00:00.000Z')
    await t.services.billing.run()
    const [atVipps] = await chargesOf(t, a.id)
    const [notSent] = await chargesOf(t, b.id)
    await vippsSays(t, atVipps!.id, 'RESERVED')
    t.clock.set('2026-12-03T09:00:00.000Z')
    const admin = await t.login(demo.chairman)
    expect((await t.call('GET', `/debtors?companyId=${f.main}`, { token: admin })).json.total.count).toBe(2)
    for (const c of [atVipps!, notSent!])
      expect((await t.call('POST', `/invoice/${c.invoiceId}/markPaid`, { token: admin, body: { note: 'Kontant' } })).status).toBe(200)
    expect(
      await t.db
        .select()
        .from(providerOutbox)
        .where(and(eq(providerOutbox.chargeId, atVipps!.id), eq(providerOutbox.kind, 'CANCEL_CHARGE')))
        .all(),
    ).toHaveLength(1)
    expect(await t.db.select().from(providerOutbox).where(eq(providerOutbox.chargeId, notSent!.id)).get()).toMatchObject({
      kind: 'CREATE_CHARGE',
      status: 'failed',
    })
    expect((await t.services.charges.row(notSent!.id))!.status).toBe('CANCELED')
    expect(await invoiceOf(t, notSent!.invoiceId!)).toMatchObject({ status: 'CANCELED', settlement: 'PAID_OUTSIDE' })
  })

  it.each([[{}], [{ note: '  ' }]])('refuses %j: "Please enter a note"', async (body) => {
    const { t, december, admin } = await failedThenPaid()
    const res = await t.call('POST', `/invoice/${december.invoiceId}/markPaid`, { token: admin, body })
    expect(res.status).toBe(400)
    expect(res.json.issues).toContainEqual({ path: 'note', message: 'Please enter a note' })
  })
})

describe('POST /api/invoice/{id}/writeOff', () => {
  it("a credit note for the open amount over the lines (their own descriptions), titled in the books' Danish for a member who reads English, no money moved, numbers gap-free", async () => {
    const { t, a, december, admin, list } = await failedThenPaid()
    const [member] = await t.db.select({ id: agreements.memberUserId }).from(agreements).where(eq(agreements.id, a.id))
    await t.db.update(users).set({ language: 'EN' }).where(eq(users.id, member!.id)).run()
    const statsBefore = await statisticsTotal(t)
    const id = '01935f6e-0000-7000-8000-00000000b001'
    const res = await t.call('POST', `/invoice/${december.invoiceId}/writeOff`, { token: admin, body: { id, note: 'Dødsbo uden midler' } })
    expect(res.status, JSON.stringify(res.json)).toBe(201)
    expect(res.json).toMatchObject({
      id,
      kind: 'CREDIT_NOTE',
      invoiceNumber: '3',
      totalAmount: 515_050,
      status: 'CREATED',
      payment: null,
      dueDate: '2027-01-10',
      creditedInvoice: { id: december.invoiceId, invoiceNumber: '1' },
      settlement: { kind: 'WRITTEN_OFF', note: 'Dødsbo uden midler' },
      name: 'Afskrivning af faktura 1',
    })
    expect(
      res.json.invoiceArticles.map((l: { articleNumber: string; articleDescription: string; totalPriceIncludingVat: number; creditedArticleId: string }) => [
        l.articleNumber,
        l.articleDescription,
        l.totalPriceIncludingVat,
        l.creditedArticleId,
      ]),
    ).toEqual([
      ['001', 'Boligafgift', 450_000, `${december.invoiceId}:0`],
      ['002', 'Aconto varme', 65_050, `${december.invoiceId}:1`],
    ])
    expect(await invoiceOf(t, december.invoiceId!)).toMatchObject({ settlement: 'WRITTEN_OFF', settlementNote: 'Dødsbo uden midler', status: 'FAILED' })
    expect((await list()).json.total).toEqual({ count: 0, amount: 0 })
    expect(await statisticsTotal(t)).toBe(statsBefore)
    // The same id again answers the same credit note; the invoice cannot be written off twice.
    expect((await t.call('POST', `/invoice/${december.invoiceId}/writeOff`, { token: admin, body: { id, note: 'Dødsbo uden midler' } })).json.id).toBe(id)
    expect((await t.call('POST', `/invoice/${december.invoiceId}/writeOff`, { token: admin, body: { note: 'Igen' } })).status).toBe(409)
    expect((await assertBookkeeping(t.db)).invoices).toBe(3)
  })
})

describe('refunds to chosen invoice lines', () => {
  async function collected() {
    const t = await testApp()
    const a = await acceptedAgreement(t)
    t.clock.set('2026-11-28T09:00:00.000Z')
    await t.services.billing.run()
    const [charge] = await chargesOf(t, a.id)
    await vippsSays(t, charge!.id, 'EXECUTED')
    const admin = await t.login(demo.admin)
    const lines = (await t.call('GET', `/invoice/${charge!.invoiceId}`, { token: admin })).json.invoiceArticles as { id: string; articleDescription: string }[]
    const refund = (body: Record<string, unknown>) => t.call('POST', `/agreement/${a.id}/refund`, { token: admin, body: { chargeId: charge!.id, ...body } })
    return { t, admin, lines, refund }
  }

  it('a heating refund of 500 kr. goes to the heating line only, and the credit-note line says "Aconto varme"', async () => {
    const { t, admin, lines, refund } = await collected()
    const heat = lines.find((l) => l.articleDescription === 'Aconto varme')!
    const res = await refund({ amount: 50_000, description: 'Varmeregnskab 2026', lines: [heat.id] })
    expect(res.status, JSON.stringify(res.json)).toBe(201)
    const note = (await t.call('GET', `/invoice/${res.json.creditNote.id}`, { token: admin })).json
    expect(note.name).toBe('Varmeregnskab 2026')
    expect(note.invoiceArticles).toEqual([
      expect.objectContaining({
        articleNumber: '002',
        type: 'HEAT',
        articleDescription: 'Aconto varme',
        totalPriceIncludingVat: 50_000,
        creditedArticleId: heat.id,
      }),
    ])
    // 150.50 kr. left on the heating line: more is refused with that amount, proportional refunds still work.
    const over = await refund({ amount: 15_051, description: 'Mere varme', lines: [heat.id] })
    expect(over).toMatchObject({ status: 422, json: { code: 'BUSINESS_RULE' } })
    expect(over.json.message.replace(/\s/g, ' ')).toBe('The refund is more than what is left to refund on the chosen lines (DKK 150.50)')
    const all = await refund({ amount: 100_000, description: 'Rabat' })
    expect(all.status).toBe(201)
    const shares = (await t.call('GET', `/invoice/${all.json.creditNote.id}`, { token: admin })).json.invoiceArticles.map(
      (l: { articleDescription: string; totalPriceIncludingVat: number }) => [l.articleDescription, l.totalPriceIncludingVat],
    )
    // In proportion to what is left: 450,000 and 15,050 of 465,050.
    expect(shares).toEqual([
      ['Boligafgift', 96_764],
      ['Aconto varme', 3_236],
    ])
  })

  it('refuses a line of another invoice (400)', async () => {
    const { refund } = await collected()
    const res = await refund({ amount: 100, description: 'x', lines: ['01935f6e-0000-7000-8000-000000000001:0'] })
    expect(res.status).toBe(400)
    expect(res.json.issues).toContainEqual({ path: 'lines', message: 'Please choose lines of this invoice' })
  })
})

describe('one due-date rule', () => {
  it("an invoice is due on its charge's due date: regular (created 3 days ahead), one-off (tomorrow); a credit note on its issue date", async () => {
    const t = await testApp()
    const a = await acceptedAgreement(t)
    t.clock.set('2026-11-28T09:00:00.000Z')
    await t.services.billing.run()
    const admin = await t.login(demo.admin)
    const oneOff = await t.call('POST', `/agreement/${a.id}/requestOneTimeCharge`, { token: admin, body: { amount: 25_000, description: 'Ny nøgle' } })
    for (const c of await chargesOf(t, a.id)) expect([c.kind, (await invoiceOf(t, c.invoiceId!)).dueDate]).toEqual([c.kind, c.due])
    expect(oneOff.json.due).toBe('2026-11-29')
    expect((await invoiceOf(t, oneOff.json.invoiceId)).issueDate).toBe('2026-11-28')
  })
})

it('credit-note lines point at the line they credit (database)', async () => {
  const t = await testApp()
  const a = await acceptedAgreement(t)
  t.clock.set('2026-11-28T09:00:00.000Z')
  await t.services.billing.run()
  const [charge] = await chargesOf(t, a.id)
  await vippsSays(t, charge!.id, 'EXECUTED')
  await t.call('POST', `/agreement/${a.id}/refund`, { token: await t.login(demo.admin), body: { chargeId: charge!.id, amount: 1_000, description: 'x' } })
  const note = (await t.db.select().from(invoices).where(eq(invoices.kind, 'CREDIT_NOTE')).get())!
  expect((await t.db.select().from(invoiceLines).where(eq(invoiceLines.invoiceId, note.id)).all()).map((l) => l.creditedPosition)).toEqual([0, 1])
})
