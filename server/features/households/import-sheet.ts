import { inflateRawSync } from 'node:zlib'
import * as XLSX from 'xlsx'
import { DomainError } from '../../errors'
import { MAX_IMPORT_ROWS } from '../../../shared/contract/household-import'
import { templateRows } from '../../../shared/domain/household-import'

/**
 * A spreadsheet as cells of text (docs/decisions/0092), read with SheetJS (`xlsx`, the library the
 * statistics export uses): an xlsx workbook's first sheet, or CSV in UTF-8 (with or without BOM,
 * else Windows-1252 as older Excel saves it) separated by `;` or `,`. CSV cells are read as written
 * (`raw`), so "74,5" and "01-02-2024" reach the import's own Danish reading untouched; an xlsx cell
 * that holds a number or a date becomes "74.5" or "2024-02-01".
 */
export const sheetMessages = {
  unreadable: /*i18n*/ { id: 'The file could not be read: upload an Excel workbook (.xlsx) or a CSV file.' },
  tooManyRows: /*i18n*/ { id: 'The file has more than {max} rows: split it into smaller files.' },
  empty: /*i18n*/ { id: 'The file is empty: choose a file that has something in it.' },
  unpacksTooLarge: /*i18n*/ { id: 'The workbook unpacks to more than {max} MB: save it as CSV, or split it into smaller files.' },
} as const

/**
 * The most an xlsx may hold unpacked. A workbook of 5000 rows is a few MB unpacked; a 5 MB zip can
 * unpack to gigabytes (a zip bomb), which SheetJS would inflate whole, blocking the event loop and
 * taking the memory of the server — the import reads the file outside the write lock, so several at once.
 */
export const MAX_UNPACKED_BYTES = 100 * 1024 * 1024

const unreadable = () => new DomainError('VALIDATION_FAILED', sheetMessages.unreadable.id, { issues: [{ path: 'file', message: sheetMessages.unreadable.id }] })

const isZip = (b: Uint8Array) => b.length > 4 && b[0] === 0x50 && b[1] === 0x4b && b[2] === 0x03 && b[3] === 0x04

/** The text of a CSV file: UTF-8 (BOM dropped), else Windows-1252. */
function csvText(bytes: Uint8Array): string {
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    text = new TextDecoder('windows-1252').decode(bytes)
  }
  return text.replace(/^\uFEFF/, '')
}

/** `;` or `,`: whichever the header line has more of outside quotes (`;` on a tie: Danish Excel's). */
export function csvDelimiter(text: string): ';' | ',' {
  const line = text.split(/\r?\n/, 1)[0] ?? ''
  let quoted = false
  let semi = 0
  let comma = 0
  for (const ch of line) {
    if (ch === '"') quoted = !quoted
    else if (!quoted && ch === ';') semi++
    else if (!quoted && ch === ',') comma++
  }
  return comma > semi ? ',' : ';'
}

const two = (n: number) => String(n).padStart(2, '0')
const cellText = (v: unknown): string => {
  if (v === null || v === undefined) return ''
  if (v instanceof Date) return `${v.getFullYear()}-${two(v.getMonth() + 1)}-${two(v.getDate())}`
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : String(Math.round(v * 1e6) / 1e6)
  if (typeof v === 'boolean') return v ? 'yes' : 'no'
  return String(v)
}

/**
 * Refuses a zip whose entries unpack to more than `max` bytes in all, before SheetJS reads it:
 * each entry the central directory lists is inflated (node:zlib) with `maxOutputLength`, so a
 * zip bomb stops at the limit rather than at its end. An entry that is not a whole deflate stream,
 * or a zip this cannot walk (ZIP64, a broken directory), is unreadable.
 */
function assertUnpackedWithin(bytes: Uint8Array, max: number): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const u16 = (at: number) => view.getUint16(at, true)
  const u32 = (at: number) => view.getUint32(at, true)
  let end = -1
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 0xffff); at--)
    if (u32(at) === 0x06054b50) {
      end = at
      break
    }
  if (end < 0) throw unreadable()
  const entries = u16(end + 10)
  let at = u32(end + 16)
  let total = 0
  for (let i = 0; i < entries; i++) {
    if (at + 46 > bytes.length || u32(at) !== 0x02014b50) throw unreadable()
    const method = u16(at + 10)
    const packed = u32(at + 20)
    const local = u32(at + 42)
    at += 46 + u16(at + 28) + u16(at + 30) + u16(at + 32)
    if (local + 30 > bytes.length || u32(local) !== 0x04034b50) throw unreadable()
    const start = local + 30 + u16(local + 26) + u16(local + 28)
    if (start + packed > bytes.length) throw unreadable()
    const data = bytes.subarray(start, start + packed)
    if (method === 0) total += data.length
    else if (method === 8) {
      try {
        total += inflateRawSync(data, { maxOutputLength: Math.max(1, max - total + 1) }).length
      } catch (err) {
        if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') total = max + 1
        else throw unreadable()
      }
    } else throw unreadable()
    if (total > max) {
      const values = { max: Math.floor(max / (1024 * 1024)) }
      throw new DomainError('VALIDATION_FAILED', sheetMessages.unpacksTooLarge.id, {
        issues: [{ path: 'file', message: sheetMessages.unpacksTooLarge.id, values }],
        values,
      })
    }
  }
}

/** The cells of the file's first sheet, the header row first; 400 on `file` when it is no spreadsheet or unpacks to more than `maxUnpacked` bytes. */
export function readSheet(bytes: Uint8Array, maxUnpacked = MAX_UNPACKED_BYTES): string[][] {
  if (bytes.length === 0) throw new DomainError('VALIDATION_FAILED', sheetMessages.empty.id, { issues: [{ path: 'file', message: sheetMessages.empty.id }] })
  if (isZip(bytes)) assertUnpackedWithin(bytes, maxUnpacked)
  let workbook: XLSX.WorkBook
  try {
    if (isZip(bytes)) workbook = XLSX.read(bytes, { type: 'array', cellDates: true, sheetRows: MAX_IMPORT_ROWS + 2, dense: true })
    else {
      const text = csvText(bytes)
      // A binary file that is not a workbook (a PDF, an image, an old .xls) is not CSV either.
      if ([...text.slice(0, 4096)].some((ch) => ch.charCodeAt(0) < 9 || (ch.charCodeAt(0) > 13 && ch.charCodeAt(0) < 32))) throw unreadable()
      workbook = XLSX.read(text, { type: 'string', FS: csvDelimiter(text), raw: true, sheetRows: MAX_IMPORT_ROWS + 2, dense: true })
    }
  } catch (err) {
    if (err instanceof DomainError) throw err
    throw unreadable()
  }
  const sheet = workbook.Sheets[workbook.SheetNames[0] ?? '']
  if (!sheet) throw unreadable()
  const rows = XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: true, defval: '', blankrows: true })
  if (rows.length > MAX_IMPORT_ROWS + 1)
    throw new DomainError('VALIDATION_FAILED', sheetMessages.tooManyRows.id, {
      issues: [{ path: 'file', message: sheetMessages.tooManyRows.id, values: { max: MAX_IMPORT_ROWS } }],
      values: { max: MAX_IMPORT_ROWS },
    })
  return rows.map((r) => r.map(cellText))
}

/** The template: an xlsx with the headers in the locale's language and an example row. */
export function templateWorkbook(locale: 'en' | 'da'): Uint8Array {
  const workbook = XLSX.utils.book_new()
  const sheet = XLSX.utils.aoa_to_sheet(templateRows(locale))
  sheet['!cols'] = templateRows(locale)[0]!.map((h) => ({ wch: Math.max(12, h.length + 2) }))
  XLSX.utils.book_append_sheet(workbook, sheet, locale === 'da' ? 'Husstande' : 'Households')
  return new Uint8Array(XLSX.write(workbook, { type: 'buffer', bookType: 'xlsx' }) as Buffer)
}
