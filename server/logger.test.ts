import { describe, expect, it } from 'vitest'
import pino from 'pino'
import { BoundedLogStream, createLogger } from './logger'

/** An output like a pipe of `capacity` bytes whose reader reads only when told: EAGAIN when full. */
function pipe(capacity: number) {
  let held = 0
  const read: string[] = []
  let pending = ''
  return {
    write(chunk: Buffer): number {
      if (held >= capacity) throw Object.assign(new Error('EAGAIN: resource temporarily unavailable, write'), { code: 'EAGAIN' })
      const taken = Math.min(chunk.length, capacity - held)
      held += taken
      pending += chunk.subarray(0, taken).toString()
      return taken
    },
    /** The reader takes everything written so far; answers the complete lines. */
    drain(): string[] {
      held = 0
      const parts = pending.split('\n')
      pending = parts.pop()!
      read.push(...parts)
      return parts
    },
    read,
  }
}

describe('createLogger', () => {
  it('copies warnings and errors to the system log sink, not info', () => {
    const seen: unknown[][] = []
    const lines: string[] = []
    const log = createLogger('info', (...args) => seen.push(args), { write: (line: string) => void lines.push(line) })
    log.info('just info')
    log.warn({ jobId: 7 }, 'mail delivery failed')
    log.error(new Error('boom'), 'job failed')
    expect(seen).toEqual([
      ['WARN', 'mail delivery failed', { jobId: 7 }],
      ['ERROR', 'job failed', { name: 'Error', message: 'boom' }],
    ])
    expect(lines).toHaveLength(3)
  })

  it('gives the system log the request id of a child logger and what Vipps answered', () => {
    const seen: unknown[][] = []
    const log = createLogger('info', (...args) => seen.push(args), { write: () => {} })
    const refused = Object.assign(new Error('Unknown event types: x'), {
      name: 'VippsRejected',
      status: 422,
      problem: { detail: 'Unknown event types: x', extraDetails: [{ name: 'events' }] },
    })
    log.child({ requestId: 'req-1' }).warn({ err: new Error('refused', { cause: refused }), status: 422 }, 'POST /api/webhook/register/p answered 422')
    log.child({ job: 'billing' }).error(new Error('database is locked'))
    expect(seen).toEqual([
      [
        'WARN',
        'POST /api/webhook/register/p answered 422',
        {
          requestId: 'req-1',
          status: 422,
          err: {
            name: 'Error',
            message: 'refused',
            cause: {
              name: 'VippsRejected',
              message: 'Unknown event types: x',
              status: 422,
              problem: { detail: 'Unknown event types: x', extraDetails: [{ name: 'events' }] },
            },
          },
        },
      ],
      ['ERROR', 'database is locked', { job: 'billing', name: 'Error', message: 'database is locked' }],
    ])
  })

  it('writes to stdout through a bounded buffer unless given a destination', () => {
    const log = createLogger('info') as unknown as Record<symbol, unknown>
    const stream = log[pino.symbols.streamSym]
    expect(stream).toBeInstanceOf(BoundedLogStream)
    expect(stream).toMatchObject({ fd: 1, limitBytes: 1024 * 1024 })
  })
})

describe('BoundedLogStream (docs/decisions/0078)', () => {
  const line = (i: number) => JSON.stringify({ level: 30, i, msg: 'request' }) + '\n'

  it('writes each line as it comes while the output takes it', () => {
    const out = pipe(1 << 20)
    const stream = new BoundedLogStream({ write: out.write, retryLater: () => {} })
    for (let i = 0; i < 100; i++) stream.write(line(i))
    expect(stream.bufferedBytes).toBe(0)
    expect(out.drain().map((l) => (JSON.parse(l) as { i: number }).i)).toEqual([...Array(100).keys()])
    expect(stream.dropped).toBe(0)
  })

  it('drops lines with a count when the output stalls, never holds more than its limit, and says how many once it drains', () => {
    const out = pipe(1000)
    let retry: (() => void) | undefined
    const stream = new BoundedLogStream({ write: out.write, limitBytes: 4096, retryLater: (again) => (retry = again) })
    let peak = 0
    for (let i = 0; i < 3000; i++) {
      stream.write(line(i))
      peak = Math.max(peak, stream.bufferedBytes)
    }
    // The output took 1000 bytes, the buffer holds at most its limit, everything else was dropped and counted.
    expect(peak).toBeLessThanOrEqual(4096)
    expect(stream.peakBytes).toBe(peak)
    expect(stream.dropped).toBeGreaterThan(2800)
    const kept = 3000 - stream.dropped
    // The reader comes back: a retry writes what waited, then the line with the count.
    const seen: string[] = []
    while (retry) {
      const again = retry
      retry = undefined
      seen.push(...out.drain())
      again()
    }
    seen.push(...out.drain())
    const parsed = seen.map((l) => JSON.parse(l) as { i?: number; msg: string; dropped?: number })
    expect(parsed.slice(0, -1).map((l) => l.i)).toEqual([...Array(kept).keys()])
    expect(parsed.at(-1)).toMatchObject({ level: 40, msg: 'log lines dropped', dropped: stream.dropped })
    expect(stream.bufferedBytes).toBe(0)
    // Then lines are written again as they come.
    stream.write(line(3000))
    expect(out.drain().map((l) => (JSON.parse(l) as { i: number }).i)).toEqual([3000])
  })

  it('keeps dropping after a gap until everything before it is written, so the count stands where the gap is', () => {
    const out = pipe(100)
    let retry: (() => void) | undefined
    const stream = new BoundedLogStream({ write: out.write, limitBytes: 200, retryLater: (again) => (retry = again) })
    for (let i = 0; i < 20; i++) stream.write(line(i))
    const dropped = stream.dropped
    out.drain()
    // Room again, but the buffer has not been written out yet: still dropped.
    stream.write(line(20))
    expect(stream.dropped).toBe(dropped + 1)
    for (;;) {
      const again = retry
      retry = undefined
      if (!again) break
      out.drain()
      again()
    }
    out.drain()
    expect(JSON.parse(out.read.at(-1)!)).toMatchObject({ msg: 'log lines dropped', dropped: dropped + 1 })
  })

  it('gathers lines into batches and writes them on flush()', () => {
    const out = pipe(1 << 20)
    const stream = new BoundedLogStream({ write: out.write, batchBytes: 4096, retryLater: () => {} })
    stream.write(line(1))
    stream.write(line(2))
    expect(out.drain()).toEqual([])
    expect(stream.flush()).toBe(true)
    expect(out.drain()).toHaveLength(2)
  })

  it('drops everything once the output is gone (EPIPE), counting it', () => {
    const stream = new BoundedLogStream({
      write: () => {
        throw Object.assign(new Error('EPIPE: broken pipe, write'), { code: 'EPIPE' })
      },
    })
    for (let i = 0; i < 10; i++) stream.write(line(i))
    expect(stream.dropped).toBe(10)
    expect(stream.bufferedBytes).toBe(0)
  })

  it('gives up at exit what the output does not take, counting it as lost', () => {
    const out = pipe(50)
    const stream = new BoundedLogStream({ write: out.write, retryLater: () => {} })
    for (let i = 0; i < 10; i++) stream.write(line(i))
    stream.flushAtExit(0)
    expect(stream.lost).toBeGreaterThan(0)
    expect(stream.lost + out.drain().length).toBeLessThanOrEqual(10)
    expect(stream.bufferedBytes).toBe(0)
  })
})
