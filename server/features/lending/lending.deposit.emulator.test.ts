/**
 * A loan's deposit through billing against the built-in Vipps emulator (decision 0064): charged on
 * the borrower's accepted agreement when the contract is confirmed (once, however often confirmed),
 * refunded in full through the refund path when returned, held for the administration when the
 * lender reports damage (a part refunded, never more than the deposit), and cancelled when the
 * borrower calls the loan off before it was collected.
 */
import { describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { demo, testAppWithVipps } from '../../test/harness'
import { agreements, charges, providerOutbox } from '../../db/schema/agreements'
import { invoices } from '../../db/schema/invoices'
import { users } from '../../db/schema/users'
import { vippsWebhookEvents } from '../../../shared/contract/webhooks'
import { agreementFixtures, createAgreement } from '../agreements/test-helpers'
import { assertBookkeeping } from '../billing/test-helpers'
import { depositChargeIdOf, depositWriteOffIdOf } from '../billing/loan-deposits'
import { createItem, loanStep, requestLoan } from './test-helpers'

async function setup(opts: { memberLender?: string; borrowerLanguage?: 'EN' | 'DA' } = {}) {
  const t = await testAppWithVipps({}, { fastFaults: true })
  const f = await agreementFixtures(t)
  const control = async (path: string, body: unknown = {}) => {
    const res = await t.app.request(`/vipps-emulator/_control/${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    })
    expect(res.status, await res.clone().text()).toBe(200)
    return res.json()
  }
  const state = async () =>
    (await (await t.app.request('/vipps-emulator/_control/state')).json()) as { charges: Record<string, { amount: number; refunded: number; status: string }> }
  const hook = await t.call('POST', `/webhook/register/${f.provider}`, {
    token: await t.login(demo.superadmin),
    body: { webhookUrl: `http://localhost:3000/api/webhooks/vipps/${f.provider}`, events: [...vippsWebhookEvents] },
  })
  expect(hook.status).toBe(201)
  const deliver = async () => {
    await t.emulator.deliverWebhooksNow({ all: true })
    await t.services.webhooks.processDue()
  }
  const admin = await t.login(demo.admin)
  // The borrower's agreement, accepted at Vipps.
  const a = await createAgreement(t, { emailAddress: demo.residentDa, memberName: 'Lars Pedersen', startPaymentDate: '2026-12-20' }, admin)
  expect((await t.call('POST', `/agreement/${a.id}/accept`, { token: await t.login(demo.residentDa) })).status).toBe(200)
  await control(`approve/${(await t.db.select().from(agreements).where(eq(agreements.id, a.id)).get())!.vippsAgreementId}`)
  await deliver()
  const drain = async () => {
    for (let i = 0; i < 60; i++) {
      await t.services.providerOutbox.run()
      if (!(await t.db.select().from(providerOutbox).all()).some((o) => o.status === 'pending')) return
      t.clock.advance(15 * 60 * 1000)
    }
    throw new Error('outbox not drained')
  }
  if (opts.borrowerLanguage) await t.db.update(users).set({ language: opts.borrowerLanguage }).where(eq(users.emailAddress, demo.residentDa)).run()
  // The association lends a drill with a 200 kr deposit; Lars borrows it and both confirm.
  const chairman = await t.login(demo.chairman)
  const borrower = await t.login(demo.residentDa)
  const lender = opts.memberLender ? await t.login(opts.memberLender) : chairman
  const item = await createItem(t, lender, {
    companyId: f.main,
    title: 'Boremaskine',
    lender: opts.memberLender ? 'MEMBER' : 'ASSOCIATION',
    depositOre: 20_000,
  })
  expect(item.status, JSON.stringify(item.json)).toBe(201)
  const loan = await requestLoan(t, borrower, item.json.id, { fromDate: '2026-11-24', toDate: '2026-11-26' })
  expect((await loanStep(t, lender, loan.json.id, 'accept')).status).toBe(200)
  expect((await loanStep(t, lender, loan.json.id, 'confirm')).status).toBe(200)
  const confirmed = await loanStep(t, borrower, loan.json.id, 'confirm')
  expect(confirmed.json).toMatchObject({ status: 'CONFIRMED', deposit: 'QUEUED' })
  const view = async () => (await t.call('GET', `/loans/${loan.json.id}`, { token: borrower })).json
  const capture = async () => {
    await control('clock', { set: '2026-11-24T08:00:00.000Z' })
    await control('process-due')
    await deliver()
  }
  const collect = async () => {
    await drain()
    await capture()
  }
  const chargeRow = async () =>
    (await t.db
      .select()
      .from(charges)
      .where(eq(charges.id, depositChargeIdOf(loan.json.id)))
      .get())!
  return { t, f, control, state, deliver, drain, chairman, lender, borrower, loan: loan.json, view, collect, capture, chargeRow, agreementId: a.id }
}

describe('a loan’s deposit through billing (emulator)', () => {
  it('is described in the borrower’s language, as other charge texts', async () => {
    for (const [language, text] of [
      ['EN', 'Deposit Boremaskine'],
      ['DA', 'Depositum Boremaskine'],
    ] as const) {
      const s = await setup({ borrowerLanguage: language })
      expect((await s.chargeRow()).description).toBe(text)
    }
  })

  it('is charged once on the borrower’s agreement when confirmed, and refunded in full on return', async () => {
    const s = await setup()
    // Confirming again (a double click, a second device) makes no second charge.
    expect((await loanStep(s.t, s.borrower, s.loan.id, 'confirm')).json.version).toBe(s.loan.version + 3)
    const ours = await s.t.db.select().from(charges).all()
    expect(ours).toEqual([expect.objectContaining({ id: depositChargeIdOf(s.loan.id), agreementId: s.agreementId, kind: 'ONE_TIME', amountOre: 20_000 })])
    await s.collect()
    expect(await s.view()).toMatchObject({ deposit: 'COLLECTED' })
    await loanStep(s.t, s.chairman, s.loan.id, 'handover', { condition: 'Som ny' })
    const back = await loanStep(s.t, s.chairman, s.loan.id, 'return', { condition: 'Som ny' })
    expect(back.json).toMatchObject({ status: 'RETURNED', deposit: 'REFUNDING' })
    const notes = await s.t.db.select().from(invoices).where(eq(invoices.kind, 'CREDIT_NOTE')).all()
    expect(notes).toEqual([expect.objectContaining({ chargeId: depositChargeIdOf(s.loan.id), totalOre: 20_000 })])
    await s.drain()
    expect(Object.values((await s.state()).charges)).toEqual([expect.objectContaining({ amount: 20_000, refunded: 20_000 })])
    expect(await s.view()).toMatchObject({ deposit: 'REFUNDED' })
    await assertBookkeeping(s.t.db)
  })

  it('damage holds the deposit: the administration refunds a part, never more than the deposit', async () => {
    const s = await setup()
    await s.collect()
    await loanStep(s.t, s.chairman, s.loan.id, 'handover', {})
    const back = await loanStep(s.t, s.chairman, s.loan.id, 'return', { condition: 'Ridset', damage: 'Knækket bor' })
    expect(back.json).toMatchObject({ deposit: 'HELD', damageNote: 'Knækket bor' })
    expect(await s.t.db.select().from(invoices).where(eq(invoices.kind, 'CREDIT_NOTE')).all()).toEqual([])
    const settle = (body: unknown, token = s.chairman) =>
      s.t.call('POST', `/loans/${s.loan.id}/deposit/settle`, { token, body, headers: { 'Accept-Language': 'da' } })
    const tooMuch = await settle({ refundOre: 20_001 })
    expect(tooMuch.status).toBe(422)
    expect(tooMuch.json.message).toBe('Der kan højst tilbagebetales depositummet.')
    expect((await settle({ refundOre: 5_000 }, await s.t.login(demo.boardmember))).status).toBe(403)
    expect((await settle({ refundOre: 15_000 })).json).toMatchObject({ deposit: 'REFUNDING' })
    expect((await settle({ refundOre: 15_000 })).status).toBe(409)
    await s.drain()
    expect(Object.values((await s.state()).charges)).toEqual([expect.objectContaining({ refunded: 15_000 })])
    expect(await s.view()).toMatchObject({ deposit: 'REFUNDED' })
    await assertBookkeeping(s.t.db)
  })

  it('called off before it was collected: the charge is cancelled, nothing is refunded', async () => {
    const s = await setup()
    await s.drain()
    const cancelled = await loanStep(s.t, s.borrower, s.loan.id, 'cancel')
    expect(cancelled.json.status).toBe('CANCELLED')
    await s.drain()
    await s.deliver()
    await s.t.services.vippsPoll.run()
    expect(
      (await s.t.db
        .select()
        .from(charges)
        .where(eq(charges.id, depositChargeIdOf(s.loan.id)))
        .get())!.status,
    ).toBe('CANCELED')
    expect(await s.view()).toMatchObject({ deposit: 'CANCELLED' })
    expect(await s.t.db.select().from(invoices).where(eq(invoices.kind, 'CREDIT_NOTE')).all()).toEqual([])
  })

  it('is not settled before it was collected (422), so a deposit collected later is never recorded as kept', async () => {
    const s = await setup()
    await s.drain()
    await loanStep(s.t, s.chairman, s.loan.id, 'handover', {})
    const back = await loanStep(s.t, s.chairman, s.loan.id, 'return', { condition: 'Ridset', damage: 'Knækket bor' })
    expect(back.json).toMatchObject({ deposit: 'QUEUED' })
    for (const [language, message] of [
      ['en', 'The deposit has not been collected yet, so it cannot be settled now. Try again once it has been collected.'],
      ['da', 'Depositummet er ikke opkrævet endnu, så det kan ikke afgøres nu. Prøv igen, når det er opkrævet.'],
    ]) {
      const early = await s.t.call('POST', `/loans/${s.loan.id}/deposit/settle`, {
        token: s.chairman,
        body: { refundOre: 0 },
        headers: { 'Accept-Language': language! },
      })
      expect(early.status).toBe(422)
      expect(early.json.message).toBe(message)
    }
    expect((await s.view()).deposit).toBe('QUEUED')
    // Collected later: now it is held and can be settled (0 keeps it).
    await s.capture()
    expect((await s.view()).deposit).toBe('HELD')
    const kept = await s.t.call('POST', `/loans/${s.loan.id}/deposit/settle`, { token: s.chairman, body: { refundOre: 0 } })
    expect(kept.status).toBe(200)
    expect(kept.json.deposit).toBe('KEPT')
  })

  it('is not settled by a party of the loan (the member who lends the item)', async () => {
    const s = await setup({ memberLender: demo.admin })
    await s.collect()
    await loanStep(s.t, s.lender, s.loan.id, 'handover', {})
    await loanStep(s.t, s.lender, s.loan.id, 'return', { condition: 'Ridset', damage: 'Knækket bor' })
    const own = await s.t.call('POST', `/loans/${s.loan.id}/deposit/settle`, { token: s.lender, body: { refundOre: 0 }, headers: { 'Accept-Language': 'da' } })
    expect(own.status).toBe(403)
    expect(own.json.message).toBe('Du er part i dette lån, så et andet medlem af administrationen skal afgøre depositummet.')
    expect((await s.t.call('POST', `/loans/${s.loan.id}/deposit/settle`, { token: s.chairman, body: { refundOre: 20_000 } })).json.deposit).toBe('REFUNDING')
  })

  it('collected although the loan was called off (the cancel came too late): the lending job refunds it in full, once', async () => {
    const s = await setup()
    await s.drain()
    expect((await loanStep(s.t, s.borrower, s.loan.id, 'cancel')).json).toMatchObject({ status: 'CANCELLED', deposit: 'CANCELLING' })
    // Vipps collects it before the queued cancel reaches it.
    await s.capture()
    expect((await s.chargeRow()).status).toBe('EXECUTED')
    expect((await s.view()).deposit).toBe('COLLECTED')
    expect(await s.t.services.loans.sweepDeposits()).toBe(1)
    expect(await s.t.services.loans.sweepDeposits()).toBe(0)
    expect((await s.view()).deposit).toBe('REFUNDING')
    const notes = await s.t.db.select().from(invoices).where(eq(invoices.kind, 'CREDIT_NOTE')).all()
    expect(notes).toEqual([expect.objectContaining({ chargeId: depositChargeIdOf(s.loan.id), totalOre: 20_000 })])
    await s.drain()
    expect(Object.values((await s.state()).charges)).toEqual([expect.objectContaining({ amount: 20_000, refunded: 20_000 })])
    expect(await s.view()).toMatchObject({ deposit: 'REFUNDED' })
    await assertBookkeeping(s.t.db)
  })

  it('partly refunded through ordinary billing already: the return gives back what is left, not more', async () => {
    const s = await setup()
    await s.collect()
    const part = await s.t.call('POST', `/agreement/${s.agreementId}/refund`, {
      token: s.chairman,
      body: { chargeId: depositChargeIdOf(s.loan.id), amount: 5_000, description: 'Delvis' },
      headers: { 'Idempotency-Key': crypto.randomUUID() },
    })
    expect(part.status, JSON.stringify(part.json)).toBe(201)
    await loanStep(s.t, s.chairman, s.loan.id, 'handover', {})
    const back = await loanStep(s.t, s.chairman, s.loan.id, 'return', { condition: 'Som ny' })
    expect(back.status, JSON.stringify(back.json)).toBe(200)
    expect(back.json).toMatchObject({ status: 'RETURNED', deposit: 'REFUNDING' })
    const notes = await s.t.db.select().from(invoices).where(eq(invoices.kind, 'CREDIT_NOTE')).all()
    expect(notes.map((n) => n.totalOre).sort()).toEqual([15_000, 5_000])
    await s.drain()
    expect(Object.values((await s.state()).charges)).toEqual([expect.objectContaining({ refunded: 20_000 })])
    await assertBookkeeping(s.t.db)
  })

  it('failed, then the loan is called off: its invoice is written off once and leaves the debtor list', async () => {
    const s = await setup()
    await s.drain()
    await s.control('fail-next-charges', { count: 1 })
    await s.capture()
    expect((await s.chargeRow()).status).toBe('FAILED')
    expect((await s.view()).deposit).toBe('FAILED')
    const debtors = async () => (await s.t.call('GET', `/debtors?companyId=${s.f.main}`, { token: s.chairman })).json
    expect((await debtors()).total.count).toBe(1)
    expect((await loanStep(s.t, s.borrower, s.loan.id, 'cancel')).json.status).toBe('CANCELLED')
    expect((await debtors()).total.count).toBe(0)
    const notes = await s.t.db.select().from(invoices).where(eq(invoices.kind, 'CREDIT_NOTE')).all()
    expect(notes).toEqual([expect.objectContaining({ id: depositWriteOffIdOf(s.loan.id), totalOre: 20_000, settlement: 'WRITTEN_OFF' })])
    await assertBookkeeping(s.t.db)
  })
})
