import { describe, expect, it } from 'vitest'
import { spawn, spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

describe('createLogger to stdout (asynchronous; batched with batchedStdout)', () => {
  it.each(["createLogger('info')", "createLogger('info', undefined, batchedStdout())"])(
    'loses no line when the process exits right after logging: %s',
    (make) => {
      const logger = fileURLToPath(new URL('./logger.ts', import.meta.url))
      // 5,000 lines (about 400 KB) are far more than one asynchronous write takes before exit.
      const script = `import { batchedStdout, createLogger } from ${JSON.stringify(logger)}
const log = ${make}
for (let i = 0; i < 5000; i++) log.info({ i }, 'line')
process.exit(0)`
      const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 })
      expect(child.status, child.stderr).toBe(0)
      const lines = child.stdout.trim().split('\n')
      expect(lines).toHaveLength(5000)
      expect(JSON.parse(lines.at(-1)!)).toMatchObject({ i: 4999, msg: 'line' })
    },
  )

  it('writes an error line at once: a process killed right after (no exit event) still shows it', () => {
    const logger = fileURLToPath(new URL('./logger.ts', import.meta.url))
    // SIGKILL (the out-of-memory killer, a supervisor giving up) runs no exit handler: only what
    // was written before it is kept. 100 ms is far less than the 500 ms flush timer.
    const script = `import { batchedStdout, createLogger } from ${JSON.stringify(logger)}
const log = createLogger('info', undefined, batchedStdout())
log.info({ order: 1 }, 'before')
log.error({ order: 2 }, 'the error that matters')
setTimeout(() => process.kill(process.pid, 'SIGKILL'), 100)`
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' })
    expect(child.signal).toBe('SIGKILL')
    const lines = child.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { order: number })
    expect(lines.map((l) => l.order)).toEqual([1, 2])
  })

  it("shows a quiet server's last line soon, though lines are written in batches", async () => {
    const logger = fileURLToPath(new URL('./logger.ts', import.meta.url))
    // One short line, far below a batch; the process stays alive until it is killed (a timer keeps it running).
    const script = `import { batchedStdout, createLogger } from ${JSON.stringify(logger)}
createLogger('info', undefined, batchedStdout()).info({ order: 1 }, 'one line')
setInterval(() => undefined, 1000)`
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] })
    try {
      // Without the flush timer the line would only be written when the process exits, which it
      // does not: the line never comes, and the test's timeout (a guard, not a speed limit) fails it.
      const text = await new Promise<string>((ok, fail) => {
        child.stdout.setEncoding('utf8')
        child.stdout.once('data', ok)
        child.once('exit', () => fail(new Error('exited before logging')))
      })
      expect(JSON.parse(text)).toMatchObject({ order: 1, msg: 'one line' })
    } finally {
      child.kill('SIGKILL')
    }
  }, 60_000)
})
