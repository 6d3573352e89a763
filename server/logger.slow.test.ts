import { describe, expect, it } from 'vitest'
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

describe('createLogger without a destination (asynchronous stdout)', () => {
  it('loses no line when the process exits right after logging', () => {
    const logger = fileURLToPath(new URL('./logger.ts', import.meta.url))
    // 5,000 lines (about 400 KB) are far more than one asynchronous write takes before exit.
    const script = `import { createLogger } from ${JSON.stringify(logger)}
const log = createLogger('info')
for (let i = 0; i < 5000; i++) log.info({ i }, 'line')
process.exit(0)`
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 })
    expect(child.status, child.stderr).toBe(0)
    const lines = child.stdout.trim().split('\n')
    expect(lines).toHaveLength(5000)
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ i: 4999, msg: 'line' })
  })
})
