import { and, asc, count, desc, eq, inArray, isNotNull, isNull, or, sql } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { statement } from '../../db/statement'
import { statementSendoutRecipients, statementSendouts } from '../../db/schema/statements'
import { users } from '../../db/schema/users'
import type { Addressee } from '../notifications'

export type StatementSendoutRow = typeof statementSendouts.$inferSelect

/**
 * Who gets a year's statement (decision 0068), listed in one statement when the year is queued:
 * every person with a document of the association issued in the period (1 January to its last
 * day; a member who moved out during it too), or a running (accepted) agreement there during it;
 * an erased account is left out. A member without an e-mail address is listed: the sendout did
 * not reach them (decision 0081).
 */
const listRecipients = statement<[sendoutId: string, companyId: string, from: string, to: string, companyId2: string, to2: string, from2: string], never>(
  `INSERT INTO statement_sendout_recipients (sendout_id, user_id)
   SELECT ?, u.id FROM users u
   WHERE u.email_address NOT LIKE '%@erased.invalid' AND u.id IN (
     SELECT member_user_id FROM invoices WHERE company_id = ? AND issue_date BETWEEN ? AND ?
     UNION
     SELECT member_user_id FROM agreements WHERE company_id = ? AND status = 'ACCEPTED'
       AND start_payment_date <= ? AND (termination_date IS NULL OR termination_date >= ?)
   )`,
)

/** The next batch of a sendout's recipients not told yet, as `tellMany` needs them (one without an address too: it is marked not reached). */
const unsent = statement<[sendoutId: string, limit: number], Addressee>(
  `SELECT u.id AS "id", u.full_name AS "fullName", u.email_address AS "emailAddress", u.language AS "language"
   FROM statement_sendout_recipients r JOIN users u ON u.id = r.user_id
   WHERE r.sendout_id = ? AND r.sent_at IS NULL
   ORDER BY r.user_id
   LIMIT ?`,
)

export const statementSendoutsRepository = {
  /**
   * Queues a sendout unless its unique key holds one already (the year's yearly statement; an
   * interim statement of the same day): answers whether this call queued it. A resend has no key.
   */
  queue: async (db: Db, row: typeof statementSendouts.$inferInsert): Promise<boolean> =>
    (await db.insert(statementSendouts).values(row).onConflictDoNothing().run()).changes === 1,

  byId: async (db: Db, id: string): Promise<StatementSendoutRow | undefined> =>
    await db.select().from(statementSendouts).where(eq(statementSendouts.id, id)).get(),

  /** A company's sendouts and their resends, newest year and request first (a few a year: a few dozen at most). */
  ofCompany: async (db: Db, companyId: string): Promise<StatementSendoutRow[]> =>
    await db
      .select()
      .from(statementSendouts)
      .where(eq(statementSendouts.companyId, companyId))
      .orderBy(desc(statementSendouts.year), desc(statementSendouts.requestedAt), desc(statementSendouts.id))
      .all(),

  /** Every recipient row of these sendouts and of their resends, with the sendout each row belongs to. */
  recipientsOf: async (db: Db, sendoutIds: readonly string[]) =>
    sendoutIds.length === 0 ?
      []
    : await db
        .select({
          sendoutId: statementSendoutRecipients.sendoutId,
          resendOfId: statementSendouts.resendOfId,
          userId: statementSendoutRecipients.userId,
          sentAt: statementSendoutRecipients.sentAt,
          mailId: statementSendoutRecipients.mailId,
        })
        .from(statementSendoutRecipients)
        .innerJoin(statementSendouts, eq(statementSendouts.id, statementSendoutRecipients.sendoutId))
        .where(or(inArray(statementSendouts.id, [...sendoutIds]), inArray(statementSendouts.resendOfId, [...sendoutIds])))
        .all(),

  /** These people's e-mail addresses now ('' when they have none). */
  addresses: async (db: Db, userIds: readonly string[]): Promise<Map<string, string>> => {
    const found = new Map<string, string>()
    for (let i = 0; i < userIds.length; i += 500)
      for (const u of await db
        .select({ id: users.id, email: users.emailAddress })
        .from(users)
        .where(inArray(users.id, userIds.slice(i, i + 500)))
        .all())
        found.set(u.id, u.email)
    return found
  },

  /** Lists these people as a resend's recipients. */
  addRecipients: async (db: Db, sendoutId: string, userIds: readonly string[]): Promise<void> => {
    for (let i = 0; i < userIds.length; i += 200)
      await db
        .insert(statementSendoutRecipients)
        .values(userIds.slice(i, i + 200).map((userId) => ({ sendoutId, userId })))
        .run()
  },

  /** Keeps the mail that told each claimed recipient (one statement per batch). */
  setMails: async (db: Db, sendoutId: string, mails: ReadonlyMap<string, string | null>): Promise<void> => {
    const pairs = [...mails].filter((p): p is [string, string] => p[1] !== null)
    if (!pairs.length) return
    const cases = sql.join(
      pairs.map(([userId, mailId]) => sql`WHEN ${userId} THEN ${mailId}`),
      sql` `,
    )
    await db
      .update(statementSendoutRecipients)
      .set({ mailId: sql`CASE ${statementSendoutRecipients.userId} ${cases} END` })
      .where(
        and(
          eq(statementSendoutRecipients.sendoutId, sendoutId),
          inArray(
            statementSendoutRecipients.userId,
            pairs.map((p) => p[0]),
          ),
        ),
      )
      .run()
  },

  queued: async (db: Db, limit: number): Promise<StatementSendoutRow[]> =>
    await db
      .select()
      .from(statementSendouts)
      .where(isNull(statementSendouts.sentAt))
      .orderBy(asc(statementSendouts.requestedAt), asc(statementSendouts.id))
      .limit(limit)
      .all(),

  /** Marks a sendout sent, with how many were told, once every recipient was: true for exactly one call. */
  finish: async (db: Db, id: string, now: string, told: number): Promise<boolean> =>
    (
      await db
        .update(statementSendouts)
        .set({ sentAt: now, recipients: told })
        .where(and(eq(statementSendouts.id, id), isNull(statementSendouts.sentAt)))
        .run()
    ).changes === 1,

  /** Lists the recipients of a just-queued sendout of 1 January to `to` (in the queuing transaction). */
  listRecipients: async (db: Db, sendoutId: string, companyId: string, year: number, to: string) =>
    await listRecipients.run(db, [sendoutId, companyId, `${year}-01-01`, to, companyId, to, `${year}-01-01`]),

  unsent: async (db: Db, sendoutId: string, limit: number): Promise<Addressee[]> => await unsent.all(db, [sendoutId, limit]),

  /** Claims these recipients for the transaction that tells them: answers the ones this call claimed. */
  claimRecipients: async (db: Db, sendoutId: string, userIds: readonly string[], now: string): Promise<string[]> =>
    (
      await db
        .update(statementSendoutRecipients)
        .set({ sentAt: now })
        .where(
          and(
            eq(statementSendoutRecipients.sendoutId, sendoutId),
            inArray(statementSendoutRecipients.userId, [...userIds]),
            isNull(statementSendoutRecipients.sentAt),
          ),
        )
        .returning({ userId: statementSendoutRecipients.userId })
        .all()
    ).map((r) => r.userId),

  /** How many of a sendout's recipients were told. */
  told: async (db: Db, sendoutId: string): Promise<number> =>
    (
      await db
        .select({ n: count() })
        .from(statementSendoutRecipients)
        .where(and(eq(statementSendoutRecipients.sendoutId, sendoutId), isNotNull(statementSendoutRecipients.sentAt)))
        .get()
    )?.n ?? 0,
}
