import { and, desc, eq, inArray, ne } from 'drizzle-orm'
import { alias } from 'drizzle-orm/sqlite-core'
import type { Db } from '../../db/client'
import { companies, companyMembers } from '../../db/schema/companies'
import { personalDataErasureRequests as requests, personalDataErasures } from '../../db/schema/erasures'
import { users } from '../../db/schema/users'
import { conflict, ruleViolation } from '../../errors'
import { messages as m } from '../../../shared/i18n-messages'
import type { ErasureRequest } from '../../../shared/contract/personal-data'

/**
 * Erasure requests (docs/decisions/0080-erasure-only-on-request.md): reading them with their
 * audit, and the refusals that hold whoever asks. The service (personal-data.service.ts) decides
 * who may file, record, approve, reject and withdraw.
 */

/** The roles that manage an association: it must keep one (docs/PRODUCT.md §6). */
const MANAGER_ROLES = ['CHAIRMAN', 'ADMINISTRATOR'] as const

const person = alias(users, 'erasure_person')
const recorder = alias(users, 'erasure_recorder')
const decider = alias(users, 'erasure_decider')

/** Requests with the names of the member, the recorder and the decider, newest first. */
export async function requestsWhere(db: Db, where: ReturnType<typeof eq>): Promise<ErasureRequest[]> {
  const rows = await db
    .select({
      id: requests.id,
      companyId: requests.companyId,
      companyName: companies.name,
      userId: requests.userId,
      personName: person.fullName,
      channel: requests.channel,
      requestedOn: requests.requestedOn,
      recordedByUserId: requests.recordedByUserId,
      recordedByName: recorder.fullName,
      recordedAt: requests.recordedAt,
      status: requests.status,
      decidedByUserId: requests.decidedByUserId,
      decidedByName: decider.fullName,
      decidedAt: requests.decidedAt,
      decisionNote: requests.decisionNote,
      erasureId: requests.erasureId,
    })
    .from(requests)
    .innerJoin(companies, eq(companies.id, requests.companyId))
    .innerJoin(person, eq(person.id, requests.userId))
    .innerJoin(recorder, eq(recorder.id, requests.recordedByUserId))
    .leftJoin(decider, eq(decider.id, requests.decidedByUserId))
    .where(where)
    .orderBy(desc(requests.recordedAt), desc(requests.id))
    .all()
  return rows
}

/** One request of the company, or nothing (another association's request is not found). */
export async function requestOf(db: Db, companyId: string, requestId: string) {
  return await db
    .select()
    .from(requests)
    .where(and(eq(requests.id, requestId), eq(requests.companyId, companyId)))
    .get()
}

/**
 * Who can never be erased, whoever asks (422 with what to do first, 409 for what cannot change):
 * a super admin, an account already erased, and anyone holding a role on an association's staff
 * (the last chairman or administrator told so), since the role would stay under the erased name.
 */
export async function assertErasable(db: Db, userId: string): Promise<void> {
  const target = await db.select({ systemRole: users.systemRole }).from(users).where(eq(users.id, userId)).get()
  if (target?.systemRole === 'SUPERADMIN') throw conflict(m.erasureSuperAdmin.id)
  const done = await db.select({ id: personalDataErasures.id }).from(personalDataErasures).where(eq(personalDataErasures.userId, userId)).get()
  if (done) throw conflict(m.erasureAlreadyErased.id)
  const roles = await db
    .select({ companyId: companyMembers.companyId, role: companyMembers.role })
    .from(companyMembers)
    .where(eq(companyMembers.userId, userId))
    .all()
  if (!roles.length) return
  const managed = roles.filter((r) => (MANAGER_ROLES as readonly string[]).includes(r.role)).map((r) => r.companyId)
  if (managed.length) {
    const others = await db
      .select({ companyId: companyMembers.companyId })
      .from(companyMembers)
      .where(and(inArray(companyMembers.companyId, managed), inArray(companyMembers.role, [...MANAGER_ROLES]), ne(companyMembers.userId, userId)))
      .all()
    const kept = new Set(others.map((o) => o.companyId))
    if (managed.some((id) => !kept.has(id))) throw ruleViolation(m.erasureLastManager.id)
  }
  throw ruleViolation(m.erasureStaffRole.id)
}

/** 409 when a request for the member already waits in the association (the unique index holds it too). */
export async function assertNonePending(db: Db, companyId: string, userId: string): Promise<void> {
  const pending = await db
    .select({ id: requests.id })
    .from(requests)
    .where(and(eq(requests.companyId, companyId), eq(requests.userId, userId), eq(requests.status, 'PENDING')))
    .get()
  if (pending) throw conflict(m.erasureRequestPending.id)
}
