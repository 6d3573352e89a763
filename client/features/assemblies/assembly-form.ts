/**
 * The general assembly form's values and their checks, apart from the screen (tested without
 * rendering): the same schema as the server (shared/contract/assemblies.ts), plus the times that
 * must lie ahead, so the user stays on the form with their edit instead of queueing a change the
 * server will refuse.
 */
import type { I18n } from '@lingui/core'
import { CreateAssemblyRequest } from '../../../shared/contract/assemblies'
import { copenhagenLocalToInstant, DEFAULT_REMINDER_DAYS, instantToCopenhagenLocal } from '../../../shared/domain/assembly'
import { messages } from '../../../shared/i18n-messages'
import { translateIssue } from '../../lib/form-issues'
import type { AssemblyView } from './use-assemblies'

export interface AssemblyFormValues {
  title: string
  heldAt: string
  place: string
  agenda: string[]
  proposalDeadline: string
  /** `now`: the notice goes out at once; `at`: at `noticeAt`. */
  noticeMode: 'now' | 'at'
  noticeAt: string
  /** The reminders as typed: days before the meeting, separated by commas ("14, 2"). */
  reminders: string
}

export const emptyAssemblyForm = (): AssemblyFormValues => ({
  title: '',
  heldAt: '',
  place: '',
  agenda: [''],
  proposalDeadline: '',
  noticeMode: 'at',
  noticeAt: '',
  reminders: DEFAULT_REMINDER_DAYS.join(', '),
})

/** The form as it opens on a stored assembly: its instants as Copenhagen wall times. */
export const assemblyFormOf = (row: AssemblyView): AssemblyFormValues => ({
  title: row.title ?? '',
  heldAt: row.heldAt ? instantToCopenhagenLocal(row.heldAt) : '',
  place: row.place ?? '',
  agenda: row.agenda?.length ? [...row.agenda] : [''],
  proposalDeadline: row.proposalDeadline ? instantToCopenhagenLocal(row.proposalDeadline) : '',
  noticeMode: 'at',
  noticeAt: row.noticeAt ? instantToCopenhagenLocal(row.noticeAt) : '',
  reminders: (row.reminderDays ?? []).join(', '),
})

/** "14, 2" → [14, 2]; a part that is not a number stays one the schema refuses. */
export const parseReminderDays = (text: string): number[] =>
  text
    .split(/[,;\s]+/)
    .filter(Boolean)
    .map((part) => (/^\d+$/.test(part) ? Number(part) : Number.NaN))

export type AssemblyFormErrors = Partial<
  Record<'title' | 'heldAt' | 'place' | 'agenda' | 'proposalDeadline' | 'noticeAt' | 'reminders' | `agenda.${number}`, string>
>

/** The request the form makes, before the schema parses it. */
export const requestOf = (values: AssemblyFormValues, companyId: string, id: string) => ({
  id,
  companyId,
  title: values.title,
  heldAt: values.heldAt,
  place: values.place,
  agenda: values.agenda,
  proposalDeadline: values.proposalDeadline,
  noticeAt: values.noticeMode === 'now' ? null : values.noticeAt,
  reminderDays: parseReminderDays(values.reminders),
})

const ahead = (local: string, now: number) => {
  const at = copenhagenLocalToInstant(local)
  return at !== undefined && new Date(at).getTime() > now
}

/**
 * What is wrong with the form, by field, in the user's language; empty when it may be sent.
 * `noticeOut`: the notice has gone out (its time is no longer the form's); `heldAtChanged`,
 * `deadlineChanged`: the meeting's time or the deadline is new (a stored one may have passed);
 * `deadlinePassed`: the stored deadline has passed, so it can no longer move.
 */
export function assemblyFormErrors(
  values: AssemblyFormValues,
  i18n: I18n,
  options: { now?: number; noticeOut?: boolean; heldAtChanged?: boolean; deadlineChanged?: boolean; deadlinePassed?: boolean } = {},
): AssemblyFormErrors {
  const now = options.now ?? Date.now()
  const errors: AssemblyFormErrors = {}
  const request = requestOf(values, '00000000-0000-4000-8000-000000000000', '00000000-0000-4000-8000-000000000000')
  const parsed = CreateAssemblyRequest.safeParse(options.noticeOut ? { ...request, noticeAt: null } : request)
  if (!parsed.success)
    for (const issue of parsed.error.issues) {
      const [field, index] = issue.path
      const key = (
        field === 'reminderDays' ? 'reminders'
        : field === 'agenda' && typeof index === 'number' ? `agenda.${index}`
        : String(field)) as keyof AssemblyFormErrors
      errors[key] ??= translateIssue(issue, i18n)
    }
  if (!errors.heldAt && options.heldAtChanged !== false && values.heldAt && !ahead(values.heldAt, now))
    errors.heldAt = i18n._(messages.assemblyMeetingInPast.id)
  if (options.deadlinePassed && options.deadlineChanged) errors.proposalDeadline = i18n._(messages.assemblyDeadlineFixed.id)
  else if (!errors.proposalDeadline && options.deadlineChanged !== false && values.proposalDeadline && !ahead(values.proposalDeadline, now))
    errors.proposalDeadline = i18n._(messages.assemblyDeadlineInPast.id)
  if (!options.noticeOut && values.noticeMode === 'at' && !errors.noticeAt) {
    if (!values.noticeAt) errors.noticeAt = i18n._(messages.assemblyNoticeAtInvalid.id)
    else if (!ahead(values.noticeAt, now - 60_000)) errors.noticeAt = i18n._(messages.assemblyNoticeInPast.id)
  }
  return errors
}
