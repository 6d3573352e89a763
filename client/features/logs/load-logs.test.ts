import { describe, expect, it } from 'vitest'
import { contextText, mayHaveMore, previewOf } from './load-logs'

describe('log list helpers', () => {
  it('cuts a message to 100 characters and marks the cut', () => {
    const long = 'x'.repeat(150)
    expect(previewOf(long)).toBe(`${'x'.repeat(100)}…`)
    expect(previewOf('short')).toBe('short')
    expect(previewOf('y'.repeat(100))).toBe('y'.repeat(100))
  })
  it('offers more while the last page was full', () => {
    expect(mayHaveMore(new Array(50).fill(0))).toBe(true)
    expect(mayHaveMore(new Array(49).fill(0))).toBe(false)
  })
  it('shows the context as JSON', () => {
    expect(contextText({ a: 1 })).toBe('{"a":1}')
    expect(contextText(null)).toBe('')
    expect(contextText('plain')).toBe('plain')
  })
})
