import { and, asc, count, desc, eq, inArray, max } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { agreementAddresses, agreementParts, agreements } from '../../db/schema/agreements'
import { addresses, companyMembers } from '../../db/schema/companies'
import { users } from '../../db/schema/users'
import type { AgreementStatus } from '../../../shared/domain/agreement-status'

export type AgreementRow = typeof agreements.$inferSelect
export type PartRow = typeof agreementParts.$inferSelect
export type AgreementAddressRow = typeof addresses.$inferSelect

/** Which agreements a caller sees: `all`, or those of some companies and/or of one member. */
export type AgreementScope = 'all' | { companyIds: string[]; memberUserId: string }

/** Rows a multi-row statement writes at once (well below SQLite's and PostgreSQL's parameter limits). */
const CHUNK = 100
const chunks = <T>(all: readonly T[]): T[][] => Array.from({ length: Math.ceil(all.length / CHUNK) }, (_, i) => all.slice(i * CHUNK, (i + 1) * CHUNK))

/**
 * Queries on agreements, their parts and addresses (charges: billing/charges.repository.ts). The
 * list's and the sync snapshot's pages and the views' set-based reads are prepared statements in
 * agreements.reads.ts.
 */
export const agreementsRepository = {
  byId: async (db: Db, id: string): Promise<AgreementRow | undefined> => await db.select().from(agreements).where(eq(agreements.id, id)).get(),
  byIds: async (db: Db, ids: string[]): Promise<AgreementRow[]> =>
    ids.length ? await db.select().from(agreements).where(inArray(agreements.id, ids)).all() : [],
  byVippsId: async (db: Db, vippsAgreementId: string): Promise<AgreementRow | undefined> =>
    await db.select().from(agreements).where(eq(agreements.vippsAgreementId, vippsAgreementId)).get(),

  withStatus: async (db: Db, status: AgreementStatus): Promise<AgreementRow[]> => await db.select().from(agreements).where(eq(agreements.status, status)).all(),

  nextSeq: async (db: Db, companyId: string): Promise<number> =>
    ((
      await db
        .select({ n: max(agreements.externalSeq) })
        .from(agreements)
        .where(eq(agreements.companyId, companyId))
        .get()
    )?.n ?? 1000) + 1,

  countOfCompany: async (db: Db, companyId: string): Promise<number> =>
    (await db.select({ n: count() }).from(agreements).where(eq(agreements.companyId, companyId)).get())?.n ?? 0,

  addressInUse: async (db: Db, addressId: string): Promise<boolean> =>
    (await db.select({ n: count() }).from(agreementAddresses).where(eq(agreementAddresses.addressId, addressId)).get())!.n > 0,

  insert: async (db: Db, row: typeof agreements.$inferInsert): Promise<void> => {
    await db.insert(agreements).values(row).run()
  },
  update: async (db: Db, id: string, changes: Partial<typeof agreements.$inferInsert>): Promise<void> => {
    await db.update(agreements).set(changes).where(eq(agreements.id, id)).run()
  },

  /** Many new agreements, their parts and their addresses in multi-row statements of `CHUNK` (docs/decisions/0093). */
  insertMany: async (
    db: Db,
    rows: (typeof agreements.$inferInsert)[],
    parts: (typeof agreementParts.$inferInsert)[],
    links: (typeof agreementAddresses.$inferInsert)[],
  ): Promise<void> => {
    for (const part of chunks(rows)) await db.insert(agreements).values(part).run()
    for (const part of chunks(parts)) await db.insert(agreementParts).values(part).run()
    for (const part of chunks(links)) await db.insert(agreementAddresses).values(part).run()
  },

  replaceParts: async (db: Db, agreementId: string, parts: Omit<PartRow, 'agreementId'>[]): Promise<void> => {
    await db.delete(agreementParts).where(eq(agreementParts.agreementId, agreementId)).run()
    if (parts.length)
      await db
        .insert(agreementParts)
        .values(parts.map((p) => ({ ...p, agreementId })))
        .run()
  },

  /** The agreements of these addresses (households, docs/decisions/0090) with the address each covers, newest first, in one statement. */
  atAddresses: async (db: Db, addressIds: string[]): Promise<(AgreementRow & { addressId: string })[]> =>
    addressIds.length ?
      (
        await db
          .select({ agreement: agreements, addressId: agreementAddresses.addressId })
          .from(agreementAddresses)
          .innerJoin(agreements, eq(agreements.id, agreementAddresses.agreementId))
          .where(inArray(agreementAddresses.addressId, addressIds))
          .orderBy(desc(agreements.createdAt), desc(agreements.id))
          .all()
      ).map((r) => ({ ...r.agreement, addressId: r.addressId }))
    : [],

  addressIds: async (db: Db, agreementId: string): Promise<string[]> =>
    (
      await db
        .select({ id: agreementAddresses.addressId })
        .from(agreementAddresses)
        .where(eq(agreementAddresses.agreementId, agreementId))
        .orderBy(asc(agreementAddresses.position))
        .all()
    ).map((r) => r.id),
  linkAddresses: async (db: Db, agreementId: string, addressIds: string[]): Promise<void> => {
    if (addressIds.length)
      await db
        .insert(agreementAddresses)
        .values(addressIds.map((addressId, position) => ({ agreementId, addressId, position })))
        .run()
  },
  companyAddressIds: async (db: Db, companyId: string, ids: string[]): Promise<string[]> =>
    ids.length ?
      (
        await db
          .select({ id: addresses.id })
          .from(addresses)
          .where(and(eq(addresses.companyId, companyId), inArray(addresses.id, ids)))
          .all()
      ).map((r) => r.id)
    : [],

  /** Users who run the company (chairman, administrator): told when a member answers. */
  managersOf: async (db: Db, companyId: string): Promise<string[]> =>
    (
      await db
        .select({ userId: companyMembers.userId })
        .from(companyMembers)
        .where(and(eq(companyMembers.companyId, companyId), inArray(companyMembers.role, ['CHAIRMAN', 'ADMINISTRATOR'])))
        .all()
    ).map((r) => r.userId),
  member: async (db: Db, userId: string) => await db.select().from(users).where(eq(users.id, userId)).get(),
}
