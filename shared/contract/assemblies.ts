import { z } from 'zod'
import { messages as m } from '../i18n-messages'
import {
  copenhagenLocalToInstant,
  DEFAULT_REMINDER_DAYS,
  LOCAL_DATE_TIME,
  MAX_AGENDA_ITEMS,
  MAX_REMINDER_DAYS,
  MAX_REMINDERS,
  MIN_REMINDER_DAYS,
} from '../domain/assembly'
import { pageQueryFields } from './paging'
import { multiLineText, plainText } from './text'

/**
 * General assemblies and members' proposals (docs/PRODUCT.md "General assembly",
 * docs/decisions/0061-general-assembly-sendouts.md). The same schemas check the client's forms and
 * the server's requests. Requests carry Copenhagen wall times (`YYYY-MM-DDTHH:mm`, what a
 * datetime-local field gives); answers carry UTC instants.
 */
export const assemblyStatuses = ['PLANNED', 'HELD', 'CANCELLED'] as const
export const AssemblyStatus = z.enum(assemblyStatuses)
export type AssemblyStatus = z.infer<typeof AssemblyStatus>

export const proposalStatuses = ['SUBMITTED', 'WITHDRAWN'] as const
export const ProposalStatus = z.enum(proposalStatuses)
export type ProposalStatus = z.infer<typeof ProposalStatus>

export const MAX_ASSEMBLY_TITLE = 200
export const MAX_PLACE = 200
export const MAX_AGENDA_ITEM = 300
export const MAX_PROPOSAL_TITLE = 200
export const MAX_PROPOSAL_BODY = 10_000

/** A Copenhagen wall time that is a real date and time; `required` names what is missing. */
const wallTime = (required: string) =>
  z
    .string({ error: required })
    .regex(LOCAL_DATE_TIME, required)
    .refine((v) => copenhagenLocalToInstant(v) !== undefined, m.dateInvalid.id)
    .meta({ description: 'Local time in Europe/Copenhagen, YYYY-MM-DDTHH:mm' })

const title = plainText(MAX_ASSEMBLY_TITLE, m.assemblyTitleRequired.id)
const place = plainText(MAX_PLACE, m.assemblyPlaceRequired.id)
const agenda = z
  .array(plainText(MAX_AGENDA_ITEM, m.assemblyAgendaItemRequired.id), { error: m.assemblyAgendaRequired.id })
  .min(1, m.assemblyAgendaRequired.id)
  .max(MAX_AGENDA_ITEMS, m.tooManyItems.id)
  .meta({ description: 'The agenda items in order, plain text each' })
const heldAt = wallTime(m.assemblyHeldAtRequired.id)
const proposalDeadline = wallTime(m.assemblyDeadlineRequired.id)
const noticeAt = wallTime(m.assemblyNoticeAtInvalid.id)
  .nullable()
  .meta({ description: 'When the notice goes out (Copenhagen time, before the deadline for proposals); null: at once' })
const reminderDays = z
  .array(
    z
      .number({ error: m.assemblyReminderDaysInvalid.id })
      .int(m.assemblyReminderDaysInvalid.id)
      .min(MIN_REMINDER_DAYS, m.assemblyReminderDaysInvalid.id)
      .max(MAX_REMINDER_DAYS, m.assemblyReminderDaysInvalid.id),
    { error: m.assemblyReminderDaysInvalid.id },
  )
  .max(MAX_REMINDERS, m.tooManyItems.id)
  .refine((days) => new Set(days).size === days.length, m.assemblyReminderDaysDistinct.id)
  .meta({ description: `Days before the meeting a reminder goes out (${MIN_REMINDER_DAYS}–${MAX_REMINDER_DAYS}, distinct, at most ${MAX_REMINDERS})` })

export interface TimingIssue {
  path: 'proposalDeadline' | 'noticeAt'
  message: string
}

/**
 * The order of the times (Copenhagen wall times compare as text, and so do UTC instants): the
 * deadline for proposals before the meeting; the notice not after the meeting and before the
 * deadline (members must have it in time to propose something). One issue per field. The server
 * checks the stored values merged with an edit the same way; that a time lies ahead depends on the
 * clock and is the server's (and the form's) check.
 */
export function timingIssues(v: { heldAt?: string | null; proposalDeadline?: string | null; noticeAt?: string | null }): TimingIssue[] {
  const issues: TimingIssue[] = []
  if (v.heldAt && v.proposalDeadline && v.proposalDeadline >= v.heldAt) issues.push({ path: 'proposalDeadline', message: m.assemblyDeadlineAfterMeeting.id })
  if (v.heldAt && v.noticeAt && v.noticeAt > v.heldAt) issues.push({ path: 'noticeAt', message: m.assemblyNoticeAfterMeeting.id })
  else if (v.proposalDeadline && v.noticeAt && v.noticeAt >= v.proposalDeadline) issues.push({ path: 'noticeAt', message: m.assemblyNoticeAfterDeadline.id })
  return issues
}

const checkTiming = (v: { heldAt?: string | null; proposalDeadline?: string | null; noticeAt?: string | null }, ctx: z.RefinementCtx) => {
  for (const issue of timingIssues(v)) ctx.addIssue({ code: 'custom', path: [issue.path], message: issue.message })
}

export const CreateAssemblyRequest = z
  .object({
    /** A client-made id (UUID), so an assembly created offline keeps it. */
    id: z.uuid().optional(),
    companyId: z.uuid(),
    title,
    heldAt,
    place,
    agenda,
    proposalDeadline,
    noticeAt: noticeAt.optional(),
    reminderDays: reminderDays.default([...DEFAULT_REMINDER_DAYS]),
  })
  .superRefine(checkTiming)
  .meta({ id: 'CreateAssemblyRequest' })
export type CreateAssemblyRequest = z.input<typeof CreateAssemblyRequest>

export const UpdateAssemblyRequest = z
  .object({
    title: title.optional(),
    heldAt: heldAt.optional(),
    place: place.optional(),
    agenda: agenda.optional(),
    proposalDeadline: proposalDeadline.optional(),
    noticeAt: noticeAt.optional(),
    reminderDays: reminderDays.optional(),
  })
  .superRefine(checkTiming)
  .meta({ id: 'UpdateAssemblyRequest', description: 'Only the fields sent change; the times are checked against the stored ones.' })
export type UpdateAssemblyRequest = z.input<typeof UpdateAssemblyRequest>

export const AssemblySendout = z
  .object({
    kind: z.enum(['ASSEMBLY_NOTICE', 'ASSEMBLY_REMINDER']),
    /** Days before the meeting (a reminder); null for the notice. */
    days: z.number().int().nullable(),
    dueAt: z.string(),
    sentAt: z.string().nullable(),
    /** How many members it went to; for the company's staff only (null for others and before it is sent). */
    recipients: z.number().int().nullable(),
  })
  .meta({ id: 'AssemblySendout' })
export type AssemblySendout = z.infer<typeof AssemblySendout>

export const Assembly = z
  .object({
    id: z.string(),
    companyId: z.string(),
    companyName: z.string(),
    title: z.string(),
    /** UTC instants. */
    heldAt: z.string(),
    place: z.string(),
    agenda: z.array(z.string()),
    proposalDeadline: z.string(),
    noticeAt: z.string(),
    reminderDays: z.array(z.number().int()),
    status: AssemblyStatus,
    /** The notice and the reminders still to go out or gone out, in time order (a reminder that was due before the notice or in the past is not among them). */
    sendouts: z.array(AssemblySendout),
    /** When the notice went out; members see the assembly from then on. */
    noticeSentAt: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
    version: z.number().int(),
  })
  .meta({ id: 'Assembly' })
export type Assembly = z.infer<typeof Assembly>

export const AssemblyListQuery = z.object({ companyId: z.uuid().optional(), ...pageQueryFields })
export type AssemblyListQuery = z.output<typeof AssemblyListQuery>

export const CreateProposalRequest = z
  .object({
    /** A client-made id (UUID), so a proposal written offline keeps it. */
    id: z.uuid().optional(),
    title: plainText(MAX_PROPOSAL_TITLE, m.proposalTitleRequired.id),
    body: multiLineText(MAX_PROPOSAL_BODY, m.proposalBodyRequired.id).meta({ description: 'Plain text; line breaks are kept' }),
  })
  .meta({ id: 'CreateProposalRequest' })
export type CreateProposalRequest = z.input<typeof CreateProposalRequest>

export const Proposal = z
  .object({
    id: z.string(),
    assemblyId: z.string(),
    companyId: z.string(),
    authorUserId: z.string().nullable(),
    authorName: z.string(),
    title: z.string(),
    body: z.string(),
    status: ProposalStatus,
    createdAt: z.string(),
    updatedAt: z.string(),
    version: z.number().int(),
  })
  .meta({ id: 'Proposal' })
export type Proposal = z.infer<typeof Proposal>
