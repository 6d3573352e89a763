import { describe, expect, it } from 'vitest'
import pino from 'pino'
import { createLogger } from './logger'

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

  it('writes to stdout asynchronously unless given a destination', () => {
    const log = createLogger('info') as unknown as Record<symbol, { sync: boolean; fd: number }>
    const stream = log[pino.symbols.streamSym]
    expect(stream).toMatchObject({ sync: false, fd: 1 })
  })
})
