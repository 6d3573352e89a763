import { describe, expect, it } from 'vitest'
import { copenhagenToday, erasablePeople } from './erasable-people'
import { fileNameOf } from '../../lib/api'

const row = (data: Record<string, unknown>) => ({ id: crypto.randomUUID(), _version: 1, ...data })

describe('erasablePeople', () => {
  it('lists agreement members once each, by name, without staff, the caller and already erased accounts', () => {
    const members = [
      row({ userId: 'u-karen', name: 'Karen Holm', email: 'formand@x.dk' }),
      row({ userId: 'u-jonas', name: 'Jonas Berg', email: 'bestyrelse@x.dk' }),
    ]
    const agreements = [
      row({ member: { userId: 'u-emma', fullName: 'Emma Hansen', emailAddress: 'beboer03@x.dk' } }),
      row({ member: { userId: 'u-emma', fullName: 'Emma Hansen', emailAddress: 'beboer03@x.dk' } }),
      row({ member: { userId: 'u-jonas', fullName: 'Jonas Berg', emailAddress: 'bestyrelse@x.dk' } }),
      row({ member: { userId: 'u-gone', fullName: 'Erased member', emailAddress: 'erased-u-gone@erased.invalid' } }),
      row({ status: 'CREATED' }),
    ]
    // Jonas is on the board (a member row): staff are never erased while they hold the role (decision 0080).
    expect(erasablePeople(members, agreements, 'u-karen')).toEqual([{ userId: 'u-emma', name: 'Emma Hansen', email: 'beboer03@x.dk' }])
    expect(erasablePeople([], agreements, 'u-emma')).toEqual([{ userId: 'u-jonas', name: 'Jonas Berg', email: 'bestyrelse@x.dk' }])
  })
})

describe('copenhagenToday', () => {
  it('is the Copenhagen date: 23:30 UTC on 31 December is already 1 January', () => {
    expect(copenhagenToday(new Date('2026-12-31T23:30:00Z'))).toBe('2027-01-01')
    expect(copenhagenToday(new Date('2026-06-30T21:59:00Z'))).toBe('2026-06-30')
  })
})

describe('fileNameOf', () => {
  it('takes the server’s file name, or the fallback', () => {
    expect(fileNameOf('attachment; filename="boligkasse-personal-data-2026-11-25.json"', 'x.json')).toBe('boligkasse-personal-data-2026-11-25.json')
    expect(fileNameOf(null, 'x.json')).toBe('x.json')
  })
})
