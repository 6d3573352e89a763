import { z } from 'zod'
import { messages as m } from '../i18n-messages'
import { statementRowKinds } from '../domain/account-statement'
import { isIsoDate } from '../domain/statistics-period'

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

/** An interim statement's last day (decision 0081): the statement covers 1 January to this day of its year. */
export const StatementThrough = z.string({ error: m.statementThroughInvalid.id }).refine(isIsoDate, { error: m.statementThroughInvalid.id }).optional().meta({
  description:
    'YYYY-MM-DD in the year: an interim statement up to this day. Absent: the whole year once it has ended, else the year up to today (Copenhagen), an interim statement too',
  example: '2026-12-02',
})

export const OwnStatementQuery = z.object({
  companyId: z.uuid({ error: m.optionInvalid.id }).meta({ description: 'The association' }),
  year: StatementYear,
  through: StatementThrough,
})
export type OwnStatementQuery = z.output<typeof OwnStatementQuery>

export const MemberStatementQuery = z.object({ year: StatementYear, through: StatementThrough })

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
    /** An interim statement (decision 0081): the year has not ended, or it covers 1 January to `to` only. */
    interim: z.boolean(),
    openingBalance: z.number().int(),
    closingBalance: z.number().int(),
    totalDebit: z.number().int(),
    totalCredit: z.number().int(),
    rows: z.array(StatementRow),
  })
  .meta({ id: 'AccountStatement' })
export type AccountStatementResponse = z.infer<typeof AccountStatementResponse>

/**
 * The statements sent to every member of an association (decisions 0068 and 0081), queued by
 * company admin staff and sent by the `statements` job: the yearly statement once per year, once
 * the year has ended; interim statements during the year (1 January to `through`, one a day).
 * Resends are counted into the sendout they repeat.
 */
export const StatementSendout = z
  .object({
    id: z.uuid(),
    year: z.number().int(),
    kind: z.enum(['YEARLY', 'INTERIM']),
    /** An interim statement's last day (YYYY-MM-DD); null for the yearly statement. */
    through: z.string().nullable(),
    /** QUEUED: waiting for the job (seconds); SENT: every member was told. */
    status: z.enum(['QUEUED', 'SENT']),
    requestedBy: z.string(),
    requestedAt: z.iso.datetime(),
    sentAt: z.iso.datetime().nullable(),
    /** How many members it was for (once sent). */
    recipients: z.number().int().nullable(),
    /** How many of them it did not reach, resends counted: no e-mail address, or the mail failed (once sent). */
    notReached: z.number().int().nullable(),
    /** A resend of it is queued. */
    resending: z.boolean(),
  })
  .meta({ id: 'StatementSendout' })
export type StatementSendout = z.infer<typeof StatementSendout>

export const ResendStatementsParams = z.object({ companyId: z.uuid(), sendoutId: z.uuid() })

/** A resend (decision 0081): to one member of the sendout, or (no `userId`) to those it did not reach. */
export const ResendStatementsBody = z
  .object({ userId: z.uuid({ error: m.optionInvalid.id }).optional().meta({ description: 'One member of the sendout; absent: those not reached' }) })
  .meta({ id: 'ResendStatements' })
export type ResendStatementsBody = z.infer<typeof ResendStatementsBody>

export const SendStatementsParams = z.object({
  companyId: z.uuid(),
  year: z.coerce
    .number({ error: m.statementYearInvalid.id })
    .int({ error: m.statementYearInvalid.id })
    .min(2000, { error: m.statementYearInvalid.id })
    .max(2100, { error: m.statementYearInvalid.id }),
})
