import { and, asc, count, eq, inArray, max } from 'drizzle-orm'
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

/**
 * Queries on agreements, their parts and addresses (charges: billing/charges.repository.ts). The
 * list's and the sync snapshot's pages and the views' set-based reads are prepared statements in
 * agreements.reads.ts.
 */
export const agreementsRepository = {
  byId: (db: Db, id: string): AgreementRow | undefined => db.select().from(agreements).where(eq(agreements.id, id)).get(),
  byIds: (db: Db, ids: string[]): AgreementRow[] => (ids.length ? db.select().from(agreements).where(inArray(agreements.id, ids)).all() : []),
  byVippsId: (db: Db, vippsAgreementId: string): AgreementRow | undefined =>
    db.select().from(agreements).where(eq(agreements.vippsAgreementId, vippsAgreementId)).get(),

  withStatus: (db: Db, status: AgreementStatus): AgreementRow[] => db.select().from(agreements).where(eq(agreements.status, status)).all(),

  nextSeq: (db: Db, companyId: string): number =>
    (db
      .select({ n: max(agreements.externalSeq) })
      .from(agreements)
      .where(eq(agreements.companyId, companyId))
      .get()?.n ?? 1000) + 1,

  countOfCompany: (db: Db, companyId: string): number => db.select({ n: count() }).from(agreements).where(eq(agreements.companyId, companyId)).get()?.n ?? 0,

  addressInUse: (db: Db, addressId: string): boolean =>
    db.select({ n: count() }).from(agreementAddresses).where(eq(agreementAddresses.addressId, addressId)).get()!.n > 0,

  insert: (db: Db, row: typeof agreements.$inferInsert): void => {
    db.insert(agreements).values(row).run()
  },
  update: (db: Db, id: string, changes: Partial<typeof agreements.$inferInsert>): void => {
    db.update(agreements).set(changes).where(eq(agreements.id, id)).run()
  },

  replaceParts: (db: Db, agreementId: string, parts: Omit<PartRow, 'agreementId'>[]): void => {
    db.delete(agreementParts).where(eq(agreementParts.agreementId, agreementId)).run()
    if (parts.length)
      db.insert(agreementParts)
        .values(parts.map((p) => ({ ...p, agreementId })))
        .run()
  },

  addressIds: (db: Db, agreementId: string): string[] =>
    db
      .select({ id: agreementAddresses.addressId })
      .from(agreementAddresses)
      .where(eq(agreementAddresses.agreementId, agreementId))
      .orderBy(asc(agreementAddresses.position))
      .all()
      .map((r) => r.id),
  linkAddresses: (db: Db, agreementId: string, addressIds: string[]): void => {
    if (addressIds.length)
      db.insert(agreementAddresses)
        .values(addressIds.map((addressId, position) => ({ agreementId, addressId, position })))
        .run()
  },
  companyAddressIds: (db: Db, companyId: string, ids: string[]): string[] =>
    ids.length ?
      db
        .select({ id: addresses.id })
        .from(addresses)
        .where(and(eq(addresses.companyId, companyId), inArray(addresses.id, ids)))
        .all()
        .map((r) => r.id)
    : [],

  /** Users who run the company (chairman, administrator): told when a member answers. */
  managersOf: (db: Db, companyId: string): string[] =>
    db
      .select({ userId: companyMembers.userId })
      .from(companyMembers)
      .where(and(eq(companyMembers.companyId, companyId), inArray(companyMembers.role, ['CHAIRMAN', 'ADMINISTRATOR'])))
      .all()
      .map((r) => r.userId),
  member: (db: Db, userId: string) => db.select().from(users).where(eq(users.id, userId)).get(),
}
