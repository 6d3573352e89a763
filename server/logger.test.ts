import { describe, expect, it } from 'vitest'
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
})
