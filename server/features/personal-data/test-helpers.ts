import { eq } from 'drizzle-orm'
import { expect } from 'vitest'
import { v7 } from 'uuid'
import { agreements } from '../../db/schema/agreements'
import { systemLogs } from '../../db/schema/platform'
import { invoices } from '../../db/schema/invoices'
import { authMethods, users } from '../../db/schema/users'
import { newId } from '../../lib/ids'
import { demo, type TestApp } from '../../test/harness'
import { acceptedWithCollectedCharge, agreementFixtures, createAgreement } from '../agreements/test-helpers'
import { createAssembly, NOTICE, tickAt } from '../assemblies/test-helpers'
import { companyIds } from '../companies/test-helpers'
import { startThread, replyTo } from '../forum/test-helpers'
import { createItem, requestLoan } from '../lending/test-helpers'
import { createListing } from '../market/test-helpers'

/** The identifiers of the member the erase tests create: distinctive, so a scan finds nothing else. */
export const zq = {
  name: 'Zebulon Quixwright',
  email: 'zebulon.quixwright@example.dk',
  mobile: '+45 29 87 65 43',
  mobileKey: '4529876543',
  vippsSubject: 'vipps-sub-7f3a9c2e-zq',
} as const

/** A member of the demo association who can sign in with the demo password (and Vipps), with an agreement. */
export async function newMember(t: TestApp, who: { name: string; email: string; mobile?: string; mobileKey?: string; vippsSubject?: string } = zq) {
  const { main, second } = await companyIds(t)
  const admin = await t.login(demo.admin)
  const agreement = await createAgreement(t, { emailAddress: who.email, memberName: who.name }, admin)
  const userId = (await t.db.select({ id: users.id }).from(users).where(eq(users.emailAddress, who.email)).get())!.id
  const seeded = (await t.db.select().from(authMethods).where(eq(authMethods.identifier, demo.superadmin)).get())!.secretHash
  const now = t.clock.now().toISOString()
  await t.db
    .update(users)
    .set({ mobileNumber: who.mobile ?? null, mobileKey: who.mobileKey ?? null, mobileVerifiedAt: who.mobile ? now : null })
    .where(eq(users.id, userId))
    .run()
  await t.db.delete(authMethods).where(eq(authMethods.userId, userId)).run()
  await t.db
    .insert(authMethods)
    .values([
      { id: newId(), userId, type: 'EMAIL_PASSWORD', identifier: who.email, secretHash: seeded, verifiedAt: now, createdAt: now },
      ...(who.vippsSubject ? [{ id: newId(), userId, type: 'MOBILEPAY' as const, identifier: who.vippsSubject, verifiedAt: now, createdAt: now }] : []),
    ])
    .run()
  return { main, second, admin, agreementId: agreement.id, userId }
}

/**
 * The member given data in every feature (docs/PRIVACY.md "Proven by"): an agreement with a collected
 * invoice and a refund (credit note), messages both ways, a forum thread and a neighbour's reply
 * naming them, a market listing, an item lent and a loan asked for, a proposal, notifications,
 * mail, a session, idempotency records and system log rows. The agreement is closed at the end,
 * so nothing is open.
 */
export async function memberWithDataEverywhere(t: TestApp) {
  const m = await newMember(t)
  const ok = (res: { status: number; json: unknown }, status = 201) => expect(res.status, JSON.stringify(res.json)).toBe(status)
  const chargeId = await acceptedWithCollectedCharge(t, m.agreementId)
  // Paid, as Vipps' capture leaves the invoice (the helper makes the charge only).
  await t.db.update(invoices).set({ status: 'EXECUTED' }).where(eq(invoices.chargeId, chargeId)).run()
  const accountant = await t.login(demo.accountant)
  ok(await t.call('POST', `/agreement/${m.agreementId}/refund`, { token: accountant, body: { chargeId, amount: 15_050, description: 'For meget opkrævet' } }))
  const neighbourAgreement = await createAgreement(t, { emailAddress: demo.residentDa, memberName: 'Lars Pedersen' }, m.admin)
  await t.db.update(agreements).set({ status: 'ACCEPTED' }).where(eq(agreements.id, neighbourAgreement.id)).run()
  const member = await t.login(zq.email)
  const neighbour = await t.login(demo.residentDa)
  const signed = `Hilsen ${zq.name}, ${zq.mobile}, ${zq.email}`
  const send = async (token: string, body: Record<string, unknown>) => {
    const draft = await t.call('POST', '/messages', { token, headers: { 'Idempotency-Key': v7() }, body: { companyId: m.main, type: 'MESSAGE', ...body } })
    ok(draft)
    ok(await t.call('POST', `/messages/${draft.json.id}/send`, { token, body: {}, headers: { 'Idempotency-Key': v7() } }), 200)
  }
  await send(member, { subject: 'Vandskade', body: `Der er vand i kælderen. ${signed}`, recipient: { kind: 'BOARD' } })
  await send(m.admin, { subject: 'Svar', body: `Kære ${zq.name}, vi kommer i morgen.`, recipient: { kind: 'MEMBER', userId: m.userId } })
  const thread = await startThread(t, member, { companyId: m.main, title: 'Cykelkælderen', body: `Hvem ejer den røde cykel? ${signed}` })
  ok(thread)
  ok(await replyTo(t, neighbour, thread.json.id, { body: `Spørg ${zq.name} på ${zq.email}` }))
  ok(await createListing(t, member, { companyId: m.main, kind: 'SWAP', title: 'Plantestiklinger', description: `Ring ${zq.mobile}` }))
  const own = await createItem(t, member, { companyId: m.main, title: 'Boremaskine', description: `Hos ${zq.name}` })
  ok(own)
  ok(await requestLoan(t, neighbour, own.json.id, { fromDate: '2026-12-10', toDate: '2026-12-11', message: `Hej ${zq.name}` }))
  const theirs = await createItem(t, neighbour, { companyId: m.main, title: 'Stige' })
  ok(theirs)
  ok(await requestLoan(t, member, theirs.json.id, { fromDate: '2026-12-12', toDate: '2026-12-13', message: `Mvh ${zq.name}` }))
  // Proposals open when the notice goes out (the job, at the notice time: the clock moves to February 2027).
  const assembly = await createAssembly(t, m.main, {}, m.admin)
  await tickAt(t, new Date(new Date(NOTICE).getTime() + 1000).toISOString())
  const member2 = await t.login(zq.email)
  ok(await t.call('POST', `/assemblies/${assembly.id}/proposals`, { token: member2, body: { title: 'Ny cykelkælder', body: `Forslag fra ${zq.name}` } }))
  await t.db
    .insert(systemLogs)
    .values([
      {
        id: newId(),
        timestamp: t.clock.now().toISOString(),
        level: 'ERROR',
        source: 'client',
        message: 'Sync failed',
        context: JSON.stringify({ email: zq.email }),
        userId: m.userId,
      },
      {
        id: newId(),
        timestamp: t.clock.now().toISOString(),
        level: 'WARN',
        source: 'server',
        message: `Vipps sagde nej til ${zq.mobileKey}`,
        context: null,
        userId: null,
      },
    ])
    .run()
  // A phone signed up for push notifications (decision 0088), its label naming the member.
  const device = (await (await t.app.request('/push-emulator/subscriptions', { method: 'POST' })).json()) as { endpoint: string; keys: unknown }
  ok(
    await t.call('POST', '/push/subscriptions', { token: member2, body: { ...device, label: `${zq.name}s telefon` }, headers: { 'Idempotency-Key': newId() } }),
  )
  // Where they lived (decision 0090): a stay in a household, under the name the staff typed.
  const { addressIds } = await agreementFixtures(t)
  ok(
    await t.call('POST', `/households/${addressIds[0]}/residents`, {
      token: await t.login(demo.chairman),
      body: { fullName: zq.name, emailAddress: zq.email, kind: 'OWNER', moveInDate: '2020-01-01', moveOutDate: '2026-11-01' },
      headers: { 'Idempotency-Key': newId() },
    }),
  )
  // Nothing open any more: the agreement ended (as a termination's last payment leaves it).
  await t.db.update(agreements).set({ status: 'CLOSED' }).where(eq(agreements.id, m.agreementId)).run()
  return { ...m, member: member2, neighbour: await t.login(demo.residentDa) }
}

/** Headers of a write in English (or `headers`), each with its own Idempotency-Key. */
const writeIn = (headers: Record<string, string> = {}) => ({ 'Idempotency-Key': v7(), 'Accept-Language': 'en', ...headers })

/** Staff record a request the member made by letter (decision 0080): the answer, the request in `json`. */
export const recordRequest = async (
  t: TestApp,
  recorder: string,
  companyId: string,
  userId: string,
  headers: Record<string, string> = {},
  body: Record<string, unknown> = { channel: 'LETTER', requestedOn: '2026-11-20' },
) => t.call('POST', `/companies/${companyId}/erasure-requests`, { token: await t.login(recorder), body: { userId, ...body }, headers: writeIn(headers) })

/** Approves a request, which erases the member. */
export const approveRequest = async (t: TestApp, approver: string, companyId: string, requestId: string, headers: Record<string, string> = {}) =>
  t.call('POST', `/companies/${companyId}/erasure-requests/${requestId}/approve`, { token: await t.login(approver), headers: writeIn(headers) })

/**
 * The whole erase of decision 0080: a request recorded by one staff member (the super admin, or the
 * chairman when the super admin approves) and approved by `approver` (an e-mail of the demo).
 * Answers the approval; a refused recording fails the test.
 */
export async function eraseOnRequest(t: TestApp, approver: string, companyId: string, userId: string, headers: Record<string, string> = {}) {
  const recorder = approver === demo.superadmin ? demo.chairman : demo.superadmin
  const recorded = await recordRequest(t, recorder, companyId, userId)
  expect(recorded.status, JSON.stringify(recorded.json)).toBe(201)
  return await approveRequest(t, approver, companyId, recorded.json.id, headers)
}
