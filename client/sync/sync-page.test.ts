import { describe, expect, it } from 'vitest'
import { SyncResponse } from '../../shared/contract/sync'
import { readSyncPage } from './sync-page'

const upsert = { entity: 'notification', id: 'n1', op: 'upsert', version: 3, data: { id: 'n1', title: 'Hej' } }
const remove = { entity: 'agreement', id: 'a1', op: 'delete' }
const page = (changes: unknown[], extra: Record<string, unknown> = {}) => ({ changes, cursor: 'c1', hasMore: false, reset: false, ...extra })

/**
 * readSyncPage checks a page by hand instead of with the contract's zod schema (it is on the pull's
 * hot path): both must accept and refuse the same bodies.
 */
const cases: [string, unknown][] = [
  ['an empty page', page([])],
  ['an upsert and a delete', page([upsert, remove])],
  [
    'every entity',
    page(
      ['agreement', 'charge', 'invoice', 'notification', 'company', 'address', 'member', 'paymentProvider', 'message'].map((entity) => ({ ...upsert, entity })),
    ),
  ],
  ['a reset page with more to come', page([upsert], { hasMore: true, reset: true })],
  ['an unknown entity', page([{ ...upsert, entity: 'user' }])],
  ['an unknown op', page([{ ...upsert, op: 'patch' }])],
  ['an upsert without data', page([{ ...upsert, data: undefined }])],
  ['an upsert whose data is an array', page([{ ...upsert, data: [1] }])],
  ['an upsert whose data is null', page([{ ...upsert, data: null }])],
  ['an upsert without a version', page([{ ...upsert, version: undefined }])],
  ['a fractional version', page([{ ...upsert, version: 1.5 }])],
  ['a version as text', page([{ ...upsert, version: '3' }])],
  ['an infinite version', page([{ ...upsert, version: Infinity }])],
  ['an id that is a number', page([{ ...remove, id: 7 }])],
  ['a change that is no object', page(['x'])],
  ['a change that is null', page([null])],
  ['changes that are no array', { ...page([]), changes: {} }],
  ['no cursor', { ...page([]), cursor: undefined }],
  ['a cursor that is a number', page([], { cursor: 5 })],
  ['hasMore as text', page([], { hasMore: 'false' })],
  ['no reset', { ...page([]), reset: undefined }],
  ['an array body', [page([])]],
  ['null', null],
  ['a string', 'page'],
]

describe('readSyncPage', () => {
  it.each(cases)('agrees with the contract on %s', (_name, body) => {
    // JSON round trip: the page arrives parsed from text (undefined fields vanish as they would).
    const parsed: unknown = body === undefined ? undefined : JSON.parse(JSON.stringify(body) ?? 'null')
    const byHand = readSyncPage(parsed) !== undefined
    expect(byHand).toBe(SyncResponse.safeParse(parsed).success)
  })

  it('hands back the page as it came, without copying it', () => {
    const body = page([upsert, remove])
    expect(readSyncPage(body)).toBe(body)
  })

  it('accepts and refuses: the cases are not all of one kind', () => {
    const verdicts = cases.map(([, body]) => readSyncPage(JSON.parse(JSON.stringify(body) ?? 'null')) !== undefined)
    expect(verdicts.filter(Boolean).length).toBe(4)
  })
})
