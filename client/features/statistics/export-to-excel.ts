/**
 * The Export to Excel button's work (docs/PRODUCT.md §2 "Export to Excel button", §8, §9): a workbook built
 * in the browser from a visible table, no network call. The `xlsx` package (write-only use,
 * README.md "Libraries and why") is loaded only here, on the first export, so it never weighs on the first route.
 * A cell with `data-value` (øre) is exported as a number of kroner; every other cell as its text.
 */
export class ExportError extends Error {
  constructor(
    readonly reason: 'table-missing' | 'no-data' | 'failed',
    options?: { cause?: unknown },
  ) {
    super(reason, options)
  }
}

export interface ExportOptions {
  tableId: string
  filename?: string
  sheetName?: string
  /** The current date, `YYYY-MM-DD`, for the file name. */
  today: string
}

type Cell = string | number

/** Header row, data rows and footer rows of a table, as the user sees them. */
export function tableToRows(table: HTMLTableElement): { header: string[]; rows: Cell[][] } {
  const cells = (tr: HTMLTableRowElement): Cell[] =>
    [...tr.cells].map((c) => {
      const v = c.dataset.value
      return v !== undefined && v !== '' && Number.isFinite(Number(v)) ? Number(v) / 100 : (c.textContent ?? '').trim()
    })
  const header = table.tHead?.rows[0] ? [...table.tHead.rows[0].cells].map((c) => (c.textContent ?? '').trim()) : []
  const body = [...table.tBodies].flatMap((b) => [...b.rows].map(cells))
  const foot = table.tFoot ? [...table.tFoot.rows].map(cells) : []
  return { header, rows: body.length ? [...body, ...foot] : [] }
}

/** Column width in characters: the header's length plus 2, at least 12 (docs/PRODUCT.md §9). */
export const columnWidth = (header: string): number => Math.max(12, header.length + 2)

/** `charges_2026-11-23.xlsx` (docs/PRODUCT.md §9). */
export const exportFileName = (filename: string, today: string): string => `${filename}_${today}.xlsx`

export async function exportTableToExcel({ tableId, filename = 'export', sheetName = 'Sheet1', today }: ExportOptions): Promise<string> {
  const table = document.getElementById(tableId)
  if (!(table instanceof HTMLTableElement)) throw new ExportError('table-missing')
  const { header, rows } = tableToRows(table)
  if (rows.length === 0) throw new ExportError('no-data')
  try {
    const XLSX = await import('xlsx')
    const sheet = XLSX.utils.aoa_to_sheet([header, ...rows])
    sheet['!cols'] = header.map((h) => ({ wch: columnWidth(h) }))
    // Kroner with two decimals, shown as such in the spreadsheet; the values stay numbers.
    const range = XLSX.utils.decode_range(sheet['!ref']!)
    for (let r = 1; r <= range.e.r; r++)
      for (let c = 0; c <= range.e.c; c++) {
        const cell = sheet[XLSX.utils.encode_cell({ r, c })]
        if (cell && cell.t === 'n') cell.z = '#,##0.00'
      }
    const book = XLSX.utils.book_new()
    XLSX.utils.book_append_sheet(book, sheet, sheetName.slice(0, 31))
    const name = exportFileName(filename, today)
    XLSX.writeFile(book, name, { compression: true })
    return name
  } catch (err) {
    throw new ExportError('failed', { cause: err })
  }
}
