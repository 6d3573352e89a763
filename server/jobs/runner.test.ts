import pino from 'pino'
import { describe, expect, it } from 'vitest'
import { WriteLock } from '../lib/write-lock'
import { JobRunner } from './runner'

/** A job run that ends when the test says so. */
function heldJob() {
  let release = () => {}
  const runs: string[] = []
  const job = {
    name: 'held',
    everyMs: 60_000,
    run: () =>
      new Promise<void>((resolve) => {
        runs.push('started')
        release = () => {
          runs.push('finished')
          resolve()
        }
      }),
  }
  return { job, runs, release: () => release() }
}

describe('JobRunner.stop (docs/decisions/0078)', () => {
  it('lets the run under way finish and resolves only then', async () => {
    const runner = new JobRunner({ lock: new WriteLock(true), log: pino({ level: 'silent' }) })
    const { job, runs, release } = heldJob()
    const running = runner.runNow(job)
    await expect.poll(() => runs).toEqual(['started'])
    let stopped = false
    const stopping = runner.stop().then(() => (stopped = true))
    await Promise.resolve()
    expect(stopped).toBe(false)
    release()
    await stopping
    await running
    expect(runs).toEqual(['started', 'finished'])
  })

  it('starts no run after it', async () => {
    const runner = new JobRunner({ lock: new WriteLock(true), log: pino({ level: 'silent' }) })
    const { job, runs } = heldJob()
    await runner.stop()
    await runner.runNow(job)
    expect(runs).toEqual([])
  })
})
