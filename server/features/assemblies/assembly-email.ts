import type { MessageDescriptor } from '@lingui/core'
import { translate, type Locale } from '../../i18n/i18n'
import { COPENHAGEN } from '../../lib/clock'
import type { Notice } from '../notifications'
import type { ReadingKind } from '../../../shared/domain/assembly'

/**
 * What members are told about a general assembly and the meter readings (docs/decisions/0061-general-assembly-sendouts.md): the in-app
 * notification (its text in every language, from these descriptors) and the e-mail, in each
 * member's own language, with the meeting's time written that language's way in Copenhagen time.
 */
const OPEN_ASSEMBLY = /*i18n*/ { id: 'Open the general assembly' }

const TEXTS = {
  notice: {
    title: /*i18n*/ { id: 'Notice of general assembly: {title}' },
    message: /*i18n*/ { id: '{association} calls its members to the general assembly "{title}".' },
  },
  reminder: {
    title: /*i18n*/ { id: 'Reminder: general assembly {title}' },
    message: /*i18n*/ { id: 'The general assembly "{title}" of {association} is in {days, plural, one {# day} other {# days}}.' },
  },
  cancelled: {
    title: /*i18n*/ { id: 'Cancelled: general assembly {title}' },
    message: /*i18n*/ { id: '{association} has cancelled the general assembly "{title}".' },
  },
} satisfies Record<string, { title: MessageDescriptor; message: MessageDescriptor }>

export type AssemblyNoticeKind = keyof typeof TEXTS

/** The notification of a notice, a reminder or a cancellation; `days` for a reminder. */
export function assemblyNotice(kind: AssemblyNoticeKind, a: { id: string; title: string }, association: string, days: number | null): Notice {
  return {
    type: kind === 'cancelled' ? 'warning' : 'info',
    title: TEXTS[kind].title,
    message: TEXTS[kind].message,
    values: { title: a.title, association, ...(days !== null ? { days } : {}) },
    actionUrl: `/assemblies/${a.id}`,
    actionText: OPEN_ASSEMBLY,
  }
}

const intlLocale = (locale: Locale) => (locale === 'da' ? 'da-DK' : 'en-GB')
const formats = new Map<Locale, Intl.DateTimeFormat>()

/** An instant as the language writes a meeting's time, in Copenhagen: "fredag den 12. marts 2027 kl. 19.00", "Friday, 12 March 2027 at 19:00". */
export function meetingTime(iso: string, locale: Locale): string {
  let format = formats.get(locale)
  if (!format) formats.set(locale, (format = new Intl.DateTimeFormat(intlLocale(locale), { dateStyle: 'full', timeStyle: 'short', timeZone: COPENHAGEN })))
  return format.format(new Date(iso))
}

/**
 * The e-mail's paragraphs after the message, in a language: when and where, and for a notice or a
 * reminder the agenda (numbered) and the deadline for proposals.
 */
export function assemblyDetails(
  locale: Locale,
  a: { heldAt: string; place: string; agenda: readonly string[]; proposalDeadline: string },
  full: boolean,
): string[] {
  const lines = [
    translate(locale, /*i18n*/ { id: 'When: {when}' }, { when: meetingTime(a.heldAt, locale) }),
    translate(locale, /*i18n*/ { id: 'Where: {place}' }, { place: a.place }),
  ]
  if (!full) return lines
  return [
    ...lines,
    translate(locale, /*i18n*/ { id: 'Agenda:' }),
    ...a.agenda.map((item, i) => `${i + 1}. ${item}`),
    translate(locale, /*i18n*/ { id: 'Proposals must reach the board by {deadline}.' }, { deadline: meetingTime(a.proposalDeadline, locale) }),
  ]
}

/** The reading reminder at the start or the end of the heating-and-water period. */
export function readingNotice(kind: ReadingKind, association: string): Notice {
  return {
    type: 'info',
    title: /*i18n*/ { id: 'Please read your water and heat meters' },
    message:
      kind === 'READING_START' ?
        /*i18n*/ { id: 'The heating and water period of {association} starts today. Please read your water and heat meters.' }
      : /*i18n*/ { id: 'The heating and water period of {association} ends today. Please read your water and heat meters.' },
    values: { association },
    actionUrl: '/',
    actionText: /*i18n*/ { id: 'Open Boligkasse' },
  }
}
