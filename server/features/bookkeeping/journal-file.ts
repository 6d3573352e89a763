import type { JournalExport } from '../../../shared/contract/bookkeeping'
import type { JournalEntry } from '../../../shared/domain/bookkeeping'
import { journalColumns, journalCsv, spreadsheetSafe } from '../../../shared/domain/bookkeeping-csv'
import { copenhagenDateOf } from '../../../shared/domain/copenhagen'

/** A `YYYY-MM-DD` date as Excel's day number (days since 1899-12-30, the 1900 date system): a real date cell, no time zone. */
export const excelDay = (date: string): number => {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number]
  return Date.UTC(y, m - 1, d) / 86_400_000 + 25_569
}

/** The sheet's formats: dates as the CSV writes them, amounts in kroner with two decimals. */
export const XLSX_DATE_FORMAT = 'dd-mm-yyyy'
export const XLSX_AMOUNT_FORMAT = '#,##0.00'

/**
 * An export's file (docs/BOOKKEEPING.md): the CSV Danish bookkeeping systems import, or the same
 * columns as an xlsx sheet (written on the server, so the file and the export marks come from the
 * same rows; the `xlsx` package is loaded only when a sheet is asked for). In the sheet the dates
 * (`Dato`, `Eksporteret før`) are date cells shown dd-mm-yyyy and the amount is a number in kroner
 * shown with two decimals, so a spreadsheet sorts the dates and adds the amounts up (decision 0079).
 */
export async function journalFile(e: JournalExport, entries: JournalEntry[]): Promise<{ name: string; contentType: string; bytes: Uint8Array }> {
  const base = `bogfoering-${e.from}-${e.to}`
  const rows = entries.map((x) => ({ ...x, exportedAt: x.exportedAt ? copenhagenDateOf(new Date(x.exportedAt)) : null }))
  if (e.format === 'CSV') return { name: `${base}.csv`, contentType: 'text/csv; charset=utf-8', bytes: new TextEncoder().encode(journalCsv(rows)) }
  const XLSX = await import('xlsx')
  const aoa: (string | number)[][] = [
    [...journalColumns],
    ...rows.map((x) => [
      excelDay(x.date),
      x.voucher,
      x.account,
      x.contraAccount,
      x.vatCode,
      x.amount / 100,
      spreadsheetSafe(x.text),
      x.exportedAt ? excelDay(x.exportedAt) : '',
    ]),
  ]
  const sheet = XLSX.utils.aoa_to_sheet(aoa)
  const format = (r: number, c: number, z: string) => {
    const cell = sheet[XLSX.utils.encode_cell({ r, c })] as { t?: string; z?: string } | undefined
    if (cell?.t === 'n') cell.z = z
  }
  for (let r = 1; r < aoa.length; r++) {
    format(r, 0, XLSX_DATE_FORMAT)
    format(r, 5, XLSX_AMOUNT_FORMAT)
    format(r, 7, XLSX_DATE_FORMAT)
  }
  const book = XLSX.utils.book_new()
  XLSX.utils.book_append_sheet(book, sheet, 'Kassekladde')
  const bytes = XLSX.write(book, { type: 'array', bookType: 'xlsx' }) as ArrayBuffer
  return { name: `${base}.xlsx`, contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', bytes: new Uint8Array(bytes) }
}
