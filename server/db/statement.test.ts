import { describe, expect, it } from 'vitest'
import { postgresText } from './statement'

describe('postgresText', () => {
  it('numbers ? placeholders outside quotes, once; a run only lines its values up', () => {
    const made = postgresText(`SELECT "a?" FROM t WHERE x = ? AND y = 'it''s ?' AND z = ?`)
    expect(made.text).toBe(`SELECT "a?" FROM t WHERE x = $1 AND y = 'it''s ?' AND z = $2`)
    expect(made.values([1, 2])).toEqual([1, 2])
    expect(made.values([3, 4])).toEqual([3, 4])
  })
  it('numbers @names once each, in order of first use, leaving casts and quoted @ alone', () => {
    const made = postgresText(`SELECT @b::json, '@a' FROM t WHERE a = @a OR b = @b`)
    expect(made.text).toBe(`SELECT $1::json, '@a' FROM t WHERE a = $2 OR b = $1`)
    expect(made.values({ a: 1, b: 'x', unused: true })).toEqual(['x', 1])
  })
  it('refuses a name it was not given, values of the wrong kind, and both kinds of placeholder in one text', () => {
    expect(() => postgresText('SELECT @missing').values({})).toThrow(/@missing/)
    expect(() => postgresText('SELECT @a').values(['x'])).toThrow(/@a/)
    expect(() => postgresText('SELECT ?').values({ a: 1 })).toThrow(/array/)
    expect(() => postgresText('SELECT ? WHERE a = @a')).toThrow(/both/)
  })
  it('takes no values for a text without placeholders', () => {
    expect(postgresText('SELECT 1').values([])).toEqual([])
  })
})
