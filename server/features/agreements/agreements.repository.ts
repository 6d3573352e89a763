import { and, asc, count, eq, gt, inArray, isNotNull, lte, max, or, type SQL } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { agreementAddresses, agreementParts, agreements, chargeEvents, charges, providerOutbox } from '../../db/schema/agreements'
import { addresses, companyMembers } from '../../db/schema/companies'
import { authMethods, users } from '../../db/schema/users'
import { invoices } from '../../db/schema/invoices'
import type { AgreementStatus } from '../../../shared/domain/agreement-status'

export type AgreementRow = typeof agreements.$inferSelect
export type PartRow = typeof agreementParts.$inferSelect
export type ChargeRow = typeof charges.$inferSelect
export type ChargeEventRow = typeof chargeEvents.$inferSelect
export type OutboxRow = typeof providerOutbox.$inferSelect
export type AgreementAddressRow = typeof addresses.$inferSelect

/** Which agreements a caller sees: `all`, or those of some companies and/or of one member. */
export type AgreementScope = 'all' | { companyIds: string[]; memberUserId: string }

const scoped = (scope: AgreementScope): SQL | undefined => {
  if (scope === 'all') return undefined
  const own = eq(agreements.memberUserId, scope.memberUserId)
  return scope.companyIds.length ? or(own, inArray(agreements.companyId, scope.companyIds)) : own
}

/** Queries on agreements, their parts and addresses, charges and the provider outbox. */
export const agreementsRepository = {
  byId: (db: Db, id: string): AgreementRow | undefined => db.select().from(agreements).where(eq(agreements.id, id)).get(),
  byIds: (db: Db, ids: string[]): AgreementRow[] => (ids.length ? db.select().from(agreements).where(inArray(agreements.id, ids)).all() : []),
  byVippsId: (db: Db, vippsAgreementId: string): AgreementRow | undefined =>
    db.select().from(agreements).where(eq(agreements.vippsAgreementId, vippsAgreementId)).get(),

  list: (db: Db, scope: AgreementScope, filter: { companyId?: string; status?: AgreementStatus }): AgreementRow[] =>
    db
      .select()
      .from(agreements)
      .where(
        and(
          scoped(scope),
          filter.companyId ? eq(agreements.companyId, filter.companyId) : undefined,
          filter.status ? eq(agreements.status, filter.status) : undefined,
        ),
      )
      .orderBy(asc(agreements.companyId), asc(agreements.externalSeq))
      .all(),

  /** Rows for a sync snapshot, in id order after `afterId`. */
  page: (db: Db, scope: AgreementScope, afterId: string | null, limit: number): AgreementRow[] =>
    db
      .select()
      .from(agreements)
      .where(and(scoped(scope), afterId === null ? undefined : gt(agreements.id, afterId)))
      .orderBy(asc(agreements.id))
      .limit(limit)
      .all(),

  withStatus: (db: Db, status: AgreementStatus): AgreementRow[] => db.select().from(agreements).where(eq(agreements.status, status)).all(),

  nextSeq: (db: Db, companyId: string): number =>
    (db.select({ n: max(agreements.externalSeq) }).from(agreements).where(eq(agreements.companyId, companyId)).get()?.n ?? 1000) + 1,

  countOfCompany: (db: Db, companyId: string): number =>
    db.select({ n: count() }).from(agreements).where(eq(agreements.companyId, companyId)).get()?.n ?? 0,

  addressInUse: (db: Db, addressId: string): boolean =>
    db.select({ n: count() }).from(agreementAddresses).where(eq(agreementAddresses.addressId, addressId)).get()!.n > 0,

  insert: (db: Db, row: typeof agreements.$inferInsert): void => {
    db.insert(agreements).values(row).run()
  },
  update: (db: Db, id: string, changes: Partial<typeof agreements.$inferInsert>): void => {
    db.update(agreements).set(changes).where(eq(agreements.id, id)).run()
  },

  parts: (db: Db, agreementId: string): PartRow[] =>
    db.select().from(agreementParts).where(eq(agreementParts.agreementId, agreementId)).orderBy(asc(agreementParts.position)).all(),
  replaceParts: (db: Db, agreementId: string, parts: Omit<PartRow, 'agreementId'>[]): void => {
    db.delete(agreementParts).where(eq(agreementParts.agreementId, agreementId)).run()
    if (parts.length) db.insert(agreementParts).values(parts.map((p) => ({ ...p, agreementId }))).run()
  },

  addresses: (db: Db, agreementId: string): AgreementAddressRow[] =>
    db
      .select({ address: addresses })
      .from(agreementAddresses)
      .innerJoin(addresses, eq(addresses.id, agreementAddresses.addressId))
      .where(eq(agreementAddresses.agreementId, agreementId))
      .orderBy(asc(agreementAddresses.position))
      .all()
      .map((r) => r.address),
  addressIds: (db: Db, agreementId: string): string[] =>
    db.select({ id: agreementAddresses.addressId }).from(agreementAddresses).where(eq(agreementAddresses.agreementId, agreementId)).orderBy(asc(agreementAddresses.position)).all().map((r) => r.id),
  linkAddresses: (db: Db, agreementId: string, addressIds: string[]): void => {
    if (addressIds.length) db.insert(agreementAddresses).values(addressIds.map((addressId, position) => ({ agreementId, addressId, position }))).run()
  },
  companyAddressIds: (db: Db, companyId: string, ids: string[]): string[] =>
    ids.length ? db.select({ id: addresses.id }).from(addresses).where(and(eq(addresses.companyId, companyId), inArray(addresses.id, ids))).all().map((r) => r.id) : [],

  /** Users who run the company (chairman, administrator): told when a member answers. */
  managersOf: (db: Db, companyId: string): string[] =>
    db
      .select({ userId: companyMembers.userId })
      .from(companyMembers)
      .where(and(eq(companyMembers.companyId, companyId), inArray(companyMembers.role, ['CHAIRMAN', 'ADMINISTRATOR'])))
      .all()
      .map((r) => r.userId),
  member: (db: Db, userId: string) => db.select().from(users).where(eq(users.id, userId)).get(),
  /** Whether the member has a proven way to sign in (an unconfirmed e-mail sign-in does not count). */
  hasSignIn: (db: Db, userId: string): boolean =>
    db.select({ n: count() }).from(authMethods).where(and(eq(authMethods.userId, userId), isNotNull(authMethods.verifiedAt))).get()!.n > 0,

  // ---- charges
  charges: (db: Db, agreementId: string): ChargeRow[] => db.select().from(charges).where(eq(charges.agreementId, agreementId)).orderBy(asc(charges.due), asc(charges.createdAt)).all(),
  charge: (db: Db, id: string): ChargeRow | undefined => db.select().from(charges).where(eq(charges.id, id)).get(),
  chargesByIds: (db: Db, ids: string[]): ChargeRow[] => (ids.length ? db.select().from(charges).where(inArray(charges.id, ids)).all() : []),
  chargeByVippsId: (db: Db, vippsChargeId: string): ChargeRow | undefined => db.select().from(charges).where(eq(charges.vippsChargeId, vippsChargeId)).get(),
  /** Charges Vipps knows that may still move (the poll re-reads them). */
  openVippsCharges: (db: Db): ChargeRow[] =>
    db.select().from(charges).where(and(isNotNull(charges.vippsChargeId), inArray(charges.status, ['CREATED', 'RESERVED']))).all(),
  chargePage: (db: Db, scope: AgreementScope, afterId: string | null, limit: number): ChargeRow[] =>
    db
      .select({ charge: charges })
      .from(charges)
      .innerJoin(agreements, eq(agreements.id, charges.agreementId))
      .where(and(scoped(scope), afterId === null ? undefined : gt(charges.id, afterId)))
      .orderBy(asc(charges.id))
      .limit(limit)
      .all()
      .map((r) => r.charge),
  insertCharge: (db: Db, row: typeof charges.$inferInsert): void => {
    db.insert(charges).values(row).run()
  },
  updateCharge: (db: Db, id: string, changes: Partial<typeof charges.$inferInsert>): void => {
    db.update(charges).set(changes).where(eq(charges.id, id)).run()
  },
  chargeEvents: (db: Db, chargeIds: string[]): ChargeEventRow[] =>
    chargeIds.length ? db.select().from(chargeEvents).where(inArray(chargeEvents.chargeId, chargeIds)).orderBy(asc(chargeEvents.occurredAt)).all() : [],
  /** Adds a history event once (the same event from a repeated re-read is ignored). */
  insertChargeEvent: (db: Db, row: typeof chargeEvents.$inferInsert): void => {
    db.insert(chargeEvents).values(row).onConflictDoNothing().run()
  },

  /** Invoice numbers by invoice id (the charge list shows them). */
  invoiceNumbers: (db: Db, invoiceIds: string[]): Map<string, string> =>
    new Map(
      invoiceIds.length
        ? db.select({ id: invoices.id, number: invoices.number }).from(invoices).where(inArray(invoices.id, invoiceIds)).all().map((r) => [r.id, String(r.number)])
        : [],
    ),

  // ---- provider outbox
  enqueue: (db: Db, row: typeof providerOutbox.$inferInsert): void => {
    db.insert(providerOutbox).values(row).run()
  },
  dueOutbox: (db: Db, now: string): OutboxRow[] =>
    db.select().from(providerOutbox).where(and(eq(providerOutbox.status, 'pending'), lte(providerOutbox.nextAttemptAt, now))).orderBy(asc(providerOutbox.createdAt)).limit(50).all(),
  outboxOf: (db: Db, agreementId: string): OutboxRow[] => db.select().from(providerOutbox).where(eq(providerOutbox.agreementId, agreementId)).orderBy(asc(providerOutbox.createdAt)).all(),
  updateOutbox: (db: Db, id: string, changes: Partial<typeof providerOutbox.$inferInsert>): void => {
    db.update(providerOutbox).set(changes).where(eq(providerOutbox.id, id)).run()
  },
}
