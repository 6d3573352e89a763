/**
 * The journal as a file Danish bookkeeping systems import (docs/BOOKKEEPING.md): semicolons between
 * fields, a comma before the øre, no thousands separator, dates dd-mm-yyyy, UTF-8 with a byte-order
 * mark, CRLF line ends, a field quoted only when it holds a semicolon, a quote or a line break
 * (quotes doubled). The header names are Danish, as e-conomic's and Dinero's import screens show them.
 */
import type { JournalEntry } from './bookkeeping'

export const journalColumns = ['Dato', 'Bilag', 'Konto', 'Modkonto', 'Momskode', 'Beløb', 'Tekst', 'Eksporteret før'] as const

/** øre → "1234,50" / "-0,05": kroner with a decimal comma and two decimals, exact. */
export function danishAmount(ore: number): string {
  if (!Number.isSafeInteger(ore)) throw new Error(`not whole øre: ${ore}`)
  const sign = ore < 0 ? '-' : ''
  const abs = Math.abs(ore)
  return `${sign}${Math.floor(abs / 100)},${String(abs % 100).padStart(2, '0')}`
}

/** "2026-10-31" → "31-10-2026". */
export const danishDate = (date: string): string => `${date.slice(8, 10)}-${date.slice(5, 7)}-${date.slice(0, 4)}`

/**
 * A text a spreadsheet will not run as a formula (CSV injection, OWASP's advice): text starting
 * with `=`, `+`, `-`, `@`, a tab or a carriage return (or their full-width forms) gets a leading
 * apostrophe, so a member named `=HYPERLINK(…)` stays text in Excel, LibreOffice and Numbers.
 * Only for free text (the entry's text): amounts, accounts and dates are written by us.
 */
export const spreadsheetSafe = (value: string): string => (/^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/.test(value) ? `'${value}` : value)

export const csvField = (value: string): string => (/[;"\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value)

/** The row of an entry, as text fields in `journalColumns` order. */
export const journalRow = (e: JournalEntry): string[] => [
  danishDate(e.date),
  String(e.voucher),
  e.account,
  e.contraAccount,
  e.vatCode,
  danishAmount(e.amount),
  spreadsheetSafe(e.text),
  e.exportedAt ? danishDate(e.exportedAt.slice(0, 10)) : '',
]

/** The whole file: BOM, header, one CRLF-ended line per entry. */
export function journalCsv(entries: Iterable<JournalEntry>): string {
  const lines = [journalColumns.map(csvField).join(';')]
  for (const e of entries) lines.push(journalRow(e).map(csvField).join(';'))
  return `\uFEFF${lines.join('\r\n')}\r\n`
}

/** A file of this shape read back into fields (quotes undone; the BOM, if any, dropped): what the tests check a download with. */
export function readCsv(text: string): string[][] {
  const rows: string[][] = []
  let field = ''
  let row: string[] = []
  let quoted = false
  const src = text.replace(/^\uFEFF/, '')
  for (let i = 0; i < src.length; i++) {
    const ch = src[i]!
    if (quoted) {
      if (ch === '"' && src[i + 1] === '"') {
        field += '"'
        i++
      } else if (ch === '"') quoted = false
      else field += ch
    } else if (ch === '"') quoted = true
    else if (ch === ';') {
      row.push(field)
      field = ''
    } else if (ch === '\r' && src[i + 1] === '\n') {
      row.push(field)
      rows.push(row)
      row = []
      field = ''
      i++
    } else field += ch
  }
  if (field || row.length) {
    row.push(field)
    rows.push(row)
  }
  return rows
}
