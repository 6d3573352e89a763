import { and, asc, desc, eq, gt, inArray, isNotNull, isNull, lte, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { assemblyProposals, generalAssemblies, sendouts } from '../../db/schema/assemblies'
import { companies } from '../../db/schema/companies'

export type AssemblyRow = typeof generalAssemblies.$inferSelect
export type ProposalRow = typeof assemblyProposals.$inferSelect
export type SendoutRow = typeof sendouts.$inferSelect

/**
 * Who sees which assemblies (mirrors the service's `readable`, as SQL): the super admin all, the
 * company's staff (any role) every one of their companies, a member (resident) those of their
 * associations whose notice has gone out.
 */
export interface AssemblyScope {
  staffOf: 'all' | string[]
  memberOf: string[]
}

/** Proposals: staff all of their companies', an author their own, a member every submitted one once the deadline passed. */
export interface ProposalScope extends AssemblyScope {
  userId: string
  now: string
}

/** The notice of the assembly whose id is `assemblyId` has gone out. */
const noticeSent = (assemblyId: SQLWrapper): SQL =>
  sql`exists (select 1 from ${sendouts} where ${sendouts.assemblyId} = ${assemblyId} and ${sendouts.kind} = 'ASSEMBLY_NOTICE' and ${sendouts.sentAt} is not null)`

const none = sql`1 = 0`
const staffCompanies = (scope: AssemblyScope, column: SQLWrapper & Parameters<typeof inArray>[0]): SQL =>
  scope.staffOf === 'all' ? sql`1 = 1`
  : scope.staffOf.length ? inArray(column, scope.staffOf)
  : none

function visibleAssembly(scope: AssemblyScope): SQL {
  const member = scope.memberOf.length ? and(inArray(generalAssemblies.companyId, scope.memberOf), noticeSent(generalAssemblies.id))! : none
  return or(staffCompanies(scope, generalAssemblies.companyId), member)!
}

function visibleProposal(scope: ProposalScope): SQL {
  const published =
    scope.memberOf.length ?
      and(
        inArray(assemblyProposals.companyId, scope.memberOf),
        eq(assemblyProposals.status, 'SUBMITTED'),
        sql`exists (select 1 from ${generalAssemblies} where ${generalAssemblies.id} = ${assemblyProposals.assemblyId} and ${generalAssemblies.proposalDeadline} <= ${scope.now} and ${noticeSent(generalAssemblies.id)})`,
      )!
    : none
  return or(staffCompanies(scope, assemblyProposals.companyId), eq(assemblyProposals.authorUserId, scope.userId), published)!
}

/** Rows per INSERT (about ten parameters a row). */
const CHUNK = 200

export const assembliesRepository = {
  byId: async (db: Db, id: string): Promise<AssemblyRow | undefined> => await db.select().from(generalAssemblies).where(eq(generalAssemblies.id, id)).get(),

  insert: async (db: Db, row: typeof generalAssemblies.$inferInsert) => await db.insert(generalAssemblies).values(row).run(),

  /** Changes fields; a person's edit counts as a new version (`bump`), the job's bookkeeping does not. */
  update: async (db: Db, id: string, fields: Partial<typeof generalAssemblies.$inferInsert>, bump = true) =>
    await db
      .update(generalAssemblies)
      .set(bump ? { ...fields, version: sql`${generalAssemblies.version} + 1` } : fields)
      .where(eq(generalAssemblies.id, id))
      .run(),

  /**
   * A page of the list (docs/API.md "Lists"): latest meeting first by (heldAt, id), after the
   * cursor's key, one statement with `LIMIT` (the caller asks one row more than the page).
   */
  listPage: async (
    db: Db,
    scope: AssemblyScope,
    companyId: string | undefined,
    after: readonly [string, string] | undefined,
    limit: number,
  ): Promise<AssemblyRow[]> =>
    await db
      .select()
      .from(generalAssemblies)
      .where(
        and(
          visibleAssembly(scope),
          companyId ? eq(generalAssemblies.companyId, companyId) : undefined,
          after ? sql`(${generalAssemblies.heldAt}, ${generalAssemblies.id}) < (${after[0]}, ${after[1]})` : undefined,
        ),
      )
      .orderBy(desc(generalAssemblies.heldAt), desc(generalAssemblies.id))
      .limit(limit)
      .all(),

  /** Whether the scope sees this assembly. */
  visible: async (db: Db, scope: AssemblyScope, id: string): Promise<boolean> =>
    (await db
      .select({ id: generalAssemblies.id })
      .from(generalAssemblies)
      .where(and(eq(generalAssemblies.id, id), visibleAssembly(scope)))
      .get()) !== undefined,

  page: async (db: Db, scope: AssemblyScope, afterId: string | null, limit: number): Promise<AssemblyRow[]> =>
    await db
      .select()
      .from(generalAssemblies)
      .where(and(visibleAssembly(scope), afterId ? gt(generalAssemblies.id, afterId) : undefined))
      .orderBy(asc(generalAssemblies.id))
      .limit(limit)
      .all(),

  byIds: async (db: Db, scope: AssemblyScope, ids: string[]): Promise<AssemblyRow[]> =>
    ids.length ?
      await db
        .select()
        .from(generalAssemblies)
        .where(and(visibleAssembly(scope), inArray(generalAssemblies.id, ids)))
        .all()
    : [],

  /**
   * Planned assemblies whose deadline for proposals has passed since they last changed, with their
   * notice out: their submitted proposals become members' reading (the job tells the sync).
   */
  deadlinePassed: async (db: Db, now: string): Promise<AssemblyRow[]> =>
    await db
      .select()
      .from(generalAssemblies)
      .where(
        and(
          eq(generalAssemblies.status, 'PLANNED'),
          lte(generalAssemblies.proposalDeadline, now),
          sql`${generalAssemblies.updatedAt} < ${generalAssemblies.proposalDeadline}`,
          noticeSent(generalAssemblies.id),
        ),
      )
      .limit(100)
      .all(),

  companyNames: async (db: Db, companyIds: string[]): Promise<Map<string, string>> =>
    new Map(
      companyIds.length ?
        (await db.select({ id: companies.id, name: companies.name }).from(companies).where(inArray(companies.id, companyIds)).all()).map((c) => [c.id, c.name])
      : [],
    ),

  // ---- sendouts

  sendoutsOf: async (db: Db, assemblyIds: string[]): Promise<SendoutRow[]> =>
    assemblyIds.length ?
      await db.select().from(sendouts).where(inArray(sendouts.assemblyId, assemblyIds)).orderBy(asc(sendouts.dueAt), asc(sendouts.key)).all()
    : [],

  insertSendouts: async (db: Db, rows: Array<typeof sendouts.$inferInsert>) => {
    for (let i = 0; i < rows.length; i += CHUNK)
      await db
        .insert(sendouts)
        .values(rows.slice(i, i + CHUNK))
        .run()
  },

  /** Re-times a sendout that has not gone out. */
  retime: async (db: Db, id: string, dueAt: string) =>
    await db
      .update(sendouts)
      .set({ dueAt })
      .where(and(eq(sendouts.id, id), isNull(sendouts.sentAt)))
      .run(),

  /** Removes sendouts that have not gone out (sent ones stay, as the record of what went out). */
  deleteUnsent: async (db: Db, ids: string[]) =>
    ids.length ?
      await db
        .delete(sendouts)
        .where(and(inArray(sendouts.id, ids), isNull(sendouts.sentAt)))
        .run()
    : undefined,

  deleteUnsentOf: async (db: Db, assemblyId: string) =>
    await db
      .delete(sendouts)
      .where(and(eq(sendouts.assemblyId, assemblyId), isNull(sendouts.sentAt)))
      .run(),

  /** Sendouts whose time has come, oldest first (the notice before a reminder due at the same moment). */
  due: async (db: Db, now: string, limit: number): Promise<SendoutRow[]> =>
    await db
      .select()
      .from(sendouts)
      .where(and(isNull(sendouts.sentAt), lte(sendouts.dueAt, now)))
      .orderBy(asc(sendouts.dueAt), asc(sendouts.kind), asc(sendouts.id))
      .limit(limit)
      .all(),

  sendout: async (db: Db, id: string): Promise<SendoutRow | undefined> => await db.select().from(sendouts).where(eq(sendouts.id, id)).get(),

  /**
   * Claims a due sendout for the transaction that delivers it: the conditional UPDATE succeeds for
   * one transaction only, so on several instances it goes out once. Answers whether this one won.
   */
  claim: async (db: Db, id: string, now: string): Promise<boolean> =>
    (
      await db
        .update(sendouts)
        .set({ sentAt: now })
        .where(and(eq(sendouts.id, id), isNull(sendouts.sentAt)))
        .run()
    ).changes === 1,

  setRecipients: async (db: Db, id: string, recipients: number) => await db.update(sendouts).set({ recipients }).where(eq(sendouts.id, id)).run(),

  deleteSendout: async (db: Db, id: string) => await db.delete(sendouts).where(eq(sendouts.id, id)).run(),

  /**
   * The reading reminders of the year: inserted once per company and key (the unique index), an
   * unsent one re-timed when the company moved its day; one statement per chunk.
   */
  upsertReadings: async (db: Db, rows: Array<typeof sendouts.$inferInsert>) => {
    for (let i = 0; i < rows.length; i += CHUNK)
      await db
        .insert(sendouts)
        .values(rows.slice(i, i + CHUNK))
        .onConflictDoUpdate({ target: [sendouts.companyId, sendouts.key], set: { dueAt: sql`excluded.due_at` }, setWhere: isNull(sendouts.sentAt) })
        .run()
  },

  /** Active companies with a heating-and-water period, in one statement. */
  readingCompanies: async (db: Db) =>
    await db
      .select({ id: companies.id, start: companies.heatingWaterPeriodStartDate, end: companies.heatingWaterPeriodEndDate })
      .from(companies)
      .where(and(eq(companies.status, 'ACTIVE'), or(isNotNull(companies.heatingWaterPeriodStartDate), isNotNull(companies.heatingWaterPeriodEndDate))))
      .all(),

  company: async (db: Db, id: string) =>
    await db
      .select({
        id: companies.id,
        name: companies.name,
        status: companies.status,
        start: companies.heatingWaterPeriodStartDate,
        end: companies.heatingWaterPeriodEndDate,
      })
      .from(companies)
      .where(eq(companies.id, id))
      .get(),

  // ---- proposals

  proposalById: async (db: Db, id: string): Promise<ProposalRow | undefined> =>
    await db.select().from(assemblyProposals).where(eq(assemblyProposals.id, id)).get(),

  insertProposal: async (db: Db, row: typeof assemblyProposals.$inferInsert) => await db.insert(assemblyProposals).values(row).run(),

  updateProposal: async (db: Db, id: string, fields: Partial<typeof assemblyProposals.$inferInsert>) =>
    await db
      .update(assemblyProposals)
      .set({ ...fields, version: sql`${assemblyProposals.version} + 1` })
      .where(eq(assemblyProposals.id, id))
      .run(),

  /** An assembly's proposals the scope sees, oldest first. */
  proposalsOf: async (db: Db, scope: ProposalScope, assemblyId: string): Promise<ProposalRow[]> =>
    await db
      .select()
      .from(assemblyProposals)
      .where(and(eq(assemblyProposals.assemblyId, assemblyId), visibleProposal(scope)))
      .orderBy(asc(assemblyProposals.createdAt), asc(assemblyProposals.id))
      .all(),

  proposalPage: async (db: Db, scope: ProposalScope, afterId: string | null, limit: number): Promise<ProposalRow[]> =>
    await db
      .select()
      .from(assemblyProposals)
      .where(and(visibleProposal(scope), afterId ? gt(assemblyProposals.id, afterId) : undefined))
      .orderBy(asc(assemblyProposals.id))
      .limit(limit)
      .all(),

  proposalsByIds: async (db: Db, scope: ProposalScope, ids: string[]): Promise<ProposalRow[]> =>
    ids.length ?
      await db
        .select()
        .from(assemblyProposals)
        .where(and(visibleProposal(scope), inArray(assemblyProposals.id, ids)))
        .all()
    : [],

  /** An assembly's submitted proposals with their authors (what members read once the deadline passed; a withdrawn one never). */
  submitted: async (db: Db, assemblyId: string): Promise<Array<{ id: string; authorUserId: string | null }>> =>
    await db
      .select({ id: assemblyProposals.id, authorUserId: assemblyProposals.authorUserId })
      .from(assemblyProposals)
      .where(and(eq(assemblyProposals.assemblyId, assemblyId), eq(assemblyProposals.status, 'SUBMITTED')))
      .all(),
}
