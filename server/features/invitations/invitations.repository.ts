import { and, asc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { statement, type Dialect } from '../../db/statement'
import { invitationSends, invitationSettings, mailBounces } from '../../db/schema/invitations'
import type { Language } from '../../../shared/contract/common'
import { newId } from '../../lib/ids'

/**
 * Who is invited (docs/decisions/0091), the one place that says so: everyone with a living
 * agreement in the association (offered, waiting at Vipps MobilePay, or running), and everyone who
 * lives in one of its households today (docs/decisions/0090 `livesThereOn`: moved in on or before
 * `@today`, not moved out yet), with an agreement or without — an imported household's residents
 * are invited to sign in before any agreement is theirs. Every count, queue and reminder follows.
 * Read in SQL beside the invitations' own rows, so 800 people are queued or counted in one statement.
 */
const peopleOf = (company: string) =>
  `SELECT a.member_user_id FROM agreements a WHERE a.company_id = ${company} AND a.status IN ('CREATED', 'PENDING', 'ACCEPTED')
   UNION SELECT r.user_id FROM household_residents r
   WHERE r.company_id = ${company} AND r.move_in_date <= @today AND (r.move_out_date IS NULL OR r.move_out_date > @today)`

/** Has signed in: a proven way to sign in (a password set from the link, Vipps MobilePay, a login token) or a session (decision 0001). */
const signedIn = (u: string) =>
  `(EXISTS (SELECT 1 FROM auth_methods m WHERE m.user_id = ${u}.id AND m.verified_at IS NOT NULL) OR EXISTS (SELECT 1 FROM sessions se WHERE se.user_id = ${u}.id))`

const bounced = (u: string) => `EXISTS (SELECT 1 FROM mail_bounces b WHERE b.email = ${u}.email_address)`
const notErased = (u: string) => `${u}.email_address NOT LIKE '%@erased.invalid'`
/** An agreement of theirs still to accept (offered, not answered). */
const toAccept = (u: string, company: string) =>
  `(SELECT COUNT(*) FROM agreements a2 WHERE a2.company_id = ${company} AND a2.member_user_id = ${u}.id AND a2.status = 'CREATED')`
/** Has a living agreement in the association: someone with an agreement to accept, as opposed to a resident without one. */
const hasAgreement = (u: string, company: string) =>
  `EXISTS (SELECT 1 FROM agreements a5 WHERE a5.company_id = ${company} AND a5.member_user_id = ${u}.id AND a5.status IN ('CREATED', 'PENDING', 'ACCEPTED'))`
/** Every living agreement of theirs runs (never so for someone without an agreement). */
const allAccepted = (u: string, company: string) =>
  `(EXISTS (SELECT 1 FROM agreements a3 WHERE a3.company_id = ${company} AND a3.member_user_id = ${u}.id AND a3.status = 'ACCEPTED')
    AND NOT EXISTS (SELECT 1 FROM agreements a4 WHERE a4.company_id = ${company} AND a4.member_user_id = ${u}.id AND a4.status IN ('CREATED', 'PENDING')))`

/** Those of the association an invitation may go to now: not signed in, not erased, address not bounced; all or the selection. */
const invitable = (d: Dialect) => `FROM users u
   WHERE u.id IN (${peopleOf('@companyId')}) AND ${notErased('u')} AND NOT ${signedIn('u')} AND NOT ${bounced('u')}
     AND (@everyone = 1 OR u.id IN (SELECT value FROM ${d.jsonValues('@selection', 'j')}))`

interface InviteParams {
  companyId: string
  /** Today in Copenhagen: who lives in a household today (docs/decisions/0090). */
  today: string
  everyone: 0 | 1
  /** A JSON array of user ids ('[]' for everyone). */
  selection: string
}

const countInvitable = statement<InviteParams, number>((d) => `SELECT COUNT(*) ${invitable(d)}`, { pluck: true })

const queueInvitations = statement<InviteParams & { now: string; by: string }, never>(
  (d) => `INSERT INTO invitation_sends (company_id, user_id, round, queued_at, queued_by_name)
   SELECT @companyId, u.id, 0, @now, @by ${invitable(d)}
   ON CONFLICT DO NOTHING`,
)

/**
 * The next reminder round of everyone in the association whose last invitation or reminder went
 * before `cutoff`, fewer than `max` reminders so far, still not signed in or with an agreement to
 * accept, address not bounced. The key (company, person, round) makes each round once.
 */
const planReminders = statement<{ companyId: string; today: string; now: string; cutoff: string; max: number }, never>(
  `INSERT INTO invitation_sends (company_id, user_id, round, queued_at)
   SELECT s.company_id, s.user_id, s.round + 1, @now
   FROM invitation_sends s JOIN users u ON u.id = s.user_id
   WHERE s.company_id = @companyId AND s.sent_at IS NOT NULL AND s.sent_at <= @cutoff AND s.round < @max
     AND NOT EXISTS (SELECT 1 FROM invitation_sends n WHERE n.company_id = s.company_id AND n.user_id = s.user_id AND n.round > s.round)
     AND u.id IN (${peopleOf('@companyId')}) AND ${notErased('u')} AND NOT ${bounced('u')}
     AND (NOT ${signedIn('u')} OR ${toAccept('u', '@companyId')} > 0)
   ON CONFLICT DO NOTHING`,
)

export interface DueSend {
  companyId: string
  userId: string
  round: number
  fullName: string
  emailAddress: string
  language: Language
  signedIn: number
  bounced: number
}

/**
 * The next sends not claimed yet, oldest first, with what the mail needs about each person. On
 * PostgreSQL the rows are locked for the batch's transaction and rows another instance's batch holds
 * are skipped, so two instances send different batches at once and never wait on (or deadlock over)
 * each other's claims; SQLite has one writer at a time anyway.
 */
const due = statement<[limit: number], DueSend>(
  (d) => `SELECT s.company_id AS "companyId", s.user_id AS "userId", s.round AS "round", u.full_name AS "fullName",
     u.email_address AS "emailAddress", u.language AS "language",
     CASE WHEN ${signedIn('u')} THEN 1 ELSE 0 END AS "signedIn", CASE WHEN ${bounced('u')} THEN 1 ELSE 0 END AS "bounced"
   FROM invitation_sends s JOIN users u ON u.id = s.user_id
   WHERE s.sent_at IS NULL
   ORDER BY s.queued_at, s.company_id, s.user_id, s.round
   LIMIT ?${d.engine === 'postgres' ? ' FOR UPDATE OF s SKIP LOCKED' : ''}`,
)

export interface OpenAgreement {
  id: string
  companyId: string
  memberUserId: string
  externalSeq: number
}

/** The agreements these people still have to accept (offered, not answered), in any association. */
const openAgreements = statement<[userIds: string], OpenAgreement>(
  (d) => `SELECT a.id AS "id", a.company_id AS "companyId", a.member_user_id AS "memberUserId", a.external_seq AS "externalSeq"
   FROM agreements a WHERE a.status = 'CREATED' AND a.member_user_id IN (SELECT value FROM ${d.jsonValues('?', 'j')})
   ORDER BY a.external_seq`,
)

const companyNames = statement<[ids: string], { id: string; name: string }>(
  (d) => `SELECT c.id AS "id", c.name AS "name" FROM companies c WHERE c.id IN (SELECT value FROM ${d.jsonValues('?', 'j')})`,
)

/**
 * The association's counts over everyone it invites (decision 0091), in one statement: signed in
 * over all of them, accepted over those with an agreement.
 */
const counts = statement<
  { companyId: string; today: string },
  Record<'total' | 'signedIn' | 'withAgreement' | 'accepted' | 'bounced' | 'notInvited' | 'queued', number | string | null>
>(
  `SELECT COUNT(*) AS "total",
     SUM(CASE WHEN ${signedIn('u')} THEN 1 ELSE 0 END) AS "signedIn",
     SUM(CASE WHEN ${hasAgreement('u', '@companyId')} THEN 1 ELSE 0 END) AS "withAgreement",
     SUM(CASE WHEN ${allAccepted('u', '@companyId')} THEN 1 ELSE 0 END) AS "accepted",
     SUM(CASE WHEN ${bounced('u')} THEN 1 ELSE 0 END) AS "bounced",
     SUM(CASE WHEN NOT ${signedIn('u')} AND NOT ${bounced('u')}
       AND NOT EXISTS (SELECT 1 FROM invitation_sends s WHERE s.company_id = @companyId AND s.user_id = u.id AND s.round = 0) THEN 1 ELSE 0 END) AS "notInvited",
     (SELECT COUNT(*) FROM invitation_sends q WHERE q.company_id = @companyId AND q.sent_at IS NULL) AS "queued"
   FROM users u WHERE u.id IN (${peopleOf('@companyId')}) AND ${notErased('u')}`,
)

export interface PersonRow {
  userId: string
  name: string
  email: string
  signedIn: number
  toAccept: number | string
  hasAgreement: number
  accepted: number
  bounced: number
  lastSentAt: string | null
  reminders: number | string
  queued: number
}

/** A page of those not done (not signed in, or an agreement not accepted), by name, after (name, id). */
const people = statement<{ companyId: string; today: string; from: 0 | 1; afterName: string; afterId: string; limit: number }, PersonRow>(
  `SELECT u.id AS "userId", u.full_name AS "name", u.email_address AS "email",
     CASE WHEN ${signedIn('u')} THEN 1 ELSE 0 END AS "signedIn",
     ${toAccept('u', '@companyId')} AS "toAccept",
     CASE WHEN ${hasAgreement('u', '@companyId')} THEN 1 ELSE 0 END AS "hasAgreement",
     CASE WHEN ${allAccepted('u', '@companyId')} THEN 1 ELSE 0 END AS "accepted",
     CASE WHEN ${bounced('u')} THEN 1 ELSE 0 END AS "bounced",
     (SELECT MAX(s.sent_at) FROM invitation_sends s WHERE s.company_id = @companyId AND s.user_id = u.id AND s.mail_id IS NOT NULL) AS "lastSentAt",
     (SELECT COUNT(*) FROM invitation_sends s WHERE s.company_id = @companyId AND s.user_id = u.id AND s.round > 0 AND s.mail_id IS NOT NULL) AS "reminders",
     CASE WHEN EXISTS (SELECT 1 FROM invitation_sends s WHERE s.company_id = @companyId AND s.user_id = u.id AND s.sent_at IS NULL) THEN 1 ELSE 0 END AS "queued"
   FROM users u
   WHERE u.id IN (${peopleOf('@companyId')}) AND ${notErased('u')}
     AND (NOT ${signedIn('u')} OR (${hasAgreement('u', '@companyId')} AND NOT ${allAccepted('u', '@companyId')}))
     AND (@from = 0 OR u.full_name > @afterName OR (u.full_name = @afterName AND u.id > @afterId))
   ORDER BY u.full_name, u.id
   LIMIT @limit`,
)

const num = (v: number | string | null | undefined): number => Number(v ?? 0)

export type SettingsRow = typeof invitationSettings.$inferSelect

export const invitationsRepository = {
  /** How many of those asked for (everyone, or the selection) may be invited now, invited before or not. */
  countInvitable: async (db: Db, companyId: string, today: string, selection: readonly string[] | undefined): Promise<number> =>
    num(await countInvitable.get(db, { companyId, today, everyone: selection ? 0 : 1, selection: JSON.stringify(selection ?? []) })),

  /** Queues the invitation of each of them not invited before, in one statement: how many it queued. */
  queueInvitations: async (db: Db, companyId: string, today: string, selection: readonly string[] | undefined, now: string, by: string): Promise<number> =>
    (await queueInvitations.run(db, { companyId, today, everyone: selection ? 0 : 1, selection: JSON.stringify(selection ?? []), now, by })).changes,

  planReminders: async (db: Db, companyId: string, today: string, now: string, cutoff: string, max: number): Promise<number> =>
    (await planReminders.run(db, { companyId, today, now, cutoff, max })).changes,

  /** Associations with an invitation sent, and their reminder rules (a row, or none for the defaults). */
  remindable: async (db: Db): Promise<{ companyId: string; settings: SettingsRow | undefined }[]> => {
    const ids = (
      await db
        .selectDistinct({ companyId: invitationSends.companyId })
        .from(invitationSends)
        .where(and(eq(invitationSends.round, 0), isNotNull(invitationSends.sentAt)))
        .all()
    ).map((r) => r.companyId)
    if (!ids.length) return []
    const settings = new Map(
      (await db.select().from(invitationSettings).where(inArray(invitationSettings.companyId, ids)).all()).map((row) => [row.companyId, row]),
    )
    return ids.map((companyId) => ({ companyId, settings: settings.get(companyId) }))
  },

  due: async (db: Db, limit: number): Promise<DueSend[]> => await due.all(db, [limit]),

  openAgreements: async (db: Db, userIds: readonly string[]): Promise<OpenAgreement[]> =>
    userIds.length ? await openAgreements.all(db, [JSON.stringify(userIds)]) : [],

  companyNames: async (db: Db, ids: readonly string[]): Promise<Map<string, string>> =>
    new Map((await companyNames.all(db, [JSON.stringify(ids)])).map((c) => [c.id, c.name])),

  /** Claims these sends of one association and round: answers the people this call claimed. */
  claim: async (db: Db, companyId: string, round: number, userIds: readonly string[], now: string): Promise<string[]> =>
    (
      await db
        .update(invitationSends)
        .set({ sentAt: now })
        .where(
          and(
            eq(invitationSends.companyId, companyId),
            eq(invitationSends.round, round),
            inArray(invitationSends.userId, [...userIds]),
            isNull(invitationSends.sentAt),
          ),
        )
        .returning({ userId: invitationSends.userId })
        .all()
    ).map((r) => r.userId),

  /** Marks claimed sends that sent no mail, with why. */
  skip: async (db: Db, companyId: string, round: number, userIds: readonly string[], why: 'BOUNCED' | 'NO_ADDRESS' | 'DONE'): Promise<void> => {
    if (!userIds.length) return
    await db
      .update(invitationSends)
      .set({ skipped: why })
      .where(and(eq(invitationSends.companyId, companyId), eq(invitationSends.round, round), inArray(invitationSends.userId, [...userIds])))
      .run()
  },

  /** Keeps the mail of each claimed send (one statement per association and round). */
  setMails: async (db: Db, companyId: string, round: number, mails: ReadonlyMap<string, string>): Promise<void> => {
    if (!mails.size) return
    const cases = sql.join(
      [...mails].map(([userId, mailId]) => sql`WHEN ${userId} THEN ${mailId}`),
      sql` `,
    )
    await db
      .update(invitationSends)
      .set({ mailId: sql`CASE ${invitationSends.userId} ${cases} END` })
      .where(and(eq(invitationSends.companyId, companyId), eq(invitationSends.round, round), inArray(invitationSends.userId, [...mails.keys()])))
      .run()
  },

  counts: async (db: Db, companyId: string, today: string) => {
    const row = await counts.get(db, { companyId, today })
    return {
      total: num(row?.total),
      signedIn: num(row?.signedIn),
      withAgreement: num(row?.withAgreement),
      accepted: num(row?.accepted),
      bounced: num(row?.bounced),
      notInvited: num(row?.notInvited),
      queued: num(row?.queued),
    }
  },

  people: async (db: Db, companyId: string, today: string, after: { name: string; id: string } | undefined, limit: number): Promise<PersonRow[]> =>
    await people.all(db, { companyId, today, from: after ? 1 : 0, afterName: after?.name ?? '', afterId: after?.id ?? '', limit }),

  settings: async (db: Db, companyId: string): Promise<SettingsRow | undefined> =>
    await db.select().from(invitationSettings).where(eq(invitationSettings.companyId, companyId)).get(),

  saveSettings: async (db: Db, row: SettingsRow): Promise<void> => {
    const { companyId, ...rest } = row
    await db.insert(invitationSettings).values(row).onConflictDoUpdate({ target: invitationSettings.companyId, set: rest }).run()
  },

  /** Records a bounce or complaint of an address: the latest notice wins (an address listed already has its row updated). */
  bounce: async (db: Db, row: Omit<typeof mailBounces.$inferInsert, 'id'>): Promise<void> => {
    const { email, ...rest } = row
    const updated = await db.update(mailBounces).set(rest).where(eq(mailBounces.email, email)).run()
    if (updated.changes === 0)
      await db
        .insert(mailBounces)
        .values({ id: newId(), ...row })
        .run()
  },

  /** The queued sends of an association, oldest first (tests and the screen's count). */
  sendsOf: async (db: Db, companyId: string) =>
    await db.select().from(invitationSends).where(eq(invitationSends.companyId, companyId)).orderBy(asc(invitationSends.queuedAt)).all(),
}
