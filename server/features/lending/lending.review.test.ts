/**
 * The review's fixes (decision 0064, "After review"): an item with loans is archived, not deleted;
 * parties keep their loans after moving out; the same terms again keep the confirmations; another
 * association's loan id is 404; a loan whose first day passed is not accepted or confirmed; the
 * handover's condition never rewrites the contract's; reminders of returned loans are dropped at once.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { demo, type TestApp } from '../../test/harness'
import { DA, EN } from '../../test/requests'
import { agreements } from '../../db/schema/agreements'
import { lendingItems, loanReminders, loans } from '../../db/schema/lending'
import { users } from '../../db/schema/users'
import { neighbourhood, type Fixtures } from '../documents/test-helpers'
import { createItem, loanStep, requestLoan } from './test-helpers'

// The test clock starts 2026-11-23 09:00 UTC (10:00 in Copenhagen).
describe('lending after review', () => {
  let t: TestApp
  let f: Fixtures
  let lender: string
  let borrower: string
  beforeEach(async () => ({ t, f, resident: lender, residentDa: borrower } = await neighbourhood()))
  const lent = async (title = 'Boremaskine', span = { fromDate: '2026-11-24', toDate: '2026-11-25' }) => {
    const item = await createItem(t, lender, { companyId: f.main, title })
    const loan = await requestLoan(t, borrower, item.json.id, span)
    expect(loan.status, JSON.stringify(loan.json)).toBe(201)
    return { item: item.json, loan: loan.json }
  }
  const remove = (id: string, token = lender) => t.call('DELETE', `/lending/${id}`, { token, headers: { 'Idempotency-Key': crypto.randomUUID() } })

  it('an item that has had loans is archived, not deleted: its loans stay readable, it leaves the list, no new requests', async () => {
    const { item, loan } = await lent()
    await loanStep(t, lender, loan.id, 'accept')
    await loanStep(t, lender, loan.id, 'confirm')
    await loanStep(t, borrower, loan.id, 'confirm')
    await loanStep(t, lender, loan.id, 'handover', {})
    await loanStep(t, lender, loan.id, 'return', { condition: 'OK' })
    expect((await remove(item.id)).status).toBe(204)
    expect((await t.db.select().from(lendingItems).where(eq(lendingItems.id, item.id)).get())?.archivedAt).toEqual(expect.any(String))
    expect(await t.db.select().from(loans).where(eq(loans.id, loan.id)).get()).toBeDefined()
    expect((await t.call('GET', `/loans/${loan.id}`, { token: borrower })).json).toMatchObject({ status: 'RETURNED' })
    expect((await t.call('GET', `/lending/${item.id}`, { token: borrower })).json.archivedAt).toEqual(expect.any(String))
    expect((await t.call('GET', `/lending?companyId=${f.main}`, { token: borrower })).json).toEqual([])
    for (const [headers, message] of [
      [EN, 'This item is no longer lent out.'],
      [DA, 'Denne ting udlånes ikke længere.'],
    ] as const) {
      const again = await requestLoan(t, borrower, item.id, { fromDate: '2026-11-28', toDate: '2026-11-29' }, headers)
      expect(again.status).toBe(422)
      expect(again.json.message).toBe(message)
    }
    // Deleting it again changes nothing; a loan's item can never be deleted under it.
    expect((await remove(item.id)).status).toBe(204)
    let refused = false
    try {
      await t.db.delete(lendingItems).where(eq(lendingItems.id, item.id)).run()
    } catch {
      refused = true
    }
    expect(refused).toBe(true)
    // An item that never had a loan is deleted.
    const plain = await createItem(t, lender, { companyId: f.main, title: 'Stige' })
    expect((await remove(plain.json.id)).status).toBe(204)
    expect(await t.db.select().from(lendingItems).where(eq(lendingItems.id, plain.json.id)).get()).toBeUndefined()
  })

  it('a party who moved out still reads and acts on their own loan', async () => {
    const { loan } = await lent()
    await loanStep(t, lender, loan.id, 'accept')
    const me = (await t.db.select().from(users).where(eq(users.emailAddress, demo.residentDa)).get())!
    await t.db.update(agreements).set({ status: 'CLOSED' }).where(eq(agreements.memberUserId, me.id)).run()
    expect((await t.call('GET', `/loans/${loan.id}`, { token: borrower })).status).toBe(200)
    expect((await loanStep(t, borrower, loan.id, 'cancel')).json.status).toBe('CANCELLED')
  })

  it('the same terms again keep both confirmations; changed terms start them over', async () => {
    const { loan } = await lent()
    await loanStep(t, lender, loan.id, 'accept')
    await loanStep(t, lender, loan.id, 'terms', { conditionOut: 'Som ny' })
    await loanStep(t, lender, loan.id, 'confirm')
    const replay = await loanStep(t, lender, loan.id, 'terms', { conditionOut: 'Som ny', fromDate: '2026-11-24' })
    expect(replay.status).toBe(200)
    expect(replay.json.lenderConfirmedAt).toEqual(expect.any(String))
    const changed = await loanStep(t, lender, loan.id, 'terms', { conditionOut: 'Ridset' })
    expect(changed.json.lenderConfirmedAt).toBeNull()
  })

  it('another association’s loan id sent as a new request’s id is 404, not 409', async () => {
    const { loan } = await lent()
    const other = await t.login(demo.otherAdmin)
    const theirs = await createItem(t, other, { companyId: f.second, title: 'Sav' })
    expect(theirs.status, JSON.stringify(theirs.json)).toBe(201)
    const res = await requestLoan(t, other, theirs.json.id, { id: loan.id, fromDate: '2026-11-24', toDate: '2026-11-25' })
    expect(res.status).toBe(404)
  })

  it('a loan whose first day has passed is not accepted or confirmed (EN/DA)', async () => {
    const { loan } = await lent('Boremaskine', { fromDate: '2026-11-24', toDate: '2026-11-26' })
    t.clock.set(new Date('2026-11-25T09:00:00.000Z'))
    const late = await loanStep(t, lender, loan.id, 'accept', undefined, DA)
    expect(late.status).toBe(422)
    expect(late.json.message).toBe('Den første dag kan ikke ligge i fortiden.')
    expect((await loanStep(t, lender, loan.id, 'accept', undefined, EN)).json.message).toBe('The first day cannot be in the past.')
    t.clock.set(new Date('2026-11-23T09:00:00.000Z'))
    await loanStep(t, lender, loan.id, 'accept')
    t.clock.set(new Date('2026-11-25T09:00:00.000Z'))
    expect((await loanStep(t, lender, loan.id, 'confirm')).status).toBe(422)
  })

  it('reminders of a returned loan are dropped without a query per reminder, none sent', async () => {
    const { loan } = await lent()
    await loanStep(t, lender, loan.id, 'accept')
    await loanStep(t, lender, loan.id, 'confirm')
    await loanStep(t, borrower, loan.id, 'confirm')
    await loanStep(t, lender, loan.id, 'handover', {})
    await loanStep(t, lender, loan.id, 'return', { condition: 'OK' })
    t.clock.set(new Date('2026-12-10T09:00:00.000Z'))
    expect(await t.services.loanReminders.tick()).toBe(0)
    const rows = await t.db.select().from(loanReminders).where(eq(loanReminders.loanId, loan.id)).all()
    expect(rows.length).toBe(3)
    expect(rows.every((r) => r.sentAt !== null)).toBe(true)
  })
})
