import { describe, expect, it } from 'vitest'
import { messages } from '../i18n-messages'
import { defaultTerminationDate, finalPaymentDue, terminationProblem } from './termination'

describe('termination rules', () => {
  const today = '2026-11-23'

  it('proposes today + 30 days and charges the last payment 3 days before the date', () => {
    expect(defaultTerminationDate(today)).toBe('2026-12-23')
    expect(defaultTerminationDate('2026-02-15')).toBe('2026-03-17')
    expect(finalPaymentDue('2026-03-02')).toBe('2026-02-27')
  })

  it('refuses a past date, a last payment too soon or on an agreement not accepted', () => {
    expect(terminationProblem({ terminationDate: today, finalPaymentRequired: false }, today, 'CREATED')).toBeNull()
    expect(terminationProblem({ terminationDate: '2026-11-22', finalPaymentRequired: false }, today, 'ACCEPTED')?.message).toBe(messages.terminationDateInPast.id)
    expect(terminationProblem({ terminationDate: '2026-11-26', finalPaymentRequired: true }, today, 'ACCEPTED')?.message).toBe(messages.finalPaymentTooSoon.id)
    expect(terminationProblem({ terminationDate: '2026-11-27', finalPaymentRequired: true }, today, 'ACCEPTED')).toBeNull()
    expect(terminationProblem({ terminationDate: '2026-12-27', finalPaymentRequired: true }, today, 'CREATED')?.message).toBe(messages.finalPaymentNeedsAccepted.id)
  })
})
