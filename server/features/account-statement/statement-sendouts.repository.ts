import { and, asc, count, desc, eq, inArray, isNotNull, isNull } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { statement } from '../../db/statement'
import { statementSendoutRecipients, statementSendouts } from '../../db/schema/statements'
import type { Addressee } from '../notifications'

export type StatementSendoutRow = typeof statementSendouts.$inferSelect

/**
 * Who gets a year's statement (decision 0068), listed in one statement when the year is queued:
 * every person with a document of the association issued in the year (a member who moved out
 * during it too), or a running (accepted) agreement there during the year; an erased account (no
 * e-mail address) is left out.
 */
const listRecipients = statement<[sendoutId: string, companyId: string, from: string, to: string, companyId2: string, to2: string, from2: string], never>(
  `INSERT INTO statement_sendout_recipients (sendout_id, user_id)
   SELECT ?, u.id FROM users u
   WHERE u.email_address <> '' AND u.id IN (
     SELECT member_user_id FROM invoices WHERE company_id = ? AND issue_date BETWEEN ? AND ?
     UNION
     SELECT member_user_id FROM agreements WHERE company_id = ? AND status = 'ACCEPTED'
       AND start_payment_date <= ? AND (termination_date IS NULL OR termination_date >= ?)
   )`,
)

/** The next batch of a sendout's recipients not told yet, as `tellMany` needs them. */
const unsent = statement<[sendoutId: string, limit: number], Addressee>(
  `SELECT u.id AS "id", u.full_name AS "fullName", u.email_address AS "emailAddress", u.language AS "language"
   FROM statement_sendout_recipients r JOIN users u ON u.id = r.user_id
   WHERE r.sendout_id = ? AND r.sent_at IS NULL AND u.email_address <> ''
   ORDER BY r.user_id
   LIMIT ?`,
)

export const statementSendoutsRepository = {
  /** Queues the year's sendout unless it exists: answers whether this call queued it. */
  queue: async (db: Db, row: typeof statementSendouts.$inferInsert): Promise<boolean> =>
    (
      await db
        .insert(statementSendouts)
        .values(row)
        .onConflictDoNothing({ target: [statementSendouts.companyId, statementSendouts.year] })
        .run()
    ).changes === 1,

  byYear: async (db: Db, companyId: string, year: number): Promise<StatementSendoutRow | undefined> =>
    await db
      .select()
      .from(statementSendouts)
      .where(and(eq(statementSendouts.companyId, companyId), eq(statementSendouts.year, year)))
      .get(),

  /** A company's sendouts, newest year first (a row a year: a few dozen at most). */
  ofCompany: async (db: Db, companyId: string): Promise<StatementSendoutRow[]> =>
    await db.select().from(statementSendouts).where(eq(statementSendouts.companyId, companyId)).orderBy(desc(statementSendouts.year)).all(),

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

  /** Lists the year's recipients of a just-queued sendout (in the queuing transaction). */
  listRecipients: async (db: Db, sendoutId: string, companyId: string, year: number) =>
    await listRecipients.run(db, [sendoutId, companyId, `${year}-01-01`, `${year}-12-31`, companyId, `${year}-12-31`, `${year}-01-01`]),

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
