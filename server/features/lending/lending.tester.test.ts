/**
 * What an outside tester found in lending (decision 0064 "Added afterwards"): a handover
 * weeks ahead, the same request twice in parallel, the borrower taking the lender's step, the
 * refund's message, and the deposit shown to members outside the contract.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { demo, type TestApp } from '../../test/harness'
import { DA, EN, issue } from '../../test/requests'
import { neighbourhood, type Fixtures } from '../documents/test-helpers'
import { createItem, loanStep, requestLoan } from './test-helpers'

// The test clock starts 2026-11-23 09:00 UTC (10:00 in Copenhagen).
describe('lending after the outside test', () => {
  let t: TestApp
  let f: Fixtures
  let lender: string
  let borrower: string
  beforeEach(async () => ({ t, f, resident: lender, residentDa: borrower } = await neighbourhood()))
  const item = async (extra: Record<string, unknown> = {}) => (await createItem(t, lender, { companyId: f.main, title: 'Boremaskine', ...extra })).json
  const confirmed = async (span: { fromDate: string; toDate: string }) => {
    const loan = (await requestLoan(t, borrower, (await item()).id, span)).json
    await loanStep(t, lender, loan.id, 'accept')
    await loanStep(t, lender, loan.id, 'confirm')
    expect((await loanStep(t, borrower, loan.id, 'confirm')).json.status).toBe('CONFIRMED')
    return loan
  }

  it('records the handover from the day before the first day (Copenhagen), not weeks ahead', async () => {
    const loan = await confirmed({ fromDate: '2026-12-10', toDate: '2026-12-12' })
    for (const [headers, message] of [
      [EN, 'The handover can be recorded from 9.12.2026.'],
      [DA, 'Udleveringen kan registreres fra 9.12.2026.'],
    ] as const) {
      const early = await loanStep(t, lender, loan.id, 'handover', {}, headers)
      expect(early.status).toBe(422)
      expect(early.json.message).toBe(message)
    }
    // 22:30 UTC on the 8th is 23:30 in Copenhagen (still the 8th); 23:30 UTC is 00:30 on the 9th.
    t.clock.set(new Date('2026-12-08T22:30:00.000Z'))
    lender = await t.login(demo.resident)
    expect((await loanStep(t, lender, loan.id, 'handover', {})).status).toBe(422)
    t.clock.set(new Date('2026-12-08T23:30:00.000Z'))
    lender = await t.login(demo.resident)
    expect((await loanStep(t, lender, loan.id, 'handover', {})).json).toMatchObject({ status: 'HANDED_OVER' })
  })

  it('refuses the same borrower’s second open request for overlapping days, also when both arrive at once', async () => {
    const drill = await item()
    const body = { fromDate: '2026-11-28', toDate: '2026-11-30' }
    // Two identical requests in parallel, without an Idempotency-Key: one loan.
    const both = await Promise.all([1, 2].map(() => t.call('POST', `/lending/${drill.id}/loans`, { token: borrower, body, headers: EN })))
    expect(both.map((r) => r.status).sort()).toEqual([201, 409])
    expect(both.find((r) => r.status === 409)!.json.message).toBe('You have already asked to borrow it for these days.')
    const da = await requestLoan(t, borrower, drill.id, { fromDate: '2026-11-30', toDate: '2026-12-01' }, DA)
    expect(da.status).toBe(409)
    expect(issue(da, 'fromDate')).toBe('Du har allerede bedt om at låne den på disse dage.')
    // Other days, or another member for the same days, may still ask.
    expect((await requestLoan(t, borrower, drill.id, { fromDate: '2026-12-02', toDate: '2026-12-03' })).status).toBe(201)
    expect((await requestLoan(t, await t.login(demo.boardmember), drill.id, body)).status).toBe(201)
    // Once the first is cancelled, the borrower may ask for those days again.
    const first = both.find((r) => r.status === 201)!.json
    await loanStep(t, borrower, first.id, 'cancel')
    expect((await requestLoan(t, borrower, drill.id, body)).status).toBe(201)
  })

  it('a step that is the other party’s is 403 with who may take it; the lender does not cancel', async () => {
    const loan = (await requestLoan(t, borrower, (await item()).id, { fromDate: '2026-11-28', toDate: '2026-11-29' })).json
    for (const [headers, message] of [
      [EN, 'Only the lender can accept the request.'],
      [DA, 'Kun udlåneren kan acceptere forespørgslen.'],
    ] as const) {
      const res = await loanStep(t, borrower, loan.id, 'accept', undefined, headers)
      expect(res.status).toBe(403)
      expect(res.json.message).toBe(message)
    }
    await loanStep(t, lender, loan.id, 'accept')
    // Also once accepted (the step already taken): still not the borrower's.
    expect((await loanStep(t, borrower, loan.id, 'accept')).status).toBe(403)
    const terms = await loanStep(t, borrower, loan.id, 'terms', { conditionOut: 'Ny' }, EN)
    expect(terms.status).toBe(403)
    expect(terms.json.message).toBe('Only the lender can change the terms.')
    const cancel = await loanStep(t, lender, loan.id, 'cancel', undefined, EN)
    expect(cancel.status).toBe(403)
    expect(cancel.json.message).toBe('Only the borrower can cancel the loan.')
  })

  it.each([-1, 1.5, '10'])('refuses a refund of %s with what it must be, in English and Danish', async (refundOre) => {
    const loan = (await requestLoan(t, borrower, (await item()).id, { fromDate: '2026-11-28', toDate: '2026-11-29' })).json
    for (const [headers, message] of [
      [EN, 'The refund must be a whole number of øre from 0 to the deposit.'],
      [DA, 'Tilbagebetalingen skal være et helt antal øre fra 0 til depositummet.'],
    ] as const) {
      const res = await loanStep(t, await t.login(demo.chairman), loan.id, 'deposit/settle', { refundOre }, headers)
      expect(res.status).toBe(400)
      expect(issue(res, 'refundOre')).toBe(message)
    }
  })

  it('a member outside the contract sees neither the deposit’s amount nor its state; the parties and staff see both', async () => {
    // The association lends (its chairman acts for it); the resident is no party of the loan.
    const chairman = await t.login(demo.chairman)
    const drill = (await createItem(t, chairman, { companyId: f.main, title: 'Boremaskine', lender: 'ASSOCIATION', depositOre: 20_000 })).json
    const loan = (await requestLoan(t, borrower, drill.id, { fromDate: '2026-11-28', toDate: '2026-11-29', message: 'Til hylder' })).json
    expect(loan).toMatchObject({ depositOre: 20_000, deposit: 'PENDING' })
    const outsider = (await t.call('GET', `/loans/${loan.id}`, { token: lender })).json
    expect(outsider).toMatchObject({ fromDate: '2026-11-28', depositOre: null, deposit: 'NONE', message: '' })
    expect((await t.call('GET', `/loans/${loan.id}`, { token: await t.login(demo.boardmember) })).json).toMatchObject({
      depositOre: 20_000,
      deposit: 'PENDING',
    })
  })
})
