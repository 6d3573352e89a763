import type { LocalDb, Row } from '../../sync/local-db'
import { sharedQuery, type SharedQuery } from '../../sync/shared-query'
import { ERASED_NAME } from '../../../shared/contract/personal-data'

/** Someone whose personal data may be erased on request: a member of an agreement of the association (in any state). */
export interface Person {
  userId: string
  name: string
  email: string
}

/**
 * The people a request can be recorded for, from the device's copy: the members of the
 * association's agreements, each once, by name; its staff (member rows: never erased while they
 * hold the role, decision 0080), already erased accounts and the caller left out. Pure, so it is
 * tested without a database.
 */
export function erasablePeople(members: readonly Row[], agreements: readonly Row[], selfId: string | undefined): Person[] {
  const staff = new Set(members.map((m) => m.userId).filter((id): id is string => typeof id === 'string'))
  const people = new Map<string, Person>()
  for (const a of agreements) {
    const member = a.member as { userId?: string; fullName?: string; emailAddress?: string } | undefined
    if (member?.userId && !people.has(member.userId))
      people.set(member.userId, { userId: member.userId, name: member.fullName ?? '', email: member.emailAddress ?? '' })
  }
  return [...people.values()]
    .filter((p) => p.userId !== selfId && !staff.has(p.userId) && p.name !== ERASED_NAME)
    .sort((a, b) => a.name.localeCompare(b.name, 'da') || a.email.localeCompare(b.email))
}

/** The company's agreements on the device (staff keep all of them). */
export const companyAgreementsQuery = (companyId: string): SharedQuery<Row[]> =>
  sharedQuery(
    `personal-data-agreements:${companyId}`,
    ['agreements'],
    async (db: LocalDb) => (await db.agreements.where('companyId').equals(companyId).toArray()) as Row[],
  )

/** Today's date in Copenhagen, `YYYY-MM-DD` (the day a request is dated by default). */
export const copenhagenToday = (now: Date = new Date()): string => new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Copenhagen' }).format(now)
