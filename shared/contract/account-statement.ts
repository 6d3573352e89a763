import { z } from 'zod'
import { messages as m } from '../i18n-messages'
import { statementRowKinds } from '../domain/account-statement'

/**
 * A member's account statement (kontokort, decision 0068): the rows of
 * shared/domain/account-statement.ts for one calendar year, the balance before it carried as the
 * first row. Money is integer øre; a balance above 0 is owed by the member, below 0 is in their favour.
 */
export const StatementYear = z.coerce
  .number({ error: m.statementYearInvalid.id })
  .int({ error: m.statementYearInvalid.id })
  .min(2000, { error: m.statementYearInvalid.id })
  .max(2100, { error: m.statementYearInvalid.id })
  .optional()
  .meta({ description: 'The calendar year (Copenhagen); this year when absent', example: 2026 })

export const OwnStatementQuery = z.object({
  companyId: z.uuid({ error: m.optionInvalid.id }).meta({ description: 'The association' }),
  year: StatementYear,
})
export type OwnStatementQuery = z.output<typeof OwnStatementQuery>

export const MemberStatementQuery = z.object({ year: StatementYear })

export const StatementRow = z
  .object({
    date: z.string().meta({ description: 'YYYY-MM-DD (Copenhagen)' }),
    kind: z.enum(statementRowKinds),
    documentId: z.string().nullable().meta({ description: 'The invoice or credit note (the voucher)' }),
    documentNumber: z.string().nullable(),
    creditedNumber: z.string().nullable().meta({ description: "A credit note's invoice number" }),
    text: z.string(),
    reason: z.string().nullable().meta({ description: 'Why a charge failed, when known' }),
    debit: z.number().int(),
    credit: z.number().int(),
    balance: z.number().int(),
  })
  .meta({ id: 'AccountStatementRow' })

export const AccountStatementResponse = z
  .object({
    companyId: z.uuid(),
    companyName: z.string(),
    member: z.object({ userId: z.uuid(), name: z.string() }),
    year: z.number().int(),
    from: z.string(),
    to: z.string(),
    openingBalance: z.number().int(),
    closingBalance: z.number().int(),
    totalDebit: z.number().int(),
    totalCredit: z.number().int(),
    rows: z.array(StatementRow),
  })
  .meta({ id: 'AccountStatement' })
export type AccountStatementResponse = z.infer<typeof AccountStatementResponse>

/**
 * The yearly statements sent to every member of an association (decision 0068): one per year,
 * queued by company admin staff and sent by the `statements` job; a year is never sent twice.
 */
export const StatementSendout = z
  .object({
    year: z.number().int(),
    /** QUEUED: waiting for the job (seconds); SENT: every member was told. */
    status: z.enum(['QUEUED', 'SENT']),
    requestedBy: z.string(),
    requestedAt: z.iso.datetime(),
    sentAt: z.iso.datetime().nullable(),
    /** How many members got it (once sent). */
    recipients: z.number().int().nullable(),
  })
  .meta({ id: 'StatementSendout' })
export type StatementSendout = z.infer<typeof StatementSendout>

export const SendStatementsParams = z.object({
  companyId: z.uuid(),
  year: z.coerce
    .number({ error: m.statementYearInvalid.id })
    .int({ error: m.statementYearInvalid.id })
    .min(2000, { error: m.statementYearInvalid.id })
    .max(2100, { error: m.statementYearInvalid.id }),
})
