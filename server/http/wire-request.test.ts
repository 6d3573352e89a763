import { describe, expect, it } from 'vitest'
import { declaredWithin, markFromWire } from './wire-request'

const wire = (headers: Record<string, string>) => {
  const request = new Request('http://localhost/api/x', { method: 'PATCH', headers })
  markFromWire(request)
  return request
}

describe('declaredWithin', () => {
  it('trusts the headers only of a request off the socket', () => {
    expect(declaredWithin(wire({}), 10)).toBe(true)
    expect(declaredWithin(wire({ 'Content-Length': '10' }), 10)).toBe(true)
    // A request the app made itself (a batch item) may carry a body without Content-Length.
    expect(declaredWithin(new Request('http://localhost/api/x', { method: 'PATCH', body: 'x'.repeat(20) }), 10)).toBe(false)
  })

  it('leaves a longer, chunked or malformed length to the body limit', () => {
    expect(declaredWithin(wire({ 'Content-Length': '11' }), 10)).toBe(false)
    expect(declaredWithin(wire({ 'Transfer-Encoding': 'chunked' }), 10)).toBe(false)
    expect(declaredWithin(wire({ 'Content-Length': '1e1' }), 10)).toBe(false)
  })
})
