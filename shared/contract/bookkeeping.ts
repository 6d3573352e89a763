import { z } from 'zod'
import { messages as m } from '../i18n-messages'
import { partTypes, type PartType } from '../domain/agreement-parts'
import { ACCOUNT_PATTERN, MONTH_PATTERN, VAT_CODE_PATTERN, journalEvents } from '../domain/bookkeeping'
import { isIsoDate } from '../domain/statistics-period'
import { daysBetween } from '../domain/billing-period'

/**
 * Bookkeeping (docs/BOOKKEEPING.md, decision 0067): the account plan, the journal
 * of a period, its exports and the closed months. Company admin staff (chairman, administrator,
 * accountant) and the super admin; anyone else 404. Amounts are øre, debit-positive on the account.
 */
export const MAX_PERIOD_DAYS = 366
export const JOURNAL_PAGE_MAX = 500

const account = z.string({ error: m.bookkeepingAccountInvalid.id }).trim().regex(ACCOUNT_PATTERN, { error: m.bookkeepingAccountInvalid.id })
const optionalAccount = z
  .string({ error: m.bookkeepingAccountInvalid.id })
  .trim()
  .regex(/^(\d{1,10})?$/, { error: m.bookkeepingAccountInvalid.id })
const vatCode = z
  .string({ error: m.bookkeepingVatCodeInvalid.id })
  .trim()
  .regex(VAT_CODE_PATTERN, { error: m.bookkeepingVatCodeInvalid.id })
  .transform((v) => v.toUpperCase())

export const PartAccount = z.object({ account, vatCode })
export const AccountPlan = z
  .object({
    parts: z.object(Object.fromEntries(partTypes.map((t) => [t, PartAccount])) as Record<PartType, typeof PartAccount>),
    /** '' posts refunds back on each line's own account. */
    refundAccount: optionalAccount,
    /** Vipps MobilePay's fees, if known ('' when not). */
    feeAccount: optionalAccount,
    clearingAccount: account,
    outsideAccount: account,
  })
  .meta({ id: 'BookkeepingAccountPlan' })
export type AccountPlanInput = z.output<typeof AccountPlan>

export const AccountPlanView = z
  .object({
    companyId: z.uuid(),
    plan: AccountPlan,
    /** 1: the defaults, never changed. */
    version: z.number().int(),
    updatedAt: z.string().nullable(),
    updatedByName: z.string().nullable(),
  })
  .meta({ id: 'BookkeepingAccountPlanView' })
export type AccountPlanView = z.output<typeof AccountPlanView>

export const IsoDate = z
  .string({ error: m.bookkeepingDateInvalid.id })
  .refine(isIsoDate, { error: m.bookkeepingDateInvalid.id })
  .meta({ description: 'YYYY-MM-DD (Copenhagen)', example: '2026-10-01' })

const periodChecks = (v: { from: string; to: string }, ctx: z.RefinementCtx) => {
  if (!isIsoDate(v.from) || !isIsoDate(v.to)) return
  if (v.to < v.from) ctx.addIssue({ code: 'custom', path: ['to'], message: m.bookkeepingPeriodReversed.id })
  else if (daysBetween(v.from, v.to) >= MAX_PERIOD_DAYS) ctx.addIssue({ code: 'custom', path: ['to'], message: m.bookkeepingPeriodTooLong.id })
}

export const CompanyParam = z.object({ companyId: z.uuid() })

export const JournalQuery = z
  .object({
    from: IsoDate,
    to: IsoDate,
    /** Only entries no export has included yet. */
    onlyNew: z
      .enum(['true', 'false'], { error: m.optionInvalid.id })
      .optional()
      .transform((v) => v === 'true'),
    limit: z.coerce.number().int().min(1).max(JOURNAL_PAGE_MAX).default(100),
    cursor: z.string().max(200).optional(),
  })
  .superRefine(periodChecks)
export type JournalQuery = z.output<typeof JournalQuery>

export const JournalEvent = z.enum(journalEvents)
export const JournalEntry = z
  .object({
    date: z.string(),
    voucher: z.number().int(),
    invoiceId: z.string(),
    event: JournalEvent,
    account: z.string(),
    contraAccount: z.string(),
    vatCode: z.string(),
    amount: z.number().int(),
    text: z.string(),
    exportedAt: z.string().nullable(),
  })
  .meta({ id: 'BookkeepingJournalEntry' })

export const AccountTotal = z.object({ account: z.string(), amount: z.number().int() })

export const JournalPage = z
  .object({
    entries: z.array(JournalEntry),
    nextCursor: z.string().nullable(),
    /**
     * The whole period's totals per account (every entry, exported or not), debit-positive. Only on
     * the first page (no cursor); null on later pages (the client keeps the first page's).
     */
    totals: z.array(AccountTotal).nullable(),
    /** Vouchers (events) in the period, and of those not yet exported: first page only, as `totals`. */
    vouchers: z.number().int().nullable(),
    unexported: z.number().int().nullable(),
    /**
     * Of those, not yet exported in each file format: "only new" is kept per format, so the CSV and
     * the xlsx each hold every entry once (decision 0079). First page only, as `totals`.
     */
    unexportedByFormat: z.object({ CSV: z.number().int(), XLSX: z.number().int() }).nullable(),
  })
  .meta({ id: 'BookkeepingJournalPage' })
export type JournalPage = z.output<typeof JournalPage>

export const exportFormats = ['CSV', 'XLSX'] as const
export const ExportRequest = z
  .object({
    /** Made by the client: a retried export is the same export and the same file. */
    id: z.uuid(),
    from: IsoDate,
    to: IsoDate,
    format: z.enum(exportFormats, { error: m.optionInvalid.id }),
    /** Only entries no earlier export in the same format included (the default). */
    onlyNew: z.boolean({ error: m.optionInvalid.id }).default(true),
  })
  .superRefine(periodChecks)
  .meta({ id: 'BookkeepingExportRequest' })
export type ExportRequest = z.output<typeof ExportRequest>

export const JournalExport = z
  .object({
    id: z.uuid(),
    companyId: z.uuid(),
    from: z.string(),
    to: z.string(),
    format: z.enum(exportFormats),
    onlyNew: z.boolean(),
    /** The vouchers (events) this export was the first to include. */
    entries: z.number().int(),
    exportedAt: z.string(),
    exportedByName: z.string(),
  })
  .meta({ id: 'BookkeepingExport' })
export type JournalExport = z.output<typeof JournalExport>

export const ExportParam = z.object({ companyId: z.uuid(), id: z.uuid() })

export const ClosedMonth = z.object({ month: z.string(), closedAt: z.string(), closedByName: z.string() }).meta({ id: 'BookkeepingClosedMonth' })
export type ClosedMonth = z.output<typeof ClosedMonth>

export const CloseMonthRequest = z
  .object({ month: z.string({ error: m.bookkeepingMonthInvalid.id }).regex(MONTH_PATTERN, { error: m.bookkeepingMonthInvalid.id }) })
  .meta({ id: 'BookkeepingCloseMonthRequest' })
