import { describe, expect, it } from 'vitest'
import { caseProblems, readerArticles, searchCases } from '../../../shared/domain/search/search-cases.fixture'
import { searchOffline } from './offline-search'

const rows = [
  { id: '1', title: 'Vaskeriet', body: '<p>Affaldssortering: <b>storskrald</b> den første mandag</p>', tags: ['vaskeri'], createdAt: '2026-11-01' },
  { id: '2', title: 'Storskrald i gården', body: '<p>Hentes om tirsdagen</p>', tags: [], createdAt: '2026-10-01' },
  {
    id: '3',
    title: 'How Vipps MobilePay agreements work',
    body: '<p>Each member accepts in the app &amp; pays monthly.</p>',
    tags: ['vipps'],
    createdAt: '2026-09-01',
  },
]

describe('searchOffline', () => {
  it('finds every word in title, text or tags, ignoring case and accents; title hits first', () => {
    expect(searchOffline(rows, 'STORSKRALD').map((r) => r.id)).toEqual(['2', '1'])
    expect(searchOffline(rows, 'første mandag').map((r) => r.id)).toEqual(['1'])
    expect(searchOffline(rows, 'garden').map((r) => r.id)).toEqual(['2'])
    expect(searchOffline(rows, 'sortering').map((r) => r.id)).toEqual(['1'])
    expect(searchOffline(rows, 'app & pays').map((r) => r.id)).toEqual(['3'])
    expect(searchOffline(rows, 'vipps').map((r) => r.id)).toEqual(['3'])
    expect(searchOffline(rows, 'storskrald tirsdagen').map((r) => r.id)).toEqual(['2'])
  })

  it('never matches markup, and punctuation alone finds nothing', () => {
    expect(searchOffline([{ id: 'x', title: 'Hej', body: '<a href="/storskrald" title="storskrald">Link</a>' }], 'storskrald')).toEqual([])
    expect(searchOffline(rows, '"*:-')).toEqual([])
  })

  it('answers the search table as the server does (docs/decisions/0085)', () => {
    // The device keeps the reader's articles: their association's and the platform's, never another association's.
    const synced = readerArticles().map((a) => ({ ...a, id: a.key }))
    const problems = searchCases.flatMap((c) =>
      caseProblems(
        c,
        searchOffline(
          synced.filter((a) => !c.language || a.language === c.language),
          c.q,
        ).map((a) => a.key),
      ),
    )
    expect(problems).toEqual([])
    expect(searchCases.length).toBeGreaterThanOrEqual(30)
  })
})
