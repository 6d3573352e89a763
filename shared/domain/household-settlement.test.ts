import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { lastPaymentOf } from './termination'
import { paidAheadOf, settlementOf, type SettledCharge } from './household-settlement'
import { decimalToScaled, livesThereOn, scaledToDecimal } from './household'

const collected = (id: string, due: string, amount: number, refunded = 0): SettledCharge => ({
  id,
  kind: 'REGULAR',
  due,
  amount,
  status: 'EXECUTED',
  captured: amount,
  refunded,
})

describe('final settlement of a move (docs/DOMAIN.md "Moves and the final settlement")', () => {
  const monthly = { price: 100_000, paymentPeriod: 'MONTHLY' as const, startPaymentDate: '2027-01-01' }

  it('monthly: the share of the days of the period the move cuts, when it is not yet charged', () => {
    const s = settlementOf({ schedule: { ...monthly, nextRegularPaymentDate: '2027-03-01' }, moveDate: '2027-03-11', charges: [], openBalance: 0 })
    // 10 of March's 31 days: 100000 × 10 / 31 = 32258.06 → 32258 øre.
    expect(s.lastPayment).toEqual({ from: '2027-03-01', through: '2027-03-10', due: '2027-03-08', amount: 32_258 })
    expect(s).toMatchObject({ regularToCome: 0, paidAhead: [], openBalance: 0, total: 32_258 })
  })

  it('monthly: whole periods before the move still come as regular charges, the open balance is added', () => {
    const s = settlementOf({ schedule: { ...monthly, nextRegularPaymentDate: '2027-01-01' }, moveDate: '2027-03-11', charges: [], openBalance: 12_345 })
    expect(s.regularToCome).toBe(200_000)
    expect(s.lastPayment?.amount).toBe(32_258)
    expect(s.total).toBe(200_000 + 32_258 + 12_345)
  })

  it('monthly: a period already collected is refunded for the days from the move on, and kept plus refunded is the charge', () => {
    const s = settlementOf({
      schedule: { ...monthly, nextRegularPaymentDate: '2027-04-01' },
      moveDate: '2027-03-11',
      charges: [collected('feb', '2027-02-01', 100_000), collected('mar', '2027-03-01', 100_000)],
      openBalance: 0,
    })
    expect(s.lastPayment).toBeNull()
    expect(s.paidAhead).toEqual([{ chargeId: 'mar', from: '2027-03-11', through: '2027-03-31', amount: 67_742 }])
    expect(s.total).toBe(-67_742)
    expect(67_742 + 32_258).toBe(100_000)
  })

  it('monthly: a move on the period end charges the whole period', () => {
    const s = settlementOf({ schedule: { ...monthly, nextRegularPaymentDate: '2027-03-01' }, moveDate: '2027-04-01', charges: [], openBalance: 0 })
    expect(s.lastPayment?.amount).toBe(100_000)
    expect(s.total).toBe(100_000)
  })

  const yearly = { price: 1_200_000, paymentPeriod: 'YEARLY' as const, startPaymentDate: '2027-01-01' }

  it('yearly: the share of the year up to the move, when the year is not yet charged', () => {
    const s = settlementOf({ schedule: { ...yearly, nextRegularPaymentDate: '2027-01-01' }, moveDate: '2027-07-01', charges: [], openBalance: 0 })
    // 181 of 365 days: 1200000 × 181 / 365 = 595068.49 → 595068 øre.
    expect(s.lastPayment).toMatchObject({ from: '2027-01-01', through: '2027-06-30', amount: 595_068 })
    expect(s.total).toBe(595_068)
  })

  it('yearly: a collected year is refunded for the rest of the year (a leap year counts 366 days)', () => {
    const s = settlementOf({
      schedule: { ...yearly, startPaymentDate: '2028-01-01', nextRegularPaymentDate: '2029-01-01' },
      moveDate: '2028-07-01',
      charges: [collected('y2028', '2028-01-01', 1_200_000)],
      openBalance: 0,
    })
    // Kept: 1200000 × 182 / 366 = 596721.31 → 596721; refunded: the rest.
    expect(s.paidAhead).toEqual([{ chargeId: 'y2028', from: '2028-07-01', through: '2028-12-31', amount: 603_279 }])
    expect(s.total).toBe(-603_279)
  })

  it('refunds at most what is left of a charge, and nothing of one not collected', () => {
    const sched = { ...monthly, nextRegularPaymentDate: '2027-04-01' }
    expect(paidAheadOf(collected('mar', '2027-03-01', 100_000, 90_000), sched, '2027-03-11')?.amount).toBe(10_000)
    expect(paidAheadOf({ ...collected('mar', '2027-03-01', 100_000), status: 'FAILED', captured: 0 }, sched, '2027-03-11')).toBeNull()
    expect(paidAheadOf({ ...collected('x', '2027-03-01', 100_000), kind: 'ONE_TIME' }, sched, '2027-03-11')).toBeNull()
  })

  it('a collected period and its last payment add up to the price, for any move date inside it (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 30 }), fc.integer({ min: 1, max: 5_000_000 }), fc.constantFrom('MONTHLY', 'YEARLY'), (day, price, period) => {
        const moveDate = `2027-03-${String(day + 1).padStart(2, '0')}`
        const schedule = { price, paymentPeriod: period as 'MONTHLY' | 'YEARLY', startPaymentDate: '2027-03-01' }
        const charged = lastPaymentOf({ ...schedule, nextRegularPaymentDate: '2027-03-01' }, moveDate)?.amount ?? 0
        const back = paidAheadOf(collected('c', '2027-03-01', price), schedule, moveDate)?.amount ?? 0
        expect(charged + back).toBe(price)
      }),
    )
  })
})

describe('household figures and stays', () => {
  it('keeps decimal figures exactly as scaled integers', () => {
    expect(decimalToScaled('74.5', 2)).toBe(7450)
    expect(decimalToScaled('74,55', 2)).toBe(7455)
    expect(decimalToScaled('1.250', 3)).toBe(1250)
    expect(decimalToScaled('0.1', 3)).toBe(100)
    expect(decimalToScaled('1.2345', 3)).toBeNull()
    expect(decimalToScaled('-1', 2)).toBeNull()
    expect(decimalToScaled('abc', 2)).toBeNull()
    expect(scaledToDecimal(7450, 2)).toBe('74.5')
    expect(scaledToDecimal(1250, 3)).toBe('1.25')
    expect(scaledToDecimal(100, 3)).toBe('0.1')
    expect(scaledToDecimal(7400, 2)).toBe('74')
  })

  it('a resident lives there from the move-in date up to the day before the move-out date', () => {
    const stay = { moveInDate: '2027-01-01', moveOutDate: '2027-03-11' }
    expect(livesThereOn(stay, '2026-12-31')).toBe(false)
    expect(livesThereOn(stay, '2027-01-01')).toBe(true)
    expect(livesThereOn(stay, '2027-03-10')).toBe(true)
    expect(livesThereOn(stay, '2027-03-11')).toBe(false)
    expect(livesThereOn({ moveInDate: '2027-01-01', moveOutDate: null }, '2030-01-01')).toBe(true)
  })
})
