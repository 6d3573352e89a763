/**
 * Charge statistics journey (decision 0032): the association's administrator opens the charge statistics, picks the
 * heating-and-water period, exports the table, and the downloaded spreadsheet holds exactly what
 * the screen shows (numbers as numbers, in kroner). The demo has no collected charges yet, so a
 * history is written first the way billing writes it (charges, invoices with gap-free numbers,
 * credit notes, change-log rows; server/features/statistics/charge-history.ts) into the running
 * server's database.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import * as XLSX from 'xlsx'
import { heatingWaterPeriod } from '../shared/domain/statistics-period'
import { formatDate, todayIso } from '../client/lib/format'
import { journeySuite, signIn, snapBoth } from './journeys'

const { journey, serverRows, writeHistory: writeToServer } = journeySuite('statistics', 9)

/** First days of the months from `start` up to today. */
function monthStarts(start: string, today: string): string[] {
  const out: string[] = []
  let [y, m] = start.split('-').map(Number) as [number, number]
  for (;;) {
    const d = `${y}-${String(m).padStart(2, '0')}-01`
    if (d > today) return out
    if (d >= start) out.push(d)
    if (++m > 12) [y, m] = [y + 1, 1]
  }
}

function writeHistory(today: string) {
  return writeToServer(async (w, db) => {
    const agreements = db.prepare<[], { id: string }>("SELECT id FROM agreements WHERE status = 'ACCEPTED' ORDER BY external_seq").all()
    const parts = db.prepare<[string], { type: 'COMMON_EXPENSES'; price_ore: number }>(
      'SELECT type, price_ore FROM agreement_parts WHERE agreement_id = ? ORDER BY position',
    )
    const heating = heatingWaterPeriod(today, '01.06', '31.05')!
    for (const [i, a] of agreements.entries()) {
      const lines = parts.all(a.id).map((p) => ({ type: p.type, amount: p.price_ore }))
      // Before the heating period (counted in the year only), then every month of it so far.
      await w.charge({ agreementId: a.id, paymentDate: `${today.slice(0, 4)}-01-0${1 + (i % 5)}`, lines, kind: 'ONE_TIME' })
      for (const day of monthStarts(heating.startDate, today)) {
        const { chargeId } = await w.charge({ agreementId: a.id, paymentDate: day, lines })
        if (i === 1 && day === heating.startDate) await w.refund({ chargeId, amount: 12_345, paymentDate: day })
      }
    }
  })
}

describe('statistics journey', () => {
  it('the administrator picks the heating-and-water period and exports exactly what the screen shows', () =>
    journey('export', async (context, page) => {
      const today = todayIso()
      await writeHistory(today)
      // Invoice numbers stay gap-free per company.
      const numbers = serverRows<{ number: number }>('SELECT number FROM invoices ORDER BY number').map((r) => r.number)
      expect(numbers).toEqual(numbers.map((_, i) => i + 1))

      await signIn(page, 'admin@solgaarden.dk')
      await page.locator('nav.sidebar-nav').getByRole('link', { name: 'Charges' }).click()
      await page.getByRole('heading', { name: 'Charges', level: 1 }).waitFor()
      const table = page.locator('table#statistics')
      await table.waitFor()
      await expect.poll(() => table.locator('caption').innerText()).toMatch(/^Summary from .* to .*$/)
      await page.getByText("All amounts are based on what has been withdrawn from members' bank accounts.").waitFor()

      await page.getByRole('button', { name: 'Heating & Water Period' }).click()
      await expect.poll(() => page.getByRole('button', { name: 'Heating & Water Period' }).getAttribute('aria-pressed')).toBe('true')
      const heating = heatingWaterPeriod(today, '01.06', '31.05')!
      await expect
        .poll(() => table.locator('caption').innerText())
        .toBe(`Summary from ${formatDate(heating.startDate, 'en')} to ${formatDate(heating.endDate, 'en')}`)
      await expect.poll(() => table.locator('tbody tr').count()).toBe(6)
      await snapBoth(page, 'statistics-heating-water')

      // What the screen shows: headers, then every body and footer row (row header text, amounts in kroner).
      const screen = await table.evaluate((t: HTMLTableElement) => ({
        header: [...t.tHead!.rows[0]!.cells].map((c) => c.textContent!.trim()),
        rows: [...t.tBodies[0]!.rows, ...t.tFoot!.rows].map((r) =>
          [...r.cells].map((c) => (c.dataset.value !== undefined ? Number(c.dataset.value) / 100 : c.textContent!.trim())),
        ),
        shown: [...t.tBodies[0]!.rows, ...t.tFoot!.rows].map((r) => [...r.cells].map((c) => c.textContent!.trim())),
      }))
      // The heating-water figures equal the executed invoices minus the credit note of the period in the database.
      const expected = serverRows<{ total: number }>(
        `SELECT SUM(CASE i.kind WHEN 'CREDIT_NOTE' THEN -l.total_incl_vat_ore ELSE l.total_incl_vat_ore END) AS total FROM invoices i JOIN invoice_lines l ON l.invoice_id = i.id
         WHERE i.status = 'EXECUTED' AND i.payment_date BETWEEN ? AND ?`,
        heating.startDate,
        heating.endDate,
      )[0]!.total
      expect(screen.rows.at(-1)!.at(-1)).toBe(expected / 100)
      expect(screen.shown.at(-1)!.at(-1)).toMatch(/\d\.\d{2}$|\d,\d{2}$/)

      const exportButton = page.getByRole('button', { name: 'Export to Excel' })
      const [download] = await Promise.all([page.waitForEvent('download'), exportButton.click()])
      expect(download.suggestedFilename()).toBe(`charges_${today}.xlsx`)
      const path = await download.path()
      await expect.poll(() => exportButton.isEnabled()).toBe(true)

      const book = XLSX.read(readFileSync(path!), { cellStyles: true })
      expect(book.SheetNames).toEqual(['Charges'])
      const sheet = book.Sheets['Charges']!
      const cells = XLSX.utils.sheet_to_json<(string | number)[]>(sheet, { header: 1, raw: true })
      expect(cells[0]).toEqual(screen.header)
      expect(cells.slice(1)).toEqual(screen.rows)
      // Amounts are numbers, not text; column widths are the header's length + 2, at least 12.
      const range = XLSX.utils.decode_range(sheet['!ref']!)
      for (let r = 1; r <= range.e.r; r++) for (let c = 1; c <= range.e.c; c++) expect(sheet[XLSX.utils.encode_cell({ r, c })]!.t).toBe('n')
      const widths = (sheet['!cols'] ?? []).map((col) => col.wch ?? col.width)
      expect(widths.map((w) => Math.round(w!))).toEqual(screen.header.map((h) => Math.max(12, h.length + 2)))
      void context
    }))
})
