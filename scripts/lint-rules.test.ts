/**
 * The modules hold (docs/ARCHITECTURE.md "Layers", docs/decisions/0077): each rule of
 * eslint.config.js that keeps the server's features apart is shown a deliberate violation, and a
 * clean neighbour, through ESLint's own API with the repository's config, as `npm run lint` sees it.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

const root = resolve(import.meta.dirname, '..')
// The type-aware rules need files the TypeScript project knows; the made-up files here are not all
// on disk, and the module rules these tests show need no types.
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

describe('the modules hold (docs/ARCHITECTURE.md "Layers")', () => {
  it('a feature reaches another only through its entry', async () => {
    expect(
      await problems(
        'server/features/market/x.ts',
        "import { assertCompanyInScope } from '../companies/company-scope'\nexport const z = assertCompanyInScope\n",
      ),
    ).toEqual([expect.stringMatching(/^import-x\/no-restricted-paths: .*Import the feature through its entry, '\.\.\/companies'/)])
    // Type-only imports count too: the entry exports the types other features use.
    expect(
      await problems(
        'server/features/market/x.ts',
        "import type { CompaniesService } from '../companies/companies.service'\nexport type Z = CompaniesService\n",
      ),
    ).toEqual([expect.stringMatching(/^import-x\/no-restricted-paths: .*through its entry/)])
    expect(
      await problems(
        'server/features/market/x.ts',
        "import { assertCompanyInScope, type CompaniesService } from '../companies'\nexport const z = assertCompanyInScope\nexport type Z = CompaniesService\n",
      ),
    ).toEqual([])
    // Its own inner files, and tests, may.
    expect(
      await problems('server/features/companies/x.ts', "import { assertCompanyInScope } from './company-scope'\nexport const z = assertCompanyInScope\n"),
    ).toEqual([])
    expect(
      await problems(
        'server/features/market/x.test.ts',
        "import { assertCompanyInScope } from '../companies/company-scope'\nexport const z = assertCompanyInScope\n",
      ),
    ).toEqual([])
  })

  it("a feature imports only its own module's tables", async () => {
    expect(await problems('server/features/market/x.ts', "import { users } from '../../db/schema/users'\nexport const z = users\n")).toEqual([
      expect.stringMatching(/^import-x\/no-restricted-paths: .*These tables belong to users/),
    ])
    expect(await problems('server/features/market/x.ts', "import { marketListings } from '../../db/schema/market'\nexport const z = marketListings\n")).toEqual(
      [],
    )
  })

  it('no import cycle runs through the server; type-only imports make none', async () => {
    // The cycle rule reads the imported files from disk, so the probe is two real files.
    const probe = `server/features/__lint_probe_${process.pid}__`
    const dir = resolve(root, probe)
    mkdirSync(dir, { recursive: true })
    try {
      writeFileSync(resolve(dir, 'a.ts'), "import { b } from './b'\nexport const a = (): number => b() + 1\n")
      writeFileSync(resolve(dir, 'b.ts'), "import { a } from './a'\nexport const b = (): number => a() - 1\n")
      writeFileSync(resolve(dir, 'c.ts'), "import type { D } from './d'\nexport interface C {\n  d?: D\n}\n")
      writeFileSync(resolve(dir, 'd.ts'), "import type { C } from './c'\nexport interface D {\n  c?: C\n}\n")
      const [a, c] = await eslint.lintFiles([`${probe}/a.ts`, `${probe}/c.ts`])
      expect(a!.messages.map((m) => m.ruleId)).toEqual(['import-x/no-cycle'])
      expect(c!.messages).toEqual([])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
