import { describe, expect, it } from 'vitest'
import { toPositional } from './statement'

describe('toPositional', () => {
  it('numbers ? placeholders outside quotes', () => {
    expect(toPositional(`SELECT "a?" FROM t WHERE x = ? AND y = 'it''s ?' AND z = ?`, [1, 2])).toEqual({
      text: `SELECT "a?" FROM t WHERE x = $1 AND y = 'it''s ?' AND z = $2`,
      values: [1, 2],
    })
  })
  it('numbers @names once each, in order of first use, leaving casts and quoted @ alone', () => {
    expect(toPositional(`SELECT @b::json, '@a' FROM t WHERE a = @a OR b = @b`, { a: 1, b: 'x' })).toEqual({
      text: `SELECT $1::json, '@a' FROM t WHERE a = $2 OR b = $1`,
      values: ['x', 1],
    })
  })
  it('refuses a name it was not given', () => {
    expect(() => toPositional('SELECT @missing', {})).toThrow(/@missing/)
  })
})
