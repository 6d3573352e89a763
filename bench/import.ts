/**
 * The household import (decision 0092), part `import` of `npm run bench` (bench/run.ts) or alone:
 * `node --import tsx bench/import.ts`. The tests hold what is correct (every row by row and column,
 * all or nothing, a second import changes nothing); how long it takes is a figure here: a CSV as
 * Danish Excel saves it, of 500 households with 800 residents, posted to the demo association of the
 * server `npm start` runs, in one request and one transaction — target ≤ 10 s; each payer's row has
 * rent and on-account amounts, so the 500 agreements it creates (decision 0093) are measured too. The addresses are the
 * 420 dwellings of the shipped address register and 80 that the association already has (so both
 * ways an address is matched are in it). Baselines in the same run: the dry run of the same file
 * (everything but the writes), and the same file again (every row unchanged).
 */
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { v7 } from 'uuid'
import { DEMO_PASSWORD, startServer, type RunningServer } from '../e2e/harness'
import { addressKey } from '../shared/domain/address'
import { csvOf, DANISH } from '../server/features/households/import-test-helpers'
import registerSample from '../server/integrations/addresses/builtin-addresses.json'
import { atMost, finish, runPart } from './report'
import { count, size } from './scale'

const HOUSEHOLDS = size(500, 50)
/** Households with a second resident: 800 residents in all at full size. */
const COUPLES = size(300, 30)
const FROM_REGISTER = Math.min(registerSample.length, HOUSEHOLDS - HOUSEHOLDS / 5)

interface Dwelling {
  street: string
  number: string
  floor: string | null
  side: string | null
  zip: string
  city: string
}

/** The dwellings of the file: from the register, then ones added to the association's own addresses first. */
function dwellings(server: RunningServer, companyId: string): Dwelling[] {
  const fromRegister: Dwelling[] = registerSample.slice(0, FROM_REGISTER).map((a) => ({ ...a }))
  const own: Dwelling[] = Array.from({ length: HOUSEHOLDS - FROM_REGISTER }, (_, i) => ({
    street: 'Importvej',
    number: String(i + 1),
    floor: String(i % 5),
    side: 'tv',
    zip: '8000',
    city: 'Aarhus C',
  }))
  const db = new Database(join(server.dir, 'app.db'))
  db.pragma('busy_timeout = 30000')
  const insert = db.prepare(
    "INSERT INTO addresses (id, company_id, street, number, floor, side, zip, city, country, address_key, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'Denmark', ?, ?)",
  )
  db.transaction(() => {
    for (const d of own) insert.run(v7(), companyId, d.street, d.number, d.floor, d.side, d.zip, d.city, addressKey(d), new Date().toISOString())
  })()
  db.close()
  return [...fromRegister, ...own]
}

function sheet(homes: Dwelling[]): Uint8Array {
  const rows: string[][] = [DANISH[0]!]
  homes.forEach((d, i) => {
    const household = [`H-${i}`, d.street, d.number, d.floor ?? '', d.side ?? '', d.zip, d.city, 'Lejlighed', '74,5', '1,25']
    rows.push([...household, `Beboer ${i}`, `beboer-${i}@import.example.dk`, '01-02-2024', 'Ejer', 'Ja', '4.250,00', '600,00', '250,00'])
    if (i < COUPLES) rows.push([...household, `Partner ${i}`, `partner-${i}@import.example.dk`, '01-02-2024', 'Ejer', 'Nej', '', '', ''])
  })
  return csvOf(rows)
}

export async function importBenchmark(): Promise<void> {
  const server = await startServer({ LOG_LEVEL: 'error' })
  try {
    const db = new Database(join(server.dir, 'app.db'), { readonly: true })
    const companyId = db.prepare("SELECT id FROM companies WHERE acronym = 'ABF Solgården'").pluck().get() as string
    db.close()
    const file = sheet(dwellings(server, companyId))
    const login = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ type: 'email', email: 'admin@solgaarden.dk', password: DEMO_PASSWORD }),
    })
    const { accessToken } = (await login.json()) as { accessToken: string }
    const post = async (query: string) => {
      const form = new FormData()
      form.set('file', new File([file as unknown as ArrayBuffer], 'husstande.csv'))
      const t0 = performance.now()
      const res = await fetch(`${server.url}/api/companies/${companyId}/import${query}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${accessToken}`, 'Accept-Language': 'da', 'Idempotency-Key': v7() },
        body: form,
      })
      const body = (await res.json()) as { counts?: Record<string, number>; agreements?: { NEW: number; EXISTING: number } }
      const ms = performance.now() - t0
      if (!res.ok) throw new Error(`import${query}: ${res.status} ${JSON.stringify(body).slice(0, 400)}`)
      return { ms, counts: body.counts ?? {}, agreements: body.agreements ?? { NEW: 0, EXISTING: 0 } }
    }
    const residents = HOUSEHOLDS + COUPLES
    const dry = await post('?dryRun=true')
    const first = await post('')
    // A household at an address the association has is there already (every address is one, decision 0090): its rows update it.
    if (first.counts.ERROR || (first.counts.NEW ?? 0) + (first.counts.UPDATE ?? 0) !== residents)
      throw new Error(`the import said ${JSON.stringify(first.counts)} for ${residents} rows`)
    // Every household's payer has amounts: an agreement each, unless one runs at the address already (decision 0093).
    if (first.agreements.NEW + first.agreements.EXISTING !== HOUSEHOLDS || first.agreements.NEW === 0)
      throw new Error(`the import made ${JSON.stringify(first.agreements)} agreements for ${HOUSEHOLDS} households`)
    const again = await post('')
    if (again.agreements.NEW !== 0) throw new Error(`the second import made ${again.agreements.NEW} agreements`)
    if (again.counts.UNCHANGED !== residents) throw new Error(`the second import said ${JSON.stringify(again.counts)}`)
    atMost(
      'import-households',
      `import of ${count(HOUSEHOLDS)} households with ${count(residents)} residents and their agreements from a CSV (one request, one transaction)`,
      first.ms,
      'ms',
      10_000,
      `dry run of the same file ${dry.ms.toFixed(0)} ms; the same file again, nothing to change, ${again.ms.toFixed(0)} ms`,
    )
  } finally {
    await server.stop()
    rmSync(server.dir, { recursive: true, force: true })
  }
}

if (process.argv[1]?.endsWith('bench/import.ts')) {
  await runPart('import', importBenchmark)
  finish()
}
