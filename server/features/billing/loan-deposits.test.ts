/** The deposit's state of a loan, from its status and billing's rows (decision 0064): the table of cases. */
import { describe, expect, it } from 'vitest'
import type { DepositState } from '../../../shared/contract/lending'
import type { LoanRow } from '../lending/deposit-desk'
import { stateOf } from './loan-deposits'

type Case = [
  what: string,
  loan: Partial<Pick<LoanRow, 'status' | 'depositOre' | 'depositChargeId' | 'depositRefundId' | 'damageNote'>>,
  charge: string | undefined,
  note: string | undefined,
  expected: DepositState,
]

const base = { status: 'CONFIRMED', depositOre: 20_000, depositChargeId: 'c', depositRefundId: null, damageNote: null } as const

const cases: Case[] = [
  ['no deposit', { depositOre: null, depositChargeId: null }, undefined, undefined, 'NONE'],
  ['not asked for yet', { status: 'ACCEPTED', depositChargeId: null }, undefined, undefined, 'PENDING'],
  ['declined before it was asked for', { status: 'DECLINED', depositChargeId: null }, undefined, undefined, 'NONE'],
  ['cancelled before it was asked for', { status: 'CANCELLED', depositChargeId: null }, undefined, undefined, 'NONE'],
  ['queued', {}, 'CREATED', undefined, 'QUEUED'],
  ['reserved', { status: 'HANDED_OVER' }, 'RESERVED', undefined, 'QUEUED'],
  ['cancelled with its cancel queued', { status: 'CANCELLED' }, 'RESERVED', undefined, 'CANCELLING'],
  ['returned without damage, cancel queued', { status: 'RETURNED' }, 'CREATED', undefined, 'CANCELLING'],
  ['returned with damage, still to be collected', { status: 'RETURNED', damageNote: 'x' }, 'RESERVED', undefined, 'QUEUED'],
  ['cancelled at Vipps', { status: 'CANCELLED' }, 'CANCELED', undefined, 'CANCELLED'],
  ['collected', { status: 'HANDED_OVER' }, 'EXECUTED', undefined, 'COLLECTED'],
  ['collected after the loan was cancelled (the sweep refunds it)', { status: 'CANCELLED' }, 'EXECUTED', undefined, 'COLLECTED'],
  ['held for damage', { status: 'RETURNED', damageNote: 'x' }, 'EXECUTED', undefined, 'HELD'],
  ['kept', { status: 'RETURNED', damageNote: 'x', depositRefundId: 'KEPT' }, 'EXECUTED', undefined, 'KEPT'],
  ['"kept" of a failed charge is the failure', { status: 'RETURNED', damageNote: 'x', depositRefundId: 'KEPT' }, 'FAILED', undefined, 'FAILED'],
  ['failed', { status: 'CONFIRMED' }, 'FAILED', undefined, 'FAILED'],
  ['refund queued', { status: 'RETURNED', depositRefundId: 'r' }, 'EXECUTED', 'PENDING', 'REFUNDING'],
  ['refunded', { status: 'RETURNED', depositRefundId: 'r' }, 'EXECUTED', 'EXECUTED', 'REFUNDED'],
  ['given back through ordinary refunds', { status: 'RETURNED', depositRefundId: 'BILLING' }, 'EXECUTED', undefined, 'REFUNDED'],
]

describe('a loan’s deposit state', () => {
  it.each(cases)('%s', (_what, loan, charge, note, expected) => {
    expect(stateOf({ ...base, ...loan }, charge, note)).toBe(expected)
  })
})
