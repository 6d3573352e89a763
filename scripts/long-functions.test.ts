import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { longFunctions, MAX_LINES } from './long-functions'

/** At most this many server functions may be longer than a screen (docs/ARCHITECTURE.md "Modules"). */
const MOST_LONG_FUNCTIONS = 5

describe('long functions', () => {
  it(`the server has at most ${MOST_LONG_FUNCTIONS} functions over ${MAX_LINES} lines outside tests`, () => {
    const found = longFunctions().map((f) => `${f.file}:${f.line} ${f.name} (${f.lines} lines)`)
    expect(found.length, `split these into named steps:\n${found.join('\n')}`).toBeLessThanOrEqual(MOST_LONG_FUNCTIONS)
  })

  it('counts a long function, a long method and a long callback by the name a reader looks for, and skips tests', () => {
    const dir = mkdtempSync(join(tmpdir(), 'long-functions-'))
    mkdirSync(join(dir, 'feature'))
    const body = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i}`).join('\n')
    writeFileSync(
      join(dir, 'feature', 'service.ts'),
      [
        `export function long() {\n${body(MAX_LINES)}\n}`,
        `export function short() {\n${body(MAX_LINES - 2)}\n}`,
        `export class Service {\n  method() {\n${body(MAX_LINES)}\n  }\n}`,
        `run(async () => {\n${body(MAX_LINES)}\n})`,
      ].join('\n'),
    )
    writeFileSync(join(dir, 'feature', 'service.test.ts'), `export function longTest() {\n${body(MAX_LINES)}\n}`)
    const names = longFunctions(dir).map((f) => f.name)
    expect(names.sort()).toEqual(['(given to run)', 'long', 'method'])
  })
})
