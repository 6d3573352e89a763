import { describe, expect, it } from 'vitest'
import { pushGroupOf, quietHoursEnd } from './push'

describe('push groups', () => {
  it('gives each kind of notification its group by where it leads, and security notices none', () => {
    expect(pushGroupOf({ titleId: 'x', actionUrl: '/agreements/1' })).toBe('money')
    expect(pushGroupOf({ titleId: 'x', actionUrl: '/account-statement?year=2026&companyId=1' })).toBe('money')
    expect(pushGroupOf({ titleId: 'x', actionUrl: '/messages/1' })).toBe('messages')
    expect(pushGroupOf({ titleId: 'x', actionUrl: '/markets/listing/1' })).toBe('messages')
    expect(pushGroupOf({ titleId: 'x', actionUrl: '/forum/reports' })).toBe('forum')
    expect(pushGroupOf({ titleId: 'x', actionUrl: '/lending/loans/1' })).toBe('lending')
    expect(pushGroupOf({ titleId: 'x', actionUrl: '/assemblies/1' })).toBe('assembly')
    expect(pushGroupOf({ titleId: 'Please read your water and heat meters', actionUrl: '/' })).toBe('assembly')
    expect(pushGroupOf({ titleId: 'New sign-in method added', actionUrl: '/user' })).toBeUndefined()
    expect(pushGroupOf({ titleId: 'Your password was changed' })).toBeUndefined()
  })
})

describe('quiet hours', () => {
  // November: Copenhagen is UTC+1; June: UTC+2.
  it('ends later the same day, or the next morning across midnight', () => {
    expect(quietHoursEnd(new Date('2026-11-23T09:00:00Z'), '08:00', '12:00')).toBe('2026-11-23T11:00:00.000Z')
    expect(quietHoursEnd(new Date('2026-11-23T22:30:00Z'), '22:00', '07:00')).toBe('2026-11-24T06:00:00.000Z')
    expect(quietHoursEnd(new Date('2026-11-24T03:00:00Z'), '22:00', '07:00')).toBe('2026-11-24T06:00:00.000Z')
    expect(quietHoursEnd(new Date('2026-06-10T20:30:00Z'), '22:00', '07:00')).toBe('2026-06-11T05:00:00.000Z')
  })
  it('is nothing outside them, at their end, or without both times', () => {
    expect(quietHoursEnd(new Date('2026-11-23T12:00:00Z'), '22:00', '07:00')).toBeUndefined()
    expect(quietHoursEnd(new Date('2026-11-23T06:00:00Z'), '22:00', '07:00')).toBeUndefined()
    expect(quietHoursEnd(new Date('2026-11-23T06:00:00Z'), null, '07:00')).toBeUndefined()
    expect(quietHoursEnd(new Date('2026-11-23T06:00:00Z'), '07:00', '07:00')).toBeUndefined()
  })
  it('takes the first minute after the skipped hour when the end falls in it', () => {
    // 2027-03-28: 02:00–03:00 does not exist in Copenhagen.
    expect(quietHoursEnd(new Date('2027-03-27T23:30:00Z'), '23:00', '02:30')).toBe('2027-03-28T01:00:00.000Z')
  })
})
