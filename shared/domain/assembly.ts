/**
 * General assemblies (generalforsamling, docs/PRODUCT.md "General assembly",
 * docs/decisions/0061-general-assembly-sendouts.md): Copenhagen wall times, when the notice and the
 * reminders go out, and when the water and heat meters are read. Pure, so the server's schedule and
 * the client's screens agree.
 */
import { TZDate } from '@date-fns/tz'
import { COPENHAGEN } from './copenhagen'
import { parseDayMonth } from './day-month'

/** A Copenhagen wall time as a form holds it (a datetime-local field): `YYYY-MM-DDTHH:mm`. */
export const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/

/** Reminders before the meeting when the board names none: 14 and 2 days. */
export const DEFAULT_REMINDER_DAYS: readonly number[] = [14, 2]
export const MIN_REMINDER_DAYS = 1
export const MAX_REMINDER_DAYS = 60
export const MAX_REMINDERS = 6
export const MAX_AGENDA_ITEMS = 40

/** The hour (Copenhagen) the reading reminders go out on the first and the last day of the heating-and-water period. */
export const READING_HOUR = 8

/**
 * A Copenhagen wall time → its UTC instant (ISO), daylight saving included; undefined for a time
 * that is not a real date, or that does not exist in Copenhagen (the hour skipped when summer time
 * begins, e.g. 2027-03-28T02:30): the instant read back must be the same wall time, so nothing is
 * silently moved. A time that occurs twice (the hour repeated in October) is its first occurrence.
 */
export function copenhagenLocalToInstant(local: string): string | undefined {
  const m = LOCAL_DATE_TIME.exec(local)
  if (!m) return undefined
  const [y, mo, d, h, mi] = m.slice(1).map(Number) as [number, number, number, number, number]
  if (mo < 1 || mo > 12 || h > 23 || mi > 59) return undefined
  const at = new TZDate(y, mo - 1, d, h, mi, COPENHAGEN)
  if (Number.isNaN(at.getTime())) return undefined
  const iso = new Date(at.getTime()).toISOString()
  return instantToCopenhagenLocal(iso) === local ? iso : undefined
}

const pad = (n: number) => String(n).padStart(2, '0')

/** A UTC instant → Copenhagen wall time `YYYY-MM-DDTHH:mm` (what an edit form shows). */
export function instantToCopenhagenLocal(iso: string): string {
  const at = new TZDate(new Date(iso).getTime(), COPENHAGEN)
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`
}

/** The same Copenhagen wall time `days` calendar days before the instant (a reminder before the meeting). */
export function daysBefore(iso: string, days: number): string {
  const at = new TZDate(new Date(iso).getTime(), COPENHAGEN)
  const earlier = new TZDate(at.getFullYear(), at.getMonth(), at.getDate() - days, at.getHours(), at.getMinutes(), COPENHAGEN)
  return new Date(earlier.getTime()).toISOString()
}

export type AssemblySendoutKind = 'ASSEMBLY_NOTICE' | 'ASSEMBLY_REMINDER'

export interface PlannedSendout {
  kind: AssemblySendoutKind
  /** Days before the meeting (a reminder); null for the notice. */
  days: number | null
  key: string
  dueAt: string
}

/** The sendout's key: one notice and one reminder per number of days, per assembly. */
export const assemblySendoutKey = (assemblyId: string, days: number | null): string =>
  days === null ? `assembly:${assemblyId}:notice` : `assembly:${assemblyId}:reminder:${days}`

/** The days of a reminder key, null for the notice's. */
export function daysOfKey(key: string): number | null {
  const m = /:reminder:(\d+)$/.exec(key)
  return m ? Number(m[1]) : null
}

/**
 * What should go out for an assembly, as of `now`: the notice at `noticeAt`, and a reminder N days
 * before the meeting for each N, unless that time is not after the notice, not before the
 * meeting, or already past (a reminder is never sent late).
 */
export function plannedSendouts(assembly: { id: string; heldAt: string; noticeAt: string; reminderDays: readonly number[] }, now: string): PlannedSendout[] {
  const notice: PlannedSendout = { kind: 'ASSEMBLY_NOTICE', days: null, key: assemblySendoutKey(assembly.id, null), dueAt: assembly.noticeAt }
  const reminders = [...new Set(assembly.reminderDays)]
    .sort((a, b) => b - a)
    .map((days): PlannedSendout => ({ kind: 'ASSEMBLY_REMINDER', days, key: assemblySendoutKey(assembly.id, days), dueAt: daysBefore(assembly.heldAt, days) }))
    .filter((r) => r.dueAt > assembly.noticeAt && r.dueAt < assembly.heldAt && r.dueAt > now)
  return [notice, ...reminders]
}

/** Whether members may still submit or withdraw proposals: a planned assembly before its deadline. */
export const proposalsOpen = (assembly: { status: string; proposalDeadline: string }, now: string): boolean =>
  assembly.status === 'PLANNED' && now < assembly.proposalDeadline

export type ReadingKind = 'READING_START' | 'READING_END'

/**
 * The next reading reminder for a `dd.mm` day of the heating-and-water period: at 08:00 Copenhagen
 * on the first such day after `now` (this year's, or a later year's; 29.02 waits for a leap year).
 * Its key names the year, so each goes out once a year. Undefined for a day that is not a date.
 */
export function nextReading(kind: ReadingKind, dayMonth: string, now: Date): { key: string; dueAt: string; year: number } | undefined {
  const year = new TZDate(now.getTime(), COPENHAGEN).getFullYear()
  for (let y = year; y <= year + 8; y++) {
    const day = parseDayMonth(dayMonth, y)
    if (!day) continue
    const at = new TZDate(y, day.month - 1, day.day, READING_HOUR, 0, COPENHAGEN)
    if (at.getTime() > now.getTime()) return { key: readingKey(kind, y), dueAt: new Date(at.getTime()).toISOString(), year: y }
  }
  return undefined
}

export const readingKey = (kind: ReadingKind, year: number): string => `reading:${kind === 'READING_START' ? 'start' : 'end'}:${year}`

/** The year a reading key names. */
export const yearOfReadingKey = (key: string): number | undefined => {
  const m = /^reading:(?:start|end):(\d{4})$/.exec(key)
  return m ? Number(m[1]) : undefined
}

/** The reading reminder for `dd.mm` in a given year (at 08:00 Copenhagen), undefined when that is not a date that year. */
export function readingDueIn(dayMonth: string, year: number): string | undefined {
  const day = parseDayMonth(dayMonth, year)
  if (!day) return undefined
  return new Date(new TZDate(year, day.month - 1, day.day, READING_HOUR, 0, COPENHAGEN).getTime()).toISOString()
}
