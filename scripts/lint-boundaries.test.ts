/**
 * The layering in eslint.config.js holds, and so do the rules for tests: each rule is shown a
 * deliberate violation (and a clean neighbour) through ESLint's own API, with the repository's
 * config, as `npm run lint` sees it.
 */
import { resolve } from 'node:path'
import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

const root = resolve(import.meta.dirname, '..')
// The type-aware rules need files the TypeScript project knows; the made-up files here are not on
// disk, and the layering rules these tests show need no types.
const eslint = new ESLint({
  cwd: root,
  overrideConfig: {
    languageOptions: { parserOptions: { projectService: false } },
    rules: { '@typescript-eslint/no-floating-promises': 'off', '@typescript-eslint/no-misused-promises': 'off' },
  },
})

async function problems(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: resolve(root, file) })
  return result!.messages.map((m) => `${m.ruleId}: ${m.message}`)
}

describe('lint boundaries (docs/ARCHITECTURE.md "Layers")', () => {
  it('shared imports neither the server nor the client', async () => {
    expect(await problems('shared/domain/x.ts', "import { clock } from '../../server/lib/clock'\nexport const y = clock\n")).toEqual([
      expect.stringMatching(/^no-restricted-imports: .*shared\/ is imported by the server and the client/),
    ])
    expect(await problems('shared/domain/x.ts', "import { formatKroner } from './money'\nexport const y = formatKroner\n")).toEqual([])
  })

  it('the client never imports the server', async () => {
    expect(await problems('client/features/x/y.ts', "import { messages } from '../../../server/errors'\nexport const z = messages\n")).toEqual([
      expect.stringMatching(/^no-restricted-imports: .*client\/ never imports server\//),
    ])
  })

  it("a feature uses another feature's service, never its repository", async () => {
    expect(
      await problems('server/features/billing/x.ts', "import { usersRepository } from '../users/users.repository'\nexport const z = usersRepository\n"),
    ).toEqual([
      expect.stringMatching(/^no-restricted-imports: .*Use the other feature's service/),
      // And it is another feature's inner file (scripts/lint-rules.test.ts).
      expect.stringMatching(/^import-x\/no-restricted-paths: /),
    ])
    expect(
      await problems('server/features/billing/x.ts', "import { billingStatements } from './billing.repository'\nexport const z = billingStatements\n"),
    ).toEqual([])
  })

  it('only client/sync touches the outbox table', async () => {
    const code = 'export const pending = (db: { outbox: { count(): number } }) => db.outbox.count()\n'
    expect(await problems('client/features/x/use-x.ts', code)).toEqual([expect.stringMatching(/^no-restricted-syntax: Only client\/sync touches the outbox/)])
    expect(await problems('client/sync/x.ts', code)).toEqual([])
  })

  it('components call a hook or a mutation module, not api()', async () => {
    const code = "import { api } from '../../lib/api'\nexport const X = () => api\n"
    expect(await problems('client/features/x/X.tsx', code)).toEqual([expect.stringMatching(/^no-restricted-imports: .*Components call a hook/)])
    expect(await problems('client/features/x/x-actions.ts', code)).toEqual([])
  })

  it('tests keep no wall clock and wait for states (docs/ARCHITECTURE.md "Tests")', async () => {
    const timed = "import { expect, it } from 'vitest'\nit('x', () => {\n  const t = performance.now()\n  expect(performance.now() - t).toBeLessThan(5)\n})\n"
    expect(await problems('server/features/x/x.test.ts', timed)).toEqual([
      expect.stringMatching(/^no-restricted-syntax: No wall clock in tests/),
      expect.stringMatching(/^no-restricted-syntax: No wall clock in tests/),
    ])
    expect(await problems('server/features/x/x.ts', timed)).toEqual([])
    const waited = "import { expect, it, vi } from 'vitest'\nit('x', async () => {\n  await vi.waitFor(() => expect(1).toBe(1))\n})\n"
    expect(await problems('client/sync/x.test.ts', waited)).toEqual([expect.stringMatching(/^no-restricted-syntax: vi.waitFor gives up after 1 s/)])
    expect(await problems('client/sync/x.test.ts', waited.replace('toBe(1))', 'toBe(1), { timeout: 30_000 })'))).toEqual([])
    const slept = "import type { Page } from 'playwright-core'\nexport const step = async (page: Page) => {\n  await page.waitForTimeout(800)\n}\n"
    expect(await problems('e2e/x.e2e.ts', slept)).toEqual([expect.stringMatching(/^no-restricted-syntax: A journey waits for a state/)])
    expect(await problems('e2e/x.e2e.ts', slept.replace('page.waitForTimeout(800)', "page.getByRole('heading').waitFor()"))).toEqual([])
  })
})
