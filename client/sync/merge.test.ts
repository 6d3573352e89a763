import { describe, expect, it } from 'vitest'
import { mergeEdit, same, type MergeFieldSpec } from './merge'

const fields: MergeFieldSpec[] = [{ name: 'date' }, { name: 'period' }, { name: 'parts', list: true }]

const part = (id: string, description: string, price = 45000, type = 'HEAT') => ({ id, type, description, price, vatRate: 0 })

describe('same', () => {
  it('compares JSON deeply, key order aside, and takes null and undefined as no value', () => {
    expect(same({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 })).toBe(true)
    expect(same([1, 2], [2, 1])).toBe(false)
    expect(same(null, undefined)).toBe(true)
    expect(same({ a: null }, {})).toBe(true)
    expect(same(0, null)).toBe(false)
    expect(same('1', 1)).toBe(false)
  })
})

describe('mergeEdit: plain fields', () => {
  const base = { date: '2026-01-01', period: 'MONTHLY' }

  it('keeps a field only I changed, and sends it', () => {
    const r = mergeEdit(fields, base, { date: '2026-02-01' }, { date: '2026-01-01', period: 'MONTHLY' })
    expect(r.conflicts).toEqual([])
    expect(r.values).toEqual({ date: '2026-02-01' })
    expect(r.changed).toEqual(['date'])
  })

  it("takes the server's value of a field only the server changed, without a question and without sending it", () => {
    // An old full-body edit that sends the date unchanged: the server's new date wins.
    const r = mergeEdit(fields, base, { date: '2026-01-01', period: 'YEARLY' }, { date: '2026-03-01', period: 'MONTHLY' })
    expect(r.conflicts).toEqual([])
    expect(r.values).toEqual({ date: '2026-03-01', period: 'YEARLY' })
    expect(r.changed).toEqual(['period'])
  })

  it('fields I did not send are not touched at all', () => {
    const r = mergeEdit(fields, base, { period: 'YEARLY' }, { date: '2026-03-01', period: 'MONTHLY' })
    expect(r.values).toEqual({ period: 'YEARLY' })
    expect(r.changed).toEqual(['period'])
  })

  it('both changed to the same value: no conflict and nothing left to send', () => {
    const r = mergeEdit(fields, base, { date: '2026-05-01' }, { date: '2026-05-01', period: 'MONTHLY' })
    expect(r.conflicts).toEqual([])
    expect(r.changed).toEqual([])
  })

  it('both changed differently: a conflict, resolved by the choice', () => {
    const server = { date: '2026-04-01', period: 'MONTHLY' }
    const r = mergeEdit(fields, base, { date: '2026-02-01' }, server)
    expect(r.conflicts).toEqual([{ key: 'date', field: 'date', mine: '2026-02-01', server: '2026-04-01', base: '2026-01-01' }])
    expect(r.unresolved).toHaveLength(1)
    // Undecided, the server's value stands.
    expect(r.changed).toEqual([])

    const mine = mergeEdit(fields, base, { date: '2026-02-01' }, server, { date: 'mine' })
    expect(mine.unresolved).toEqual([])
    expect(mine.values).toEqual({ date: '2026-02-01' })
    expect(mine.changed).toEqual(['date'])

    const theirs = mergeEdit(fields, base, { date: '2026-02-01' }, server, { date: 'server' })
    expect(theirs.unresolved).toEqual([])
    expect(theirs.changed).toEqual([])
  })

  it('without a recorded base (an edit queued by an older version) every difference is a conflict', () => {
    const r = mergeEdit(fields, undefined, { date: '2026-02-01', period: 'MONTHLY' }, { date: '2026-04-01', period: 'MONTHLY' })
    expect(r.conflicts.map((c) => c.key)).toEqual(['date'])
  })

  it('a field cleared on one side (null) is a change like any other', () => {
    const r = mergeEdit([{ name: 'acronym' }], { acronym: 'SG' }, { acronym: null }, { acronym: 'SG' })
    expect(r.values).toEqual({ acronym: null })
    expect(r.changed).toEqual(['acronym'])
  })
})

describe('mergeEdit: lists by id', () => {
  const base = { parts: [part('a', 'Heating'), part('b', 'Fee', 10000, 'FEE')] }

  it('my edit of one part and the server edit of another both stay', () => {
    const mine = { parts: [part('a', 'Heating 2026'), part('b', 'Fee', 10000, 'FEE')] }
    const server = { parts: [part('a', 'Heating'), part('b', 'Fee', 12000, 'FEE')] }
    const r = mergeEdit(fields, base, mine, server)
    expect(r.conflicts).toEqual([])
    expect(r.values.parts).toEqual([part('a', 'Heating 2026'), part('b', 'Fee', 12000, 'FEE')])
    expect(r.changed).toEqual(['parts'])
  })

  it('different properties of the same part changed on each side merge without a question', () => {
    const mine = { parts: [part('a', 'Heating 2026'), part('b', 'Fee', 10000, 'FEE')] }
    const server = { parts: [part('a', 'Heating', 50000), part('b', 'Fee', 10000, 'FEE')] }
    const r = mergeEdit(fields, base, mine, server)
    expect(r.conflicts).toEqual([])
    expect(r.values.parts).toEqual([part('a', 'Heating 2026', 50000), part('b', 'Fee', 10000, 'FEE')])
  })

  it('parts added on either side are kept, server order first, then mine', () => {
    const mine = { parts: [...base.parts, part('m', 'Mine', 100, 'OTHER')] }
    const server = { parts: [...base.parts, part('s', 'Theirs', 200, 'OTHER')] }
    const r = mergeEdit(fields, base, mine, server)
    expect(r.conflicts).toEqual([])
    expect((r.values.parts as { id: string }[]).map((p) => p.id)).toEqual(['a', 'b', 's', 'm'])
  })

  it('a part removed on one side and untouched on the other is removed', () => {
    const mineRemoves = mergeEdit(fields, base, { parts: [base.parts[0]] }, base)
    expect((mineRemoves.values.parts as { id: string }[]).map((p) => p.id)).toEqual(['a'])
    expect(mineRemoves.changed).toEqual(['parts'])

    const serverRemoves = mergeEdit(fields, base, { parts: [part('a', 'Heating 2026'), base.parts[1]] }, { parts: [base.parts[0]] })
    expect(serverRemoves.conflicts).toEqual([])
    expect(serverRemoves.values.parts).toEqual([part('a', 'Heating 2026')])
  })

  it('parts without an id (new on my side) are added', () => {
    const r = mergeEdit(fields, base, { parts: [...base.parts, { type: 'OTHER', description: 'New', price: 5 }] }, base)
    expect(r.values.parts).toHaveLength(3)
  })

  it('the same property of the same part changed differently: one conflict for that part, each side with the other merged changes', () => {
    const mine = { parts: [part('a', 'Heating 2026'), part('b', 'Fee', 10000, 'FEE')] }
    const server = { parts: [{ ...part('a', 'Heat', 47000) }, part('b', 'Fee', 11000, 'FEE')] }
    const r = mergeEdit(fields, base, mine, server)
    expect(r.conflicts).toEqual([
      { key: 'parts:a', field: 'parts', itemId: 'a', mine: part('a', 'Heating 2026', 47000), server: part('a', 'Heat', 47000), base: part('a', 'Heating') },
    ])
    const chosen = mergeEdit(fields, base, mine, server, { 'parts:a': 'mine' })
    expect(chosen.unresolved).toEqual([])
    expect(chosen.values.parts).toEqual([part('a', 'Heating 2026', 47000), part('b', 'Fee', 11000, 'FEE')])
    const theirs = mergeEdit(fields, base, mine, server, { 'parts:a': 'server' })
    expect(theirs.changed).toEqual([])
  })

  it('a part removed on one side and edited on the other is a conflict; choosing the removal removes it', () => {
    const mine = { parts: [base.parts[1]] }
    const server = { parts: [part('a', 'Heat'), base.parts[1]] }
    const r = mergeEdit(fields, base, mine, server)
    expect(r.conflicts).toEqual([{ key: 'parts:a', field: 'parts', itemId: 'a', mine: undefined, server: part('a', 'Heat'), base: part('a', 'Heating') }])
    const removed = mergeEdit(fields, base, mine, server, { 'parts:a': 'mine' })
    expect(removed.values.parts).toEqual([base.parts[1]])
  })

  it('a part I edited that the server removed is a conflict too', () => {
    const r = mergeEdit(fields, base, { parts: [part('a', 'Heating 2026'), base.parts[1]] }, { parts: [base.parts[1]] })
    expect(r.conflicts.map((c) => [c.key, c.server])).toEqual([['parts:a', undefined]])
  })

  it('without a base, a list merges only where both sides agree', () => {
    const r = mergeEdit(fields, undefined, { parts: [part('a', 'Heating 2026'), base.parts[1]] }, base)
    expect(r.conflicts.map((c) => c.key)).toEqual(['parts:a'])
  })
})
