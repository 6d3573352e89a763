import { describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import * as XLSX from 'xlsx'
import { demo, testApp } from '../../test/harness'
import { householdResidents, households } from '../../db/schema/households'
import { addresses } from '../../db/schema/companies'
import { users } from '../../db/schema/users'
import { companyIds } from '../companies/test-helpers'
import { csvOf, DANISH, importFile } from './import-test-helpers'

async function setup() {
  const t = await testApp()
  const { main, second } = await companyIds(t)
  return { t, main, second, admin: await t.login(demo.admin) }
}

const count = async (t: Awaited<ReturnType<typeof testApp>>, companyId: string) => ({
  addresses: (await t.db.select().from(addresses).where(eq(addresses.companyId, companyId)).all()).length,
  households: (await t.db.select().from(households).where(eq(households.companyId, companyId)).all()).length,
  residents: (await t.db.select().from(householdResidents).where(eq(householdResidents.companyId, companyId)).all()).length,
})

describe('household import (docs/decisions/0092)', () => {
  it('a dry run with Danish headers and decimals reports each row and writes nothing', async () => {
    const { t, main, admin } = await setup()
    const before = await count(t, main)
    const res = await importFile(t, admin, main, csvOf(DANISH), '?dryRun=true')
    expect(res.status, JSON.stringify(res.json)).toBe(200)
    expect(res.json.problems).toEqual([])
    expect(res.json.rows.map((r: { row: number; outcome: string }) => `${r.row} ${r.outcome}`)).toEqual(['2 NEW', '3 NEW', '4 NEW'])
    expect(res.json).toMatchObject({ dryRun: true, imported: false, counts: { NEW: 3, UPDATE: 0, UNCHANGED: 0, ERROR: 0 } })
    expect(await count(t, main)).toEqual(before)
  })

  it('imports, and the same file again changes nothing', async () => {
    const { t, main, admin } = await setup()
    const before = await count(t, main)
    const first = await importFile(t, admin, main, csvOf(DANISH))
    expect(first.status, JSON.stringify(first.json)).toBe(200)
    expect(first.json).toMatchObject({ imported: true, counts: { NEW: 3 } })
    expect(await count(t, main)).toEqual({ addresses: before.addresses + 2, households: before.households + 2, residents: before.residents + 3 })
    const household = first.json.rows[0].householdId
    const got = await t.call('GET', `/households/${household}`, { token: admin })
    expect(got.json).toMatchObject({ externalId: 'A-1', area: '74.5', allocation: '1.25', type: 'APARTMENT' })
    expect(got.json.residents.map((r: { fullName: string; isPayer: boolean; moveInDate: string }) => [r.fullName, r.isPayer, r.moveInDate])).toEqual([
      ['Karen Holm', true, '2024-02-01'],
      ['Jens Holm', false, '2024-02-01'],
    ])
    // The residents are users who are not signed in and not invited.
    const karen = (await t.db.select().from(users).where(eq(users.emailAddress, 'karen.holm@example.dk')).get())!
    expect(karen.fullName).toBe('Karen Holm')

    const again = await importFile(t, admin, main, csvOf(DANISH))
    expect(again.json).toMatchObject({ imported: true, counts: { NEW: 0, UPDATE: 0, UNCHANGED: 3, ERROR: 0 } })
    expect(await count(t, main)).toEqual({ addresses: before.addresses + 2, households: before.households + 2, residents: before.residents + 3 })
    const same = await t.call('GET', `/households/${household}`, { token: admin })
    expect(same.json.version).toBe(got.json.version)

    // A changed figure and a new resident update the household.
    const changed = DANISH.map((r) => [...r])
    changed[1]![8] = '80'
    changed.push(['A-2', 'Lærkevej', '78', '3', 'tv', '2620', 'Albertslund', '', '', '', 'Ole Lund', 'ole.lund@example.dk', '01-01-2025', 'Lejer', ''])
    const third = await importFile(t, admin, main, csvOf(changed, ',', false))
    expect(third.json.rows.map((r: { outcome: string }) => r.outcome)).toEqual(['UPDATE', 'UPDATE', 'UNCHANGED', 'UPDATE'])
  })

  it('reports every problem by row and column in the caller’s language, and imports nothing (all or nothing)', async () => {
    const { t, main, admin } = await setup()
    const before = await count(t, main)
    const bad = DANISH.map((r) => [...r])
    bad[2]![12] = '31-02-2024'
    bad[3]![1] = 'Ingenvej'
    const dry = await importFile(t, admin, main, csvOf(bad), '?dryRun=true', { locale: 'da' })
    expect(dry.status).toBe(200)
    expect(dry.json.counts).toEqual({ NEW: 1, UPDATE: 0, UNCHANGED: 0, ERROR: 2 })
    expect(dry.json.problems.map((p: { row: number; columnName: string }) => `${p.row} ${p.columnName}`)).toEqual(['3 Indflytning', '4 Adresse'])
    expect(dry.json.rows[1]).toMatchObject({ row: 3, outcome: 'ERROR', address: 'Dronningensgade 70, 1 tv, 2620 Albertslund', residentName: 'Jens Holm' })
    expect(dry.json.problems[0].message).toBe('“31-02-2024” er ikke en dato: skriv dd-mm-åååå.')
    expect(dry.json.problems[1].message).toBe('Adressen blev ikke fundet i adresseregistret.')

    const all = await importFile(t, admin, main, csvOf(bad))
    expect(all.status).toBe(400)
    expect(all.json.code).toBe('VALIDATION_FAILED')
    expect(all.json.issues.map((i: { path: string }) => i.path)).toEqual(['rows.3.moveInDate', 'rows.4.street'])
    expect(await count(t, main)).toEqual(before)

    const valid = await importFile(t, admin, main, csvOf(bad), '?onlyValid=true')
    expect(valid.status, JSON.stringify(valid.json)).toBe(200)
    expect(valid.json).toMatchObject({ imported: true, counts: { NEW: 1, ERROR: 2 } })
    expect(await count(t, main)).toEqual({ addresses: before.addresses + 1, households: before.households + 1, residents: before.residents + 1 })
  })

  it('reads an xlsx workbook, and answers its template in the caller’s language', async () => {
    const { t, main, admin } = await setup()
    const res = await t.app.request(`/api/companies/${main}/import/template`, { headers: { Authorization: `Bearer ${admin}`, 'Accept-Language': 'da' } })
    expect(res.status).toBe(200)
    expect(res.headers.get('Content-Type')).toContain('spreadsheetml')
    const book = XLSX.read(new Uint8Array(await res.arrayBuffer()), { type: 'array' })
    const cells = XLSX.utils.sheet_to_json<string[]>(book.Sheets[book.SheetNames[0]!]!, { header: 1 })
    expect(cells[0]!.slice(0, 3)).toEqual(['Eksternt nr.', 'Adresse', 'Nummer'])

    const sheet = XLSX.utils.aoa_to_sheet([DANISH[0]!, [...DANISH[1]!.slice(0, 8), 74.5, 1.25, ...DANISH[1]!.slice(10)]])
    const wb = XLSX.utils.book_new()
    XLSX.utils.book_append_sheet(wb, sheet, 'Ark1')
    const bytes = new Uint8Array(XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }) as Buffer)
    const dry = await importFile(t, admin, main, bytes, '?dryRun=true', { name: 'husstande.xlsx' })
    expect(dry.status, JSON.stringify(dry.json)).toBe(200)
    expect(dry.json).toMatchObject({ counts: { NEW: 1, ERROR: 0 } })
  })

  it('a file that is no spreadsheet, or none at all, is a clear 400 in the caller’s language', async () => {
    const { t, main, admin } = await setup()
    const pdf = await importFile(t, admin, main, new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x00, 0x01, 0x02]), '?dryRun=true', { locale: 'da' })
    expect(pdf.status).toBe(400)
    expect(pdf.json.issues[0].path).toBe('file')
    const empty = await importFile(t, admin, main, new Uint8Array(), '?dryRun=true')
    expect(empty.status).toBe(400)
    const noHeader = await importFile(
      t,
      admin,
      main,
      csvOf([
        ['Navn', 'Noter'],
        ['a', 'b'],
      ]),
      '',
    )
    expect(noHeader.status).toBe(400)
    expect(noHeader.json.issues.map((i: { path: string }) => i.path)).toEqual(['rows.1.street', 'rows.1.zip', 'rows.1.city'])
  })

  it('a file over 5 MB is 413 and more than 30 imports a minute 429, in the caller’s language', async () => {
    const { t, main, admin } = await setup()
    const big = await importFile(t, admin, main, new Uint8Array(6 * 1024 * 1024).fill(65), '?dryRun=true', { locale: 'da' })
    expect(big.status).toBe(413)
    expect(big.json.message).toBe('Filen er for stor (højst 5 MB).')
    const statuses: number[] = []
    for (let i = 0; i < 30; i++) statuses.push((await importFile(t, admin, main, csvOf(DANISH), '?dryRun=true')).status)
    expect(statuses.filter((s) => s !== 200)).toEqual([])
    expect((await importFile(t, admin, main, csvOf(DANISH), '?dryRun=true')).status).toBe(429)
  })
})

describe('household import: a workbook that unpacks too large', () => {
  it('is refused before SheetJS unpacks it (a zip bomb), with a 400 on `file` in the caller’s language', async () => {
    const { readSheet } = await import('./import-sheet')
    // 2,000 rows of long text: about 2 MB unpacked, a few kB packed.
    const rows = [['Adresse', 'Beboer'], ...Array.from({ length: 2000 }, () => ['x'.repeat(500), 'y'.repeat(500)])]
    const wb = XLSX.utils.book_new()
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(rows), 'S')
    const bytes = new Uint8Array(XLSX.write(wb, { type: 'buffer', bookType: 'xlsx', compression: true }) as Buffer)
    expect(bytes.length).toBeLessThan(100_000)
    expect(() => readSheet(bytes, 1024 * 1024)).toThrow(
      expect.objectContaining({
        code: 'VALIDATION_FAILED',
        message: 'The workbook unpacks to more than {max} MB: save it as CSV, or split it into smaller files.',
      }),
    )
    expect(readSheet(bytes, 8 * 1024 * 1024)).toHaveLength(2001)
  })
})
