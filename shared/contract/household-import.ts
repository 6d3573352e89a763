import { z } from 'zod'
import { importColumns } from '../domain/household-import'
import { messages } from '../i18n-messages'
import { calendarDate } from './agreements'

/**
 * The household spreadsheet import's answer (docs/PRODUCT.md "Importing households",
 * docs/decisions/0092): what each row does — a new household, an update, nothing, or an error —
 * and every problem by row number (the header is row 1) and column, in the caller's language.
 */
export const ImportOutcome = z.enum(['NEW', 'UPDATE', 'UNCHANGED', 'ERROR'])
export type ImportOutcome = z.infer<typeof ImportOutcome>

/** The agreement a payer's row gives (docs/decisions/0093): a new one, or none because one runs at the address already. */
export const ImportAgreement = z.enum(['NEW', 'EXISTING'])
export type ImportAgreement = z.infer<typeof ImportAgreement>

export const ImportProblemView = z.object({
  row: z.number().int().describe('The row number as the spreadsheet shows it (the header is row 1)'),
  column: z.enum(importColumns).nullable().describe('The column, or null for the row as a whole'),
  columnName: z.string().nullable().describe('The column’s header in the caller’s language'),
  message: z.string().describe('The problem, in the caller’s language'),
})
export type ImportProblemView = z.infer<typeof ImportProblemView>

export const ImportRowView = z.object({
  row: z.number().int(),
  outcome: ImportOutcome,
  householdId: z.string().nullable().describe('The household the row matched or made (null for a new one in a dry run, or an error)'),
  address: z.string(),
  residentName: z.string().nullable(),
  agreement: ImportAgreement.nullable().describe(
    'On the payer’s row of a household with amounts: NEW, the agreement the import makes (made, unless a dry run), or EXISTING, none because one runs at the address',
  ),
})
export type ImportRowView = z.infer<typeof ImportRowView>

export const ImportReport = z.object({
  dryRun: z.boolean(),
  imported: z.boolean().describe('Whether anything was written (never in a dry run)'),
  counts: z.object({ NEW: z.number().int(), UPDATE: z.number().int(), UNCHANGED: z.number().int(), ERROR: z.number().int() }),
  agreements: z
    .object({
      NEW: z.number().int().describe('Agreements created (in a dry run: that would be created), in CREATED, nobody invited'),
      EXISTING: z.number().int().describe('Households with amounts that get none: an agreement runs at the address'),
      startPaymentDate: z.string().describe('Their first payment date (YYYY-MM-DD)'),
      problem: z.string().nullable().describe('Why they cannot be created (no active payment provider), in the caller’s language; the import is then refused'),
    })
    .describe('The agreements for the payers’ amounts (docs/decisions/0093)'),
  rows: z.array(ImportRowView),
  problems: z.array(ImportProblemView),
})
export type ImportReport = z.infer<typeof ImportReport>

export const ImportQuery = z.object({
  dryRun: z.enum(['true', 'false']).optional().describe('true: report what the import would do, writing nothing'),
  onlyValid: z
    .enum(['true', 'false'])
    .optional()
    .describe('true: import the valid rows and leave the rows with problems out (by default one problem stops all)'),
  startPaymentDate: calendarDate(messages.startPaymentDateRequired.id)
    .optional()
    .describe('The first payment date of the agreements the import creates, YYYY-MM-DD (default: the first day of next month, Copenhagen time)'),
})

/** The largest file the import reads (an xlsx of a few thousand rows is far smaller). */
export const MAX_IMPORT_BYTES = 5 * 1024 * 1024
/** The most data rows one import reads. */
export const MAX_IMPORT_ROWS = 5000
