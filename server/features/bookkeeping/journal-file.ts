import type { JournalExport } from '../../../shared/contract/bookkeeping'
import type { JournalEntry } from '../../../shared/domain/bookkeeping'
import { danishDate, journalColumns, journalCsv, spreadsheetSafe } from '../../../shared/domain/bookkeeping-csv'
import { copenhagenDateOf } from '../../../shared/domain/copenhagen'

/**
 * An export's file (docs/BOOKKEEPING.md): the CSV Danish bookkeeping systems import, or the same
 * columns as an xlsx sheet (written on the server, so the file and the export marks come from the
 * same rows; the `xlsx` package is loaded only when a sheet is asked for). In the sheet the amount
 * is a number in kroner shown with two decimals, so a spreadsheet adds it up.
 */
export async function journalFile(e: JournalExport, entries: JournalEntry[]): Promise<{ name: string; contentType: string; bytes: Uint8Array }> {
  const base = `bogfoering-${e.from}-${e.to}`
  const rows = entries.map((x) => ({ ...x, exportedAt: x.exportedAt ? copenhagenDateOf(new Date(x.exportedAt)) : null }))
  if (e.format === 'CSV') return { name: `${base}.csv`, contentType: 'text/csv; charset=utf-8', bytes: new TextEncoder().encode(journalCsv(rows)) }
  const XLSX = await import('xlsx')
  const aoa: (string | number)[][] = [
    [...journalColumns],
    ...rows.map((x) => [
      danishDate(x.date),
      x.voucher,
      x.account,
      x.contraAccount,
      x.vatCode,
      x.amount / 100,
      spreadsheetSafe(x.text),
      x.exportedAt ? danishDate(x.exportedAt) : '',
    ]),
  ]
  const sheet = XLSX.utils.aoa_to_sheet(aoa)
  for (let r = 1; r < aoa.length; r++) {
    const cell = sheet[XLSX.utils.encode_cell({ r, c: 5 })] as { z?: string } | undefined
    if (cell) cell.z = '#,##0.00'
  }
  const book = XLSX.utils.book_new()
  XLSX.utils.book_append_sheet(book, sheet, 'Kassekladde')
  const bytes = XLSX.write(book, { type: 'array', bookType: 'xlsx' }) as ArrayBuffer
  return { name: `${base}.xlsx`, contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', bytes: new Uint8Array(bytes) }
}
