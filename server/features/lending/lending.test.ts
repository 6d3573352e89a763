import { beforeEach, describe, expect, it } from 'vitest'
import { demo, type TestApp } from '../../test/harness'
import { DA, EN, issue, pullChanges } from '../../test/requests'
import { neighbourhood, type Fixtures } from '../documents/test-helpers'
import { createItem, loanStep, putItemPhoto, requestLoan } from './test-helpers'

const pull = async (t: TestApp, token: string, entity: string) => (await pullChanges(t, token, entity)).changes

// The test clock starts 2026-11-23 09:00 UTC (10:00 in Copenhagen).
describe('lending', () => {
  let t: TestApp
  let f: Fixtures
  let lender: string
  let borrower: string
  beforeEach(async () => ({ t, f, resident: lender, residentDa: borrower } = await neighbourhood()))

  const titles = async (token: string, loanIds: string[]) => {
    const notes = (await t.call('GET', '/notifications', { token })).json as { localized: { en: { title: string } }; actionUrl: string }[]
    return notes.filter((n) => loanIds.some((id) => n.actionUrl?.endsWith(id))).map((n) => n.localized.en.title)
  }

  it('a member lends a drill: request, accept, both confirm, handover, reminders once, return; another association sees nothing', async () => {
    const item = await createItem(t, lender, {
      companyId: f.main,
      title: ' Boremaskine ',
      description: 'Bosch, 18 V',
      rules: 'Rengøres efter brug',
      location: 'Kælderrum 3',
    })
    expect(item.status, JSON.stringify(item.json)).toBe(201)
    expect(item.json).toMatchObject({ title: 'Boremaskine', lender: { kind: 'MEMBER', fullName: expect.any(String) }, depositOre: null, version: 1 })
    expect((await putItemPhoto(t, lender, item.json.id)).status).toBe(200)
    const list = await t.call('GET', `/lending?companyId=${f.main}`, { token: borrower })
    expect(list.json.map((i: { title: string }) => i.title)).toEqual(['Boremaskine'])

    const other = await t.login(demo.otherAdmin)
    expect((await t.call('GET', `/lending?companyId=${f.main}`, { token: other })).status).toBe(404)
    expect((await t.call('GET', `/lending/${item.json.id}`, { token: other })).status).toBe(404)
    expect((await requestLoan(t, other, item.json.id, { fromDate: '2026-11-25', toDate: '2026-11-26' })).status).toBe(404)

    expect((await requestLoan(t, lender, item.json.id, { fromDate: '2026-11-25', toDate: '2026-11-26' }, EN)).json.message).toBe(
      'You cannot borrow your own item.',
    )
    const loan = await requestLoan(t, borrower, item.json.id, { fromDate: '2026-11-24', toDate: '2026-11-26', message: 'Til at hænge hylder op' })
    expect(loan.status, JSON.stringify(loan.json)).toBe(201)
    expect(loan.json).toMatchObject({ status: 'REQUESTED', mine: 'borrower', deposit: 'NONE' })
    // A second, overlapping request may wait; accepting the first declines it.
    const board = await t.login(demo.boardmember)
    const rival = await requestLoan(t, board, item.json.id, { fromDate: '2026-11-26', toDate: '2026-11-27', message: 'Til køkkenet' })
    expect(rival.status).toBe(201)
    // Only the lender accepts (403 for the borrower, said in their language).
    const own = await loanStep(t, borrower, loan.json.id, 'accept', undefined, EN)
    expect(own.status).toBe(403)
    expect(own.json.message).toBe('Only the lender can accept the request.')
    const accepted = await loanStep(t, lender, loan.json.id, 'accept', undefined, { 'If-Match': '"1"' })
    expect(accepted.json).toMatchObject({ status: 'ACCEPTED', version: 2 })
    // A double click answers the loan as it is; it is not applied twice.
    expect((await loanStep(t, lender, loan.json.id, 'accept', undefined, { 'If-Match': '"1"' })).json.version).toBe(2)
    expect((await t.call('GET', `/loans/${rival.json.id}`, { token: board })).json.status).toBe('DECLINED')
    expect(await titles(board, [rival.json.id])).toEqual(['Your request to borrow “Boremaskine” was declined'])
    // The lender, still seeing the rival open somewhere, is told why it closed (in their language).
    const late = await loanStep(t, lender, rival.json.id, 'accept', undefined, DA)
    expect(late.status).toBe(409)
    expect(late.json.message).toBe(
      'Anmodningen blev afvist, fordi tingen er lånt ud til en anden på nogle af dagene. Låneren kan spørge igen med andre datoer.',
    )
    // Overlapping the accepted loan is refused, in the asker's language.
    const overlap = await requestLoan(t, board, item.json.id, { fromDate: '2026-11-26', toDate: '2026-11-28' }, DA)
    expect(overlap.status).toBe(409)
    expect(overlap.json.message).toBe('Tingen er allerede lånt ud på nogle af dagene. Vælg venligst andre datoer.')
    expect((await requestLoan(t, board, item.json.id, { fromDate: '2026-11-27', toDate: '2026-11-28' })).status).toBe(201)

    // The contract: the lender notes the condition (confirmations start over), both confirm.
    expect((await loanStep(t, borrower, loan.json.id, 'confirm')).json).toMatchObject({ status: 'ACCEPTED', borrowerConfirmedAt: expect.any(String) })
    const terms = await loanStep(t, lender, loan.json.id, 'terms', { conditionOut: 'Som ny, med to bor' })
    expect(terms.json).toMatchObject({ conditionOut: 'Som ny, med to bor', borrowerConfirmedAt: null, lenderConfirmedAt: null })
    expect((await loanStep(t, lender, loan.json.id, 'handover', {})).status).toBe(409)
    await loanStep(t, lender, loan.json.id, 'confirm')
    const confirmed = await loanStep(t, borrower, loan.json.id, 'confirm')
    expect(confirmed.json).toMatchObject({ status: 'CONFIRMED', lenderConfirmedBy: expect.any(String) })
    expect(await titles(borrower, [loan.json.id])).toContain('The contract for “Boremaskine” is confirmed')

    const out = await loanStep(t, lender, loan.json.id, 'handover', { condition: 'Som ny, med to bor og lader' })
    // The handover's condition is recorded beside the confirmed contract's, which it never rewrites.
    expect(out.json).toMatchObject({
      status: 'HANDED_OVER',
      conditionOut: confirmed.json.conditionOut,
      handoverCondition: 'Som ny, med to bor og lader',
      handedOverAt: expect.any(String),
    })

    // Reminders at 08:00 Copenhagen (07:00 UTC): the day before and on the day to the borrower, each once.
    const before = (await t.mails()).length
    expect(await t.services.loanReminders.tick()).toBe(0)
    t.clock.set(new Date('2026-11-25T07:00:00.000Z'))
    expect(await t.services.loanReminders.tick()).toBe(1)
    expect(await t.services.loanReminders.tick()).toBe(0)
    t.clock.set(new Date('2026-11-26T07:30:00.000Z'))
    expect(await t.services.loanReminders.tick()).toBe(1)
    borrower = await t.login(demo.residentDa)
    expect(await titles(borrower, [loan.json.id])).toEqual(
      expect.arrayContaining(['Reminder: return “Boremaskine” tomorrow', 'Reminder: return “Boremaskine” today']),
    )
    const mails = (await t.mails()).slice(before)
    expect(mails.map((m) => m.to)).toEqual([demo.residentDa, demo.residentDa])
    expect(mails[0]!.text).toContain('26.11.2026')
    // Overdue the next morning: the lender is told.
    t.clock.set(new Date('2026-11-27T07:01:00.000Z'))
    expect(await t.services.loanReminders.tick()).toBe(1)
    lender = await t.login(demo.resident)
    expect(await titles(lender, [loan.json.id])).toContain('“Boremaskine” is overdue')

    // The return: only the lender records it, with the condition.
    expect((await loanStep(t, borrower, loan.json.id, 'return', { condition: 'Fin' })).status).toBe(403)
    const back = await loanStep(t, lender, loan.json.id, 'return', { condition: 'Fin, lidt støvet' })
    expect(back.json).toMatchObject({ status: 'RETURNED', conditionBack: 'Fin, lidt støvet', returnedAt: expect.any(String) })

    // History per item and per member; others in the association see who had it when, not the contract.
    const history = await t.call('GET', `/lending/${item.json.id}/loans`, { token: board })
    expect(history.json.map((l: { status: string }) => l.status)).toEqual(['REQUESTED', 'DECLINED', 'RETURNED'])
    // The staff see the contract; another member sees who had it when, not what was written.
    expect(history.json[2]).toMatchObject({ borrower: { fullName: 'Lars Pedersen' }, mine: null, message: 'Til at hænge hylder op' })
    const seen = (await t.call('GET', `/lending/${item.json.id}/loans`, { token: borrower })).json
    expect(seen[1]).toMatchObject({ id: rival.json.id, mine: null, message: '', borrower: { fullName: expect.any(String) } })
    expect((await t.call('GET', '/loans?role=borrower', { token: borrower })).json.map((l: { id: string }) => l.id)).toEqual([loan.json.id])
    expect((await t.call('GET', '/loans?role=lender', { token: lender })).json).toHaveLength(3)
    // Sync: members keep the items and loans; another association none.
    expect((await pull(t, borrower, 'loan')).map((c) => c.id).sort()).toEqual(history.json.map((l: { id: string }) => l.id).sort())
    expect(await pull(t, other, 'loan')).toEqual([])
    expect(await pull(t, other, 'lendingItem')).toEqual([])
    expect((await pull(t, borrower, 'lendingItem')).map((c) => c.id)).toEqual([item.json.id])
  })

  it('a returned or handed-back loan sends no more reminders; a moved return date moves them', async () => {
    const item = await createItem(t, lender, { companyId: f.main, title: 'Stige' })
    const loan = await requestLoan(t, borrower, item.json.id, { fromDate: '2026-11-23', toDate: '2026-11-24' })
    await loanStep(t, lender, loan.json.id, 'accept')
    const moved = await loanStep(t, lender, loan.json.id, 'terms', { toDate: '2026-11-30' })
    expect(moved.json, JSON.stringify(moved.json)).toMatchObject({ toDate: '2026-11-30' })
    await loanStep(t, lender, loan.json.id, 'confirm')
    await loanStep(t, borrower, loan.json.id, 'confirm')
    await loanStep(t, lender, loan.json.id, 'handover', {})
    t.clock.set(new Date('2026-11-24T07:00:00.000Z'))
    expect(await t.services.loanReminders.tick()).toBe(0)
    t.clock.set(new Date('2026-11-29T07:00:00.000Z'))
    expect(await t.services.loanReminders.tick()).toBe(1)
    await loanStep(t, await t.login(demo.resident), loan.json.id, 'return', { condition: 'OK' })
    t.clock.set(new Date('2026-12-02T07:00:00.000Z'))
    expect(await t.services.loanReminders.tick()).toBe(0)
  })

  it('the borrower cancels before the handover, not after; a stale If-Match is 412', async () => {
    const item = await createItem(t, lender, { companyId: f.main, title: 'Trailer' })
    const loan = await requestLoan(t, borrower, item.json.id, { fromDate: '2026-11-24', toDate: '2026-11-24' })
    await loanStep(t, lender, loan.json.id, 'accept')
    expect((await loanStep(t, borrower, loan.json.id, 'confirm', undefined, { 'If-Match': '"1"' })).status).toBe(412)
    expect((await loanStep(t, lender, loan.json.id, 'cancel')).status).toBe(403)
    expect((await loanStep(t, borrower, loan.json.id, 'cancel')).json.status).toBe('CANCELLED')
    expect((await loanStep(t, borrower, loan.json.id, 'cancel')).json.status).toBe('CANCELLED')
    // Its dates are free again.
    expect((await requestLoan(t, await t.login(demo.boardmember), item.json.id, { fromDate: '2026-11-24', toDate: '2026-11-24' })).status).toBe(201)
    // An item with an open loan is not deleted.
    expect((await t.call('DELETE', `/lending/${item.json.id}`, { token: lender, headers: { 'Idempotency-Key': 'x-1' } })).status).toBe(422)
  })

  it('the association lends through its administration; a board member may not; a deposit needs the borrower’s active agreement', async () => {
    const board = await t.login(demo.boardmember)
    const refused = await createItem(t, board, { companyId: f.main, title: 'Stige', lender: 'ASSOCIATION' }, DA)
    expect(refused.status).toBe(403)
    expect(refused.json.message).toBe('Kun administrationen kan låne ting ud på foreningens vegne.')
    const item = await createItem(t, f.admin, { companyId: f.main, title: 'Boremaskine', lender: 'ASSOCIATION', depositOre: 20000 })
    expect(item.json).toMatchObject({ lender: { kind: 'ASSOCIATION', id: null, fullName: expect.any(String) }, depositOre: 20000 })
    const loan = await requestLoan(t, borrower, item.json.id, { fromDate: '2026-11-24', toDate: '2026-11-25' })
    expect(loan.json).toMatchObject({ depositOre: 20000, deposit: 'PENDING' })
    const chairman = await t.login(demo.chairman)
    expect((await loanStep(t, chairman, loan.json.id, 'accept')).json.status).toBe('ACCEPTED')
    // The borrower's agreement is not accepted at Vipps yet: no deposit, so no confirmation.
    const no = await loanStep(t, borrower, loan.json.id, 'confirm', undefined, DA)
    expect(no.status).toBe(422)
    expect(no.json.message).toMatch(/^Tingen har et depositum/)
    expect((await loanStep(t, borrower, loan.json.id, 'confirm', undefined, EN)).json.message).toMatch(/^The item has a deposit/)
    // The administration sees association loans under "lent".
    const lent = await t.call('GET', '/loans?role=lender', { token: f.admin })
    expect(lent.status, JSON.stringify(lent.json)).toBe(200)
    expect(lent.json.map((l: { id: string }) => l.id)).toEqual([loan.json.id])
  })

  it('refuses bad input with a clear message in the user’s language', async () => {
    const cases: [Record<string, string>, string, Record<string, unknown>, string, string][] = [
      [EN, 'item', { companyId: f.main, title: ' ' }, 'title', 'Please enter what you lend'],
      [DA, 'item', { companyId: f.main, title: ' ' }, 'title', 'Skriv venligst, hvad du låner ud'],
      [EN, 'item', { companyId: f.main, title: 'Bor', depositOre: 50 }, 'depositOre', 'The deposit must be between DKK 1 and DKK 5,000.'],
      [DA, 'item', { companyId: f.main, title: 'Bor', depositOre: 600000 }, 'depositOre', 'Depositummet skal være mellem 1 kr. og 5.000 kr.'],
      [EN, 'loan', { fromDate: '2026-13-01', toDate: '2026-12-02' }, 'fromDate', 'Please enter a date'],
      [DA, 'loan', { fromDate: '2026-12-03', toDate: '2026-12-02' }, 'toDate', 'Returdatoen skal være samme dag som eller efter den første dag.'],
      [EN, 'loan', { fromDate: '2026-11-01', toDate: '2026-11-02' }, 'fromDate', 'The first day cannot be in the past.'],
      [DA, 'loan', { fromDate: '2026-11-24', toDate: '2027-02-24' }, 'fromDate', 'Et lån kan højst vare 60 dage.'],
    ]
    const item = await createItem(t, lender, { companyId: f.main, title: 'Symaskine' })
    for (const [headers, kind, body, path, text] of cases) {
      const res = kind === 'item' ? await createItem(t, lender, body, headers) : await requestLoan(t, borrower, item.json.id, body, headers)
      expect(res.status, JSON.stringify(res.json)).toBeGreaterThanOrEqual(400)
      expect(res.status).toBeLessThan(500)
      expect(issue(res, path) ?? res.json.message, `${path} ${JSON.stringify(body)}`).toBe(text)
    }
    const noCondition = await loanStep(
      t,
      lender,
      (await requestLoan(t, borrower, item.json.id, { fromDate: '2026-11-24', toDate: '2026-11-24' })).json.id,
      'return',
      { condition: '' },
      DA,
    )
    expect(noCondition.status).toBe(400)
    expect(issue(noCondition, 'condition')).toBe('Beskriv venligst tingens stand')
    const photo = await putItemPhoto(t, lender, item.json.id, { name: 'x.pdf', bytes: new TextEncoder().encode('%PDF-1.4\n%%EOF\n') })
    expect(photo.status).toBe(422)
    const big = await putItemPhoto(t, lender, item.json.id, { name: 'big.png', bytes: new Uint8Array(5 * 1024 * 1024 + 1) })
    expect(big.status).toBeGreaterThanOrEqual(413)
    expect(big.status).toBeLessThan(500)
  })
})
