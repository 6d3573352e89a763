import { and, eq, isNotNull } from 'drizzle-orm'
import { beforeEach, describe, expect, it } from 'vitest'
import { companyMembers } from '../../db/schema/companies'
import { changeLog } from '../../db/schema/sync'
import { users } from '../../db/schema/users'
import { demo, testApp, type TestApp } from '../../test/harness'
import { assemblyBody, assemblyFixtures, createAssembly, DEADLINE, NOTICE, REMINDER_14, residentEn, tickAt } from './test-helpers'

const after = (iso: string, ms = 1000) => new Date(new Date(iso).getTime() + ms).toISOString()
const DA = { 'Accept-Language': 'da' }

/** The rules a review asked for (docs/PRODUCT.md "General assembly", decision 0061). */
describe('general assembly rules', () => {
  let t: TestApp
  let f: Awaited<ReturnType<typeof assemblyFixtures>>
  beforeEach(async () => {
    t = await testApp()
    f = await assemblyFixtures(t)
  })
  const propose = async (assemblyId: string, email: string, title: string, id?: string) =>
    await t.call('POST', `/assemblies/${assemblyId}/proposals`, { token: await t.login(email), body: { ...(id ? { id } : {}), title, body: `${title}.` } })
  const titlesFor = async (assemblyId: string, email: string) =>
    (await t.call('GET', `/assemblies/${assemblyId}/proposals`, { token: await t.login(email) })).json.map((p: { title: string }) => p.title)

  it('keeps the deadline for proposals once it has passed: members keep the proposals they were handed', async () => {
    const a = await createAssembly(t, f.main)
    await tickAt(t, after(NOTICE))
    expect((await propose(a.id, residentEn, 'Grill area')).status).toBe(201)
    expect((await tickAt(t, after(DEADLINE))).published).toBe(1)
    expect(await titlesFor(a.id, demo.residentDa)).toEqual(['Grill area'])

    const admin = await t.login(demo.admin)
    const later = await t.call('PATCH', `/assemblies/${a.id}`, { token: admin, body: { proposalDeadline: '2027-03-08T12:00' } })
    expect(later.status).toBe(422)
    expect(later.json).toMatchObject({
      code: 'BUSINESS_RULE',
      issues: [{ path: 'proposalDeadline', message: 'The deadline for proposals has passed and cannot be moved.' }],
    })
    const da = await t.call('PATCH', `/assemblies/${a.id}`, { token: admin, headers: DA, body: { proposalDeadline: '2027-02-28T12:00' } })
    expect(da.status).toBe(422)
    expect(da.json.issues).toEqual([{ path: 'proposalDeadline', message: 'Fristen for forslag er overskredet og kan derfor ikke flyttes.' }])
    // The same deadline sent again with another change is no move.
    const place = await t.call('PATCH', `/assemblies/${a.id}`, { token: admin, body: { proposalDeadline: '2027-03-01T12:00', place: 'Kælderen' } })
    expect(place.status, JSON.stringify(place.json)).toBe(200)
    expect(place.json.proposalDeadline).toBe(DEADLINE)
    // Members still read the proposals, and none can be submitted again.
    expect(await titlesFor(a.id, demo.residentDa)).toEqual(['Grill area'])
    expect((await propose(a.id, demo.residentDa, 'Too late')).status).toBe(422)
  })

  it('refuses a deadline in the past, a notice after the deadline and a wall time that does not exist in Copenhagen', async () => {
    const admin = f.admin
    const post = async (extra: Record<string, unknown>) => await t.call('POST', '/assemblies', { token: admin, body: assemblyBody(f.main, extra) })
    // The test clock is in November 2026.
    const past = await post({ proposalDeadline: '2026-11-20T12:00', noticeAt: null })
    expect(past.status).toBe(400)
    expect(past.json.issues).toEqual([{ path: 'proposalDeadline', message: 'The deadline for proposals must be in the future.' }])
    const late = await post({ noticeAt: '2027-03-02T10:00' })
    expect(late.status).toBe(400)
    expect(late.json.issues).toEqual([{ path: 'noticeAt', message: 'The notice must go out before the deadline for proposals.' }])
    const danish = await t.call('POST', '/assemblies', { token: admin, headers: DA, body: assemblyBody(f.main, { noticeAt: '2027-03-01T12:00' }) })
    expect(danish.json.issues).toEqual([{ path: 'noticeAt', message: 'Indkaldelsen skal sendes før fristen for forslag.' }])
    // 28 March 2027 02:30 never happens in Copenhagen (summer time begins): refused, not moved to 03:30.
    const gap = await post({ heldAt: '2027-03-28T02:30' })
    expect(gap.status).toBe(400)
    expect(gap.json.issues).toEqual([{ path: 'heldAt', message: 'Please enter a valid date' }])

    // An edit: the deadline moved before the stored (unsent) notice, or into the past.
    const a = await createAssembly(t, f.main)
    const beforeNotice = await t.call('PATCH', `/assemblies/${a.id}`, { token: admin, body: { proposalDeadline: '2027-02-15T12:00' } })
    expect(beforeNotice.status).toBe(400)
    expect(beforeNotice.json.issues).toEqual([{ path: 'noticeAt', message: 'The notice must go out before the deadline for proposals.' }])
    const intoPast = await t.call('PATCH', `/assemblies/${a.id}`, { token: admin, body: { proposalDeadline: '2026-11-22T12:00', noticeAt: null } })
    expect(intoPast.status).toBe(400)
    expect(intoPast.json.issues).toEqual([{ path: 'proposalDeadline', message: 'The deadline for proposals must be in the future.' }])
    // Once the notice is out its time is no longer checked against a new deadline (still ahead).
    await tickAt(t, after(NOTICE))
    const moved = await t.call('PATCH', `/assemblies/${a.id}`, { token: await t.login(demo.admin), body: { proposalDeadline: '2027-03-05T12:00' } })
    expect(moved.status, JSON.stringify(moved.json)).toBe(200)
  })

  it('a client id of a row the caller may not read is 404, never "exists"; a repeated create is answered only while the caller reads it', async () => {
    const a = await createAssembly(t, f.main)
    const other = await t.login(demo.otherAdmin)
    const foreign = await t.call('POST', '/assemblies', { token: other, body: assemblyBody(f.second, { id: a.id }) })
    expect(foreign.status).toBe(404)
    expect(foreign.json.message).toBe('Generalforsamlingen blev ikke fundet.')
    // One the caller reads, with another content: 409 as before.
    const clash = await t.call('POST', '/assemblies', { token: f.admin, body: assemblyBody(f.main, { id: a.id, title: 'Ekstraordinær' }) })
    expect(clash.status).toBe(409)

    // The accountant calls one, loses the role, and the outbox sends the create again.
    const accountant = await t.login(demo.accountant)
    const id = '0190d5e6-0000-7000-8000-00000000a001'
    expect((await t.call('POST', '/assemblies', { token: accountant, body: assemblyBody(f.main, { id }) })).status).toBe(201)
    expect((await t.call('POST', '/assemblies', { token: accountant, body: assemblyBody(f.main, { id }) })).status).toBe(201)
    const user = (await t.db.select().from(users).where(eq(users.emailAddress, demo.accountant)).get())!
    const membership = (await t.db
      .select()
      .from(companyMembers)
      .where(and(eq(companyMembers.companyId, f.main), eq(companyMembers.userId, user.id)))
      .get())!
    expect((await t.call('DELETE', `/company/${f.main}/member/${membership.id}`, { token: f.admin })).status).toBe(204)
    const replay = await t.call('POST', '/assemblies', { token: await t.login(demo.accountant), body: assemblyBody(f.main, { id }) })
    expect(replay.status).toBe(404)

    // Proposals: another member's before the deadline, and another association's admin.
    await tickAt(t, after(NOTICE))
    const emmas = await propose(a.id, residentEn, 'Grill area')
    expect((await propose(a.id, residentEn, 'Grill area', emmas.json.id)).status).toBe(201)
    const lars = await propose(a.id, demo.residentDa, 'Grill area', emmas.json.id)
    expect(lars.status).toBe(404)
    expect(lars.json.message).toBe('Forslaget blev ikke fundet.')
    expect((await propose(a.id, demo.otherAdmin, 'Grill area', emmas.json.id)).status).toBe(404)
    // Staff read it: for them it exists.
    expect((await propose(a.id, demo.boardmember, 'Vinduer', emmas.json.id)).status).toBe(409)
  })

  it('honours If-Match on cancel and on marking held (412 with the current version)', async () => {
    const a = await createAssembly(t, f.main)
    const chairman = await t.login(demo.chairman)
    expect((await t.call('PATCH', `/assemblies/${a.id}`, { token: chairman, body: { place: 'Kælderen' }, headers: { 'If-Match': '"1"' } })).status).toBe(200)
    const cancel = await t.call('POST', `/assemblies/${a.id}/cancel`, { token: chairman, headers: { 'If-Match': '"1"' } })
    expect(cancel.status).toBe(412)
    expect(cancel.json.current).toMatchObject({ version: 2, status: 'PLANNED' })
    t.clock.set('2027-03-12T18:00:01.000Z')
    const held = await t.call('POST', `/assemblies/${a.id}/held`, { token: await t.login(demo.chairman), headers: { 'If-Match': '"1"' } })
    expect(held.status).toBe(412)
    const current = await t.call('POST', `/assemblies/${a.id}/held`, { token: await t.login(demo.chairman), headers: { 'If-Match': '"2"' } })
    expect(current.status).toBe(200)
    expect(current.json.status).toBe('HELD')
  })

  it('logs a withdrawal for those who saw the proposal; at the deadline members get only the submitted ones, one row each for all members', async () => {
    const a = await createAssembly(t, f.main)
    await tickAt(t, after(NOTICE))
    const kept = await propose(a.id, residentEn, 'Grill area')
    const taken = await propose(a.id, residentEn, 'Hens')
    const board = await propose(a.id, demo.boardmember, 'Vinduer')
    const withdrawn = await t.call('POST', `/assemblies/${a.id}/proposals/${taken.json.id}/withdraw`, { token: await t.login(residentEn) })
    expect(withdrawn.json.status).toBe('WITHDRAWN')
    // The withdrawal is logged for the staff (the company) and the author: the only ones who saw it.
    const rowsOf = async (entityId: string) =>
      (await t.db.select().from(changeLog).where(eq(changeLog.entityId, entityId)).all()).map((r) =>
        r.companyId ? `company:${r.companyId}` : `user:${r.userId}`,
      )
    const emma = (await t.db.select().from(users).where(eq(users.emailAddress, residentEn)).get())!
    expect(await rowsOf(taken.json.id)).toEqual([`company:${f.main}`, `user:${emma.id}`, `company:${f.main}`, `user:${emma.id}`])

    // The 14-day reminder first (26 February), so the deadline's turn writes only the deadline's rows.
    expect((await tickAt(t, after(REMINDER_14))).sent).toBe(1)
    const at = after(DEADLINE)
    expect((await tickAt(t, at)).published).toBe(1)
    const forMembers = await t.db
      .select()
      .from(changeLog)
      .where(and(eq(changeLog.createdAt, at), eq(changeLog.audience, 'MEMBERS')))
      .all()
    // One row each for the company's members (decision 0073): the assembly and the two submitted proposals; the withdrawn one for nobody.
    expect(forMembers.every((r) => r.companyId === f.main && r.userId === null)).toBe(true)
    expect(
      forMembers
        .map((r) =>
          r.entityId === a.id ? 'assembly'
          : r.entityId === kept.json.id ? 'kept'
          : r.entityId === board.json.id ? 'board'
          : r.entityId,
        )
        .sort(),
    ).toEqual(['assembly', 'board', 'kept'].sort())
    expect(forMembers.some((r) => r.entityId === taken.json.id)).toBe(false)
    expect(
      await t.db
        .select()
        .from(changeLog)
        .where(and(eq(changeLog.createdAt, at), isNotNull(changeLog.userId)))
        .all(),
    ).toEqual([])
    expect(board.status).toBe(201)
    // After the deadline the author can no longer withdraw (what members were handed stays).
    expect((await t.call('POST', `/assemblies/${a.id}/proposals/${kept.json.id}/withdraw`, { token: await t.login(residentEn) })).status).toBe(422)
    expect(await titlesFor(a.id, demo.residentDa)).toEqual(['Grill area', 'Vinduer'])
  })
})
