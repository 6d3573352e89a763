import { copenhagenLocalToInstant, instantToCopenhagenLocal } from './assembly'

/**
 * Push notifications to phones (docs/decisions/0088-push-notifications.md): the groups of
 * notification kinds a user chooses to have pushed, the one place each kind of notification is
 * given its group, and quiet hours.
 */
export const pushGroups = ['money', 'messages', 'forum', 'lending', 'assembly'] as const
export type PushGroup = (typeof pushGroups)[number]

/**
 * Each kind of notification's group, the ONE place this is decided. A notification's kind is
 * told by where it leads (its `actionUrl`): every feature links to its own screens. The kinds
 * whose link does not say (the meter-reading reminder leads to the start page) are named by their
 * title's catalog id. Security notices (a changed password, a new sign-in method) belong to no
 * group: they are never pushed, only shown in the app and e-mailed.
 */
const byPath: ReadonlyArray<readonly [prefix: string, group: PushGroup]> = [
  ['/agreements/', 'money'], // agreement awaiting acceptance, accepted, rejected, expired; payments, failed charges, refunds, invoices
  ['/account-statement', 'money'], // yearly and interim account statements
  ['/messages/', 'messages'], // a message from the association (each message type, anonymous ones too)
  ['/markets/listing/', 'messages'], // someone wrote to the seller about a listing
  ['/forum/', 'forum'], // a reply in a followed thread; a reported post (moderators)
  ['/lending/', 'lending'], // a loan request accepted, declined, cancelled; a contract changed
  ['/assemblies/', 'assembly'], // notice, reminder, cancellation of a general assembly
]
const byTitle: Readonly<Record<string, PushGroup>> = {
  'Please read your water and heat meters': 'assembly',
}

/** The group a notification belongs to, from its link and title id; undefined: never pushed. */
export function pushGroupOf(notification: { actionUrl?: string | null; titleId: string }): PushGroup | undefined {
  const titled = byTitle[notification.titleId]
  if (titled) return titled
  const url = notification.actionUrl ?? ''
  return byPath.find(([prefix]) => url.startsWith(prefix))?.[1]
}

/** A Copenhagen wall clock time `HH:mm`. */
export const CLOCK_TIME = /^([01]\d|2[0-3]):[0-5]\d$/

/**
 * When the quiet hours that hold `now` end (UTC ISO), or undefined when `now` is outside them.
 * `from`–`to` are Copenhagen wall times; `from` after `to` spans midnight (22:00–07:00), equal
 * times are no quiet hours. A push made in them is held until they end (decision 0088). Should
 * the end fall in the hour skipped when summer time begins, the first minute after it is taken.
 */
export function quietHoursEnd(now: Date, from: string | null | undefined, to: string | null | undefined): string | undefined {
  if (!from || !to || from === to) return undefined
  const local = instantToCopenhagenLocal(now.toISOString())
  const day = local.slice(0, 10)
  const time = local.slice(11)
  const inside = from < to ? time >= from && time < to : time >= from || time < to
  if (!inside) return undefined
  const endDay = time < to ? day : nextDay(day)
  return copenhagenLocalToInstant(`${endDay}T${to}`) ?? copenhagenLocalToInstant(`${endDay}T03:00`)
}

const nextDay = (day: string): string => new Date(Date.parse(`${day}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10)
