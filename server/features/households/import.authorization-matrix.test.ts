import { describe, expect, it } from 'vitest'
import { testApp } from '../../test/harness'
import { callers, documentedRoutes, walkMatrix, type MatrixRow } from '../../test/authorization'
import { companyIds } from '../companies/test-helpers'
import { csvOf, DANISH } from './import-test-helpers'

/**
 * Who may call the household import's routes (docs/decisions/0092): one row per route and
 * association, one column per caller (server/test/authorization.ts). `o` allowed, `3` 403, `4` 404
 * (another association is never revealed; the association's residents do not see its staff routes),
 * `1` 401. The import runs as a dry run and for real.
 */
type Ctx = { main: string; second: string }

/** The Danish sheet as the browser uploads it (multipart, one `file`). */
const sheet = () => {
  const form = new FormData()
  form.set('file', new File([csvOf(DANISH) as unknown as ArrayBuffer], 'husstande.csv'))
  return form
}

//                                                                                                          S C A K B R N O -
const table: MatrixRow<Ctx>[] = [
  ['GET', '/companies/{id}/import/template', (c) => `/companies/${c.main}/import/template`, 'oooo34441'],
  ['GET', '/companies/{id}/import/template', (c) => `/companies/${c.second}/import/template`, 'o444444o1'],
  ['POST', '/companies/{id}/import', (c) => `/companies/${c.main}/import?dryRun=true`, 'oooo34441', sheet],
  ['POST', '/companies/{id}/import', (c) => `/companies/${c.second}/import?dryRun=true`, 'o444444o1', sheet],
  ['POST', '/companies/{id}/import', (c) => `/companies/${c.main}/import`, 'oooo34441', sheet],
  ['POST', '/companies/{id}/import', (c) => `/companies/${c.second}/import`, 'o444444o1', sheet],
]

describe('authorization matrix (household import)', () => {
  it.each(callers.map((caller) => [caller] as const))('%s', async (caller) => {
    const t = await testApp()
    const { want, got } = await walkMatrix(t, table, await companyIds(t), caller)
    expect(got).toEqual(want)
  })

  it('has a row for every import route the API documents', async () => {
    const t = await testApp()
    const documented = await documentedRoutes(t, '/companies/{id}/import')
    expect(new Set(table.map(([m, r]) => `${m} ${r}`))).toEqual(documented)
  })
})
