import { describe, expect, it } from 'vitest'
import { expiryOf, marketCompanyIds, shownInList } from './labels'

const now = new Date('2026-11-24T12:00:00Z')
const row = (over: Record<string, unknown>): { title?: string; kind: any; status: any; expiresAt: string; seller: { id: string } } => ({
  kind: 'SWAP' as const,
  status: 'AVAILABLE' as const,
  expiresAt: '2026-12-01T12:00:00Z',
  seller: { id: 'me' },
  ...over,
})

describe('market labels', () => {
  it('lists a kind, leaving out others’ expired listings but keeping one’s own', () => {
    const rows = [
      row({ title: 'a' }),
      row({ title: 'b', kind: 'BUY' }),
      row({ title: 'c', expiresAt: '2026-11-24T11:59:59Z', seller: { id: 'other' } }),
      row({ title: 'd', expiresAt: '2026-11-20T00:00:00Z' }),
      row({ title: 'e', expiresAt: '2026-11-20T00:00:00Z', status: 'GONE', seller: { id: 'other' } }),
    ]
    expect(shownInList(rows, 'SWAP', 'me', now).map((r) => r.title)).toEqual(['a', 'd', 'e'])
  })

  it('says how many whole days are left, or that it expired; nothing for a gone listing', () => {
    expect(expiryOf(row({}), now)).toEqual({ expired: false, days: 7 })
    expect(expiryOf(row({ expiresAt: '2026-11-24T13:00:00Z' }), now)).toEqual({ expired: false, days: 1 })
    expect(expiryOf(row({ expiresAt: '2026-11-24T12:00:00Z' }), now)).toEqual({ expired: true })
    expect(expiryOf(row({ status: 'GONE' }), now)).toBeNull()
  })

  it('takes part in the market of the company one works for, else where one lives', () => {
    const agreements = [
      { companyId: 'c1', status: 'ACCEPTED', member: { userId: 'u' } },
      { companyId: 'c2', status: 'CLOSED', member: { userId: 'u' } },
      { companyId: 'c3', status: 'PENDING', member: { userId: 'u' } },
      { companyId: 'c4', status: 'ACCEPTED', member: { userId: 'someone' } },
    ]
    expect(marketCompanyIds(undefined, agreements, 'u')).toEqual(['c1', 'c3'])
    expect(marketCompanyIds('staff', agreements, 'u')).toEqual(['staff'])
  })
})
