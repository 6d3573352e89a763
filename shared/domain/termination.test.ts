import { describe, expect, it } from 'vitest'
import { messages } from '../i18n-messages'
import { defaultTerminationDate, finalPaymentDue, lastPaymentOf, regularChargeAllowed, terminationProblem, upcomingPayment } from './termination'

describe('termination rules', () => {
  const today = '2026-11-23'

  it('proposes today + 30 days and charges the last payment 3 days before the date', () => {
    expect(defaultTerminationDate(today)).toBe('2026-12-23')
    expect(defaultTerminationDate('2026-02-15')).toBe('2026-03-17')
    expect(finalPaymentDue('2026-03-02')).toBe('2026-02-27')
  })

  it('refuses a past date, a last payment too soon or on an agreement not accepted', () => {
    expect(terminationProblem({ terminationDate: today, finalPaymentRequired: false }, today, 'CREATED')).toBeNull()
    expect(terminationProblem({ terminationDate: '2026-11-22', finalPaymentRequired: false }, today, 'ACCEPTED')?.message).toBe(
      messages.terminationDateInPast.id,
    )
    expect(terminationProblem({ terminationDate: '2026-11-26', finalPaymentRequired: true }, today, 'ACCEPTED')?.message).toBe(messages.finalPaymentTooSoon.id)
    expect(terminationProblem({ terminationDate: '2026-11-27', finalPaymentRequired: true }, today, 'ACCEPTED')).toBeNull()
    expect(terminationProblem({ terminationDate: '2026-12-27', finalPaymentRequired: true }, today, 'CREATED')?.message).toBe(
      messages.finalPaymentNeedsAccepted.id,
    )
  })
})

/**
 * Terminating on 1 March with "Make last payment" once charged the regular 1 February and a final
 * 26 February, both full price. The last payment now takes the place of the last period's regular
 * charge (docs/decisions/0035-the-last-payment-of-a-termination-charges-each-day-once.md).
 */
describe('the last payment charges each day once', () => {
  const monthly = { price: 533_000, paymentPeriod: 'MONTHLY' as const, startPaymentDate: '2027-01-01' }

  it('monthly, terminated at a period end: the last payment is the last period, the regular charge of that period is not made', () => {
    // Entered in January: 1 February is not charged yet.
    expect(lastPaymentOf({ ...monthly, nextRegularPaymentDate: '2027-02-01' }, '2027-03-01')).toEqual({
      from: '2027-02-01',
      through: '2027-02-28',
      due: '2027-02-26',
      amount: 533_000,
    })
    const termination = { terminationDate: '2027-03-01', finalPaymentRequired: true }
    expect(regularChargeAllowed('2027-01-01', '2027-02-01', termination)).toBe(true)
    expect(regularChargeAllowed('2027-02-01', '2027-03-01', termination)).toBe(false)
    // Entered after 1 February was charged: February is paid, nothing is left.
    expect(lastPaymentOf({ ...monthly, nextRegularPaymentDate: '2027-03-01' }, '2027-03-01')).toBeNull()
    expect(
      terminationProblem({ terminationDate: '2027-03-01', finalPaymentRequired: true }, '2027-02-10', 'ACCEPTED', {
        ...monthly,
        nextRegularPaymentDate: '2027-03-01',
      })?.message,
    ).toBe(messages.finalPaymentNothingLeft.id)
    expect(
      terminationProblem({ terminationDate: '2027-03-01', finalPaymentRequired: false }, '2027-02-10', 'ACCEPTED', {
        ...monthly,
        nextRegularPaymentDate: '2027-03-01',
      }),
    ).toBeNull()
  })

  it('monthly, terminated within a period: regular charges for the whole months, the last payment for the days of the last one', () => {
    // 15 March: February is charged as usual on 1 February, the last payment covers 1–14 March (14 of 31 days).
    const last = lastPaymentOf({ ...monthly, nextRegularPaymentDate: '2027-02-01' }, '2027-03-15')
    expect(last).toEqual({ from: '2027-03-01', through: '2027-03-14', due: '2027-03-12', amount: Math.round((533_000 * 14) / 31) })
    expect(regularChargeAllowed('2027-02-01', '2027-03-01', { terminationDate: '2027-03-15', finalPaymentRequired: true })).toBe(true)
    expect(regularChargeAllowed('2027-03-01', '2027-04-01', { terminationDate: '2027-03-15', finalPaymentRequired: true })).toBe(false)
    // Entered after 1 March was charged: March is paid in full, nothing is left.
    expect(lastPaymentOf({ ...monthly, nextRegularPaymentDate: '2027-04-01' }, '2027-03-15')).toBeNull()
  })

  it('the longer period (yearly; the product has no quarterly period): the last payment is the share of the last year up to the termination date', () => {
    const yearly = { price: 6_000_000, paymentPeriod: 'YEARLY' as const, startPaymentDate: '2027-01-01' }
    // Terminated on 1 April 2027 before the 2027 charge: January–March, 90 of 365 days, instead of the whole year.
    expect(lastPaymentOf({ ...yearly, nextRegularPaymentDate: '2027-01-01' }, '2027-04-01')).toEqual({
      from: '2027-01-01',
      through: '2027-03-31',
      due: '2027-03-29',
      amount: Math.round((6_000_000 * 90) / 365),
    })
    expect(regularChargeAllowed('2027-01-01', '2028-01-01', { terminationDate: '2027-04-01', finalPaymentRequired: true })).toBe(false)
    // At the end of the year: the whole year, once.
    expect(lastPaymentOf({ ...yearly, nextRegularPaymentDate: '2027-01-01' }, '2028-01-01')?.amount).toBe(6_000_000)
    // The year already charged: nothing left.
    expect(lastPaymentOf({ ...yearly, nextRegularPaymentDate: '2028-01-01' }, '2027-04-01')).toBeNull()
  })

  it("daily and weekly: the periods from the last payment's due date on are part of it", () => {
    const daily = { price: 10_000, paymentPeriod: 'DAILY' as const, startPaymentDate: '2027-01-01', nextRegularPaymentDate: '2027-03-01' }
    expect(lastPaymentOf(daily, '2027-03-10')).toEqual({ from: '2027-03-07', through: '2027-03-09', due: '2027-03-07', amount: 30_000 })
    const weekly = { price: 70_000, paymentPeriod: 'WEEKLY' as const, startPaymentDate: '2027-03-01', nextRegularPaymentDate: '2027-03-01' }
    // Mondays; terminated Wednesday 17 March: the week of 15 March counts 2 of 7 days.
    expect(lastPaymentOf(weekly, '2027-03-17')).toEqual({ from: '2027-03-15', through: '2027-03-16', due: '2027-03-14', amount: 20_000 })
  })

  it('shows no next payment after the end: the regular ones, then the last payment, then none', () => {
    const base = { ...monthly, status: 'ACCEPTED', terminationDate: null, finalPaymentRequired: false, nextRegularPaymentDate: '2027-02-01' }
    expect(upcomingPayment(base)).toEqual({ date: '2027-02-01', kind: 'REGULAR' })
    const terminating = { ...base, terminationDate: '2027-03-01', finalPaymentRequired: true }
    expect(upcomingPayment(terminating)).toEqual({ date: '2027-02-26', kind: 'FINAL' })
    expect(upcomingPayment({ ...terminating, terminationDate: '2027-03-15', nextRegularPaymentDate: '2027-02-01' })).toEqual({
      date: '2027-02-01',
      kind: 'REGULAR',
    })
    expect(upcomingPayment({ ...terminating, terminationDate: '2027-03-15', nextRegularPaymentDate: '2027-03-01' })).toEqual({
      date: '2027-03-12',
      kind: 'FINAL',
    })
    for (const status of ['CANCELED', 'CLOSED', 'REJECTED', 'EXPIRED']) expect(upcomingPayment({ ...base, status, terminationDate: '2027-03-01' })).toBeNull()
    expect(upcomingPayment({ ...base, status: 'CREATED' })).toEqual({ date: '2027-02-01', kind: 'REGULAR' })
  })
})
