import { and, eq } from 'drizzle-orm'
import { beforeEach, describe, expect, it } from 'vitest'
import { demo, testApp, type TestApp } from '../../test/harness'
import { sendouts } from '../../db/schema/assemblies'
import { notifications } from '../../db/schema/notifications'
import { users } from '../../db/schema/users'
import { assembliesRepository } from './assemblies.repository'
import { assemblyFixtures, createAssembly, DEADLINE, MEETING, NOTICE, REMINDER_14, REMINDER_2, residentEn, tickAt } from './test-helpers'

const after = (iso: string, ms = 1000) => new Date(new Date(iso).getTime() + ms).toISOString()
/** Everyone of the demo company once it has three residents: the three and its four staff. */
const MEMBERS = [demo.resident, demo.residentDa, residentEn, demo.chairman, demo.admin, demo.accountant, demo.boardmember].sort()

describe('general assemblies', () => {
  let t: TestApp
  let f: Awaited<ReturnType<typeof assemblyFixtures>>
  beforeEach(async () => {
    t = await testApp()
    f = await assemblyFixtures(t)
  })

  it('the chairman calls a general assembly: the notice and each reminder reach every member once, in-app and by e-mail in their own language', async () => {
    const chairman = await t.login(demo.chairman)
    const created = await t.call('POST', '/assemblies', {
      token: chairman,
      body: {
        companyId: f.main,
        title: 'Ordinær generalforsamling 2027',
        heldAt: '2027-03-12T19:00',
        place: 'Fælleshuset, Solvej 2',
        agenda: ['Valg af dirigent', 'Bestyrelsens beretning', 'Godkendelse af årsregnskab'],
        proposalDeadline: '2027-03-01T12:00',
        noticeAt: '2027-02-20T10:00',
      },
    })
    expect(created.status, JSON.stringify(created.json)).toBe(201)
    expect(created.headers.get('ETag')).toBe('"1"')
    const id = created.json.id as string
    // Copenhagen wall times stored as instants; the reminders default to 14 and 2 days before.
    expect(created.json).toMatchObject({
      heldAt: MEETING,
      noticeAt: NOTICE,
      proposalDeadline: DEADLINE,
      reminderDays: [14, 2],
      status: 'PLANNED',
      noticeSentAt: null,
    })
    expect(created.json.sendouts).toEqual([
      { kind: 'ASSEMBLY_NOTICE', days: null, dueAt: NOTICE, sentAt: null, recipients: null },
      { kind: 'ASSEMBLY_REMINDER', days: 14, dueAt: REMINDER_14, sentAt: null, recipients: null },
      { kind: 'ASSEMBLY_REMINDER', days: 2, dueAt: REMINDER_2, sentAt: null, recipients: null },
    ])

    // Before the notice the board plans in peace: members do not see it yet.
    const resident = await t.login(demo.residentDa)
    expect((await t.call('GET', `/assemblies/${id}`, { token: resident })).status).toBe(404)
    expect((await t.call('GET', '/assemblies', { token: resident })).json).toEqual([])
    const mailsBefore = (await t.mails()).length
    expect((await tickAt(t, after(NOTICE, -60_000))).sent).toBe(0)

    expect((await tickAt(t, after(NOTICE))).sent).toBe(1)
    const notice = (await t.mails()).slice(mailsBefore)
    expect(notice.map((m) => m.to).sort()).toEqual(MEMBERS)
    const da = notice.find((m) => m.to === demo.residentDa)!
    expect(da.subject).toBe('Indkaldelse til generalforsamling: Ordinær generalforsamling 2027')
    expect(da.text).toContain('Hej Lars Pedersen,')
    expect(da.text).toContain('Tidspunkt: fredag den 12. marts 2027 kl. 19.00')
    expect(da.text).toContain('Sted: Fælleshuset, Solvej 2')
    expect(da.text).toContain('Dagsorden:')
    expect(da.text).toContain('1. Valg af dirigent')
    expect(da.text).toContain('3. Godkendelse af årsregnskab')
    expect(da.text).toContain('Forslag skal være bestyrelsen i hænde senest mandag den 1. marts 2027 kl. 12.00.')
    expect(da.text).toContain(`http://localhost:3000/assemblies/${id}`)
    const en = notice.find((m) => m.to === residentEn)!
    expect(en.subject).toBe('Notice of general assembly: Ordinær generalforsamling 2027')
    expect(en.text).toContain('Hello Emma Hansen,')
    expect(en.text).toContain('When: Friday, 12 March 2027 at 19:00')
    expect(en.text).toContain('Where: Fælleshuset, Solvej 2')
    expect(en.text).toContain('Proposals must reach the board by Monday, 1 March 2027 at 12:00.')
    // Each member has an in-app notification too, which links to the assembly.
    const lars = (await t.db.select().from(users).where(eq(users.emailAddress, demo.residentDa)).get())!
    const larsNotes = await t.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, lars.id), eq(notifications.actionUrl, `/assemblies/${id}`)))
      .all()
    expect(larsNotes.map((n) => n.title)).toEqual(['Indkaldelse til generalforsamling: Ordinær generalforsamling 2027'])

    // Now the members see it; the recipient count is the staff's. (Signed in again: months have passed.)
    const seen = await t.call('GET', `/assemblies/${id}`, { token: await t.login(demo.residentDa) })
    expect(seen.status).toBe(200)
    expect(seen.json.noticeSentAt).toBe(after(NOTICE))
    expect(seen.json.sendouts[0]).toEqual({ kind: 'ASSEMBLY_NOTICE', days: null, dueAt: NOTICE, sentAt: after(NOTICE), recipients: null })
    expect((await t.call('GET', `/assemblies/${id}`, { token: await t.login(demo.chairman) })).json.sendouts[0].recipients).toBe(7)

    // Sent once: the next turns send nothing more until a reminder is due.
    expect((await tickAt(t, after(NOTICE, 5000))).sent).toBe(0)
    expect((await t.mails()).length).toBe(mailsBefore + 7)

    expect((await tickAt(t, after(REMINDER_14))).sent).toBe(1)
    const reminder = (await t.mails()).slice(mailsBefore + 7)
    expect(reminder).toHaveLength(7)
    expect(reminder.find((m) => m.to === demo.residentDa)!.subject).toBe('Påmindelse: generalforsamling Ordinær generalforsamling 2027')
    expect(reminder.find((m) => m.to === demo.residentDa)!.text).toContain('er om 14 dage.')
    expect(reminder.find((m) => m.to === residentEn)!.text).toContain('is in 14 days.')
    expect((await tickAt(t, after(REMINDER_2))).sent).toBe(1)
    expect((await t.mails()).length).toBe(mailsBefore + 21)
  })

  it('claims each due sendout with a conditional update, so a second instance sends nothing', async () => {
    const a = await createAssembly(t, f.main)
    const [notice] = await t.db
      .select()
      .from(sendouts)
      .where(eq(sendouts.key, `assembly:${a.id}:notice`))
      .all()
    expect(await assembliesRepository.claim(t.db, notice!.id, after(NOTICE))).toBe(true)
    expect(await assembliesRepository.claim(t.db, notice!.id, after(NOTICE))).toBe(false)
    // The other instance claimed it: this one's turn sends nothing for it.
    const mails = (await t.mails()).length
    expect((await tickAt(t, after(NOTICE))).sent).toBe(0)
    expect((await t.mails()).length).toBe(mails)
  })

  it('an edit re-times the unsent sendouts and keeps the sent ones; a reminder before the notice or already past is not scheduled', async () => {
    const chairman = await t.login(demo.chairman)
    // Notice 1 March: the 14-day reminder (26 February) would come before it.
    const a = await createAssembly(t, f.main, { noticeAt: '2027-03-01T09:00', proposalDeadline: '2027-03-05T12:00' })
    expect(a.sendouts.map((s) => s.days)).toEqual([null, 2])

    // The meeting moves a week later: both reminders now follow the notice.
    const moved = await t.call('PATCH', `/assemblies/${a.id}`, { token: chairman, body: { heldAt: '2027-03-19T19:00' }, headers: { 'If-Match': '"1"' } })
    expect(moved.status, JSON.stringify(moved.json)).toBe(200)
    expect(moved.json.version).toBe(2)
    expect(moved.json.sendouts.map((s: { days: number | null; dueAt: string }) => [s.days, s.dueAt])).toEqual([
      [null, '2027-03-01T08:00:00.000Z'],
      [14, '2027-03-05T18:00:00.000Z'],
      [2, '2027-03-17T18:00:00.000Z'],
    ])
    // A stale version is refused with the current one.
    const stale = await t.call('PATCH', `/assemblies/${a.id}`, { token: chairman, body: { place: 'Kælderen' }, headers: { 'If-Match': '"1"' } })
    expect(stale.status).toBe(412)
    expect(stale.json.current.version).toBe(2)

    // The notice goes out; then its time cannot change, and the sent row stays as it was.
    await tickAt(t, '2027-03-01T08:00:01.000Z')
    const chairmanNow = await t.login(demo.chairman)
    const late = await t.call('PATCH', `/assemblies/${a.id}`, { token: chairmanNow, body: { noticeAt: '2027-03-02T09:00' } })
    expect(late.status).toBe(422)
    expect(late.json.issues[0]).toEqual({ path: 'noticeAt', message: 'Indkaldelsen er allerede sendt, så dens tidspunkt kan ikke ændres.' })
    // Removing the 14-day reminder and adding one 7 days before: the unsent rows follow, the sent notice stays.
    const edited = await t.call('PATCH', `/assemblies/${a.id}`, { token: chairmanNow, body: { reminderDays: [7, 2] } })
    expect(edited.status, JSON.stringify(edited.json)).toBe(200)
    expect(edited.json.sendouts.map((s: { days: number | null; sentAt: string | null }) => [s.days, s.sentAt])).toEqual([
      [null, '2027-03-01T08:00:01.000Z'],
      [7, null],
      [2, null],
    ])
    // Moved again while the 7-day reminder would already be past: it is not scheduled.
    t.clock.set('2027-03-13T12:00:00.000Z')
    const soon = await t.call('PATCH', `/assemblies/${a.id}`, { token: chairmanNow, body: { heldAt: '2027-03-19T19:00', place: 'Kælderen' } })
    expect(soon.json.sendouts.map((s: { days: number | null }) => s.days)).toEqual([null, 2])
  })

  it('refuses times in the wrong order or in the past, in the user’s language', async () => {
    const chairman = await t.login(demo.chairman)
    const admin = f.admin
    const post = (token: string, extra: Record<string, unknown>) =>
      t.call('POST', '/assemblies', { token, body: { ...(assemblyBodyOf(f.main) as object), ...extra } })
    const afterMeeting = await post(chairman, { proposalDeadline: '2027-03-13T12:00' })
    expect(afterMeeting.status).toBe(400)
    expect(afterMeeting.json.issues).toEqual([{ path: 'proposalDeadline', message: 'Fristen for forslag skal ligge før mødet.' }])
    const noticeLate = await post(admin, { noticeAt: '2027-03-12T20:00' })
    expect(noticeLate.json.issues).toEqual([{ path: 'noticeAt', message: 'The notice cannot go out after the meeting.' }])
    const past = await post(admin, { heldAt: '2026-11-01T19:00', proposalDeadline: '2026-10-01T12:00', noticeAt: null })
    expect(past.status).toBe(400)
    expect(past.json.issues).toEqual([
      { path: 'heldAt', message: 'The meeting must be in the future.' },
      { path: 'proposalDeadline', message: 'The deadline for proposals must be in the future.' },
    ])
    const noticePast = await post(admin, { noticeAt: '2026-11-20T10:00' })
    expect(noticePast.json.issues[0].path).toBe('noticeAt')
    // No notice time: it goes out at once (at the job's next turn).
    const now = await post(admin, { noticeAt: null })
    expect(now.status).toBe(201)
    expect(now.json.noticeAt).toBe(t.clock.now().toISOString())
    expect((await tickAt(t, after(t.clock.now().toISOString()))).sent).toBe(1)
    // An edit's times are checked against the stored ones.
    const deadline = await t.call('PATCH', `/assemblies/${now.json.id}`, { token: admin, body: { heldAt: '2027-02-28T19:00' } })
    expect(deadline.json.issues).toEqual([{ path: 'proposalDeadline', message: 'The deadline for proposals must be before the meeting.' }])
  })

  it('cancelling removes what has not gone out and tells the members who had the notice; a cancelled one cannot change', async () => {
    const a = await createAssembly(t, f.main)
    await tickAt(t, after(NOTICE))
    const chairman = await t.login(demo.chairman)
    const mails = (await t.mails()).length
    const cancelled = await t.call('POST', `/assemblies/${a.id}/cancel`, { token: chairman })
    expect(cancelled.status, JSON.stringify(cancelled.json)).toBe(200)
    expect(cancelled.json.status).toBe('CANCELLED')
    expect(cancelled.json.sendouts.map((s: { kind: string }) => s.kind)).toEqual(['ASSEMBLY_NOTICE'])
    const told = (await t.mails()).slice(mails)
    expect(told.map((m) => m.to).sort()).toEqual(MEMBERS)
    expect(told.find((m) => m.to === demo.residentDa)!.subject).toBe('Aflyst: generalforsamling Ordinær generalforsamling 2027')
    expect(told.find((m) => m.to === residentEn)!.text).toContain('has cancelled the general assembly "Ordinær generalforsamling 2027".')
    expect((await tickAt(t, after(REMINDER_14))).sent).toBe(0)
    expect((await t.call('PATCH', `/assemblies/${a.id}`, { token: chairman, body: { place: 'Kælderen' } })).status).toBe(409)
    // Cancelled before its notice: nobody is told.
    const quiet = await createAssembly(t, f.main, { noticeAt: '2027-03-01T09:00', heldAt: '2027-04-01T19:00', proposalDeadline: '2027-03-20T12:00' }, chairman)
    const before = (await t.mails()).length
    expect((await t.call('POST', `/assemblies/${quiet.id}/cancel`, { token: chairman })).status).toBe(200)
    expect((await t.mails()).length).toBe(before)
  })

  it('is marked held only once the meeting has begun, after which nothing more goes out', async () => {
    const chairman = await t.login(demo.chairman)
    const a = await createAssembly(t, f.main, { reminderDays: [14, 2, 1] })
    const early = await t.call('POST', `/assemblies/${a.id}/held`, { token: chairman })
    expect(early.status).toBe(422)
    expect(early.json.message).toBe('Mødet er ikke holdt endnu.')
    t.clock.set(after(MEETING))
    const held = await t.call('POST', `/assemblies/${a.id}/held`, { token: await t.login(demo.chairman), headers: { 'If-Match': '"1"' } })
    expect(held.status, JSON.stringify(held.json)).toBe(200)
    expect(held.json.status).toBe('HELD')
    expect(held.json.sendouts).toEqual([])
  })

  it('proposals: members submit before the deadline, the author withdraws; staff see all, members their own and after the deadline every submitted one', async () => {
    const a = await createAssembly(t, f.main)
    const body = { title: 'Cykelskur ved port 2', body: 'Vi foreslår et overdækket cykelskur.\nPris ca. 40.000 kr.' }
    // Before the notice members do not see the assembly.
    expect((await t.call('POST', `/assemblies/${a.id}/proposals`, { token: await t.login(demo.resident), body })).status).toBe(404)
    await tickAt(t, after(NOTICE))
    const sofie = await t.login(demo.resident)
    const lars = await t.login(demo.residentDa)
    const emma = await t.login(residentEn)
    const board = await t.login(demo.boardmember)
    const mine = await t.call('POST', `/assemblies/${a.id}/proposals`, { token: sofie, body })
    expect(mine.status, JSON.stringify(mine.json)).toBe(201)
    expect(mine.json).toMatchObject({ authorName: 'Sofie Jensen', status: 'SUBMITTED', title: body.title, body: body.body })
    const emmas = await t.call('POST', `/assemblies/${a.id}/proposals`, { token: emma, body: { title: 'Grill area', body: 'A shared barbecue.' } })
    const withdrawn = await t.call('POST', `/assemblies/${a.id}/proposals`, { token: emma, body: { title: 'Hens', body: 'Keep hens.' } })
    // A staff member is a member too; the super admin is not.
    expect((await t.call('POST', `/assemblies/${a.id}/proposals`, { token: board, body: { title: 'Nye vinduer', body: 'Udskift vinduerne.' } })).status).toBe(
      201,
    )
    const superAdmin = await t.login(demo.superadmin)
    const refused = await t.call('POST', `/assemblies/${a.id}/proposals`, { token: superAdmin, body })
    expect(refused.status).toBe(403)
    expect(refused.json.message).toBe('Only members of the association can submit proposals.')

    // Only the author withdraws.
    expect((await t.call('POST', `/assemblies/${a.id}/proposals/${withdrawn.json.id}/withdraw`, { token: board })).status).toBe(403)
    const gone = await t.call('POST', `/assemblies/${a.id}/proposals/${withdrawn.json.id}/withdraw`, { token: emma })
    expect(gone.json.status).toBe('WITHDRAWN')

    const titles = async (token: string) =>
      (await t.call('GET', `/assemblies/${a.id}/proposals`, { token })).json.map((p: { title: string; status: string }) => `${p.title}:${p.status}`)
    expect(await titles(board)).toEqual(['Cykelskur ved port 2:SUBMITTED', 'Grill area:SUBMITTED', 'Hens:WITHDRAWN', 'Nye vinduer:SUBMITTED'])
    expect(await titles(sofie)).toEqual(['Cykelskur ved port 2:SUBMITTED'])
    expect(await titles(lars)).toEqual([])
    // Another member's proposal is not even there for Lars before the deadline.
    expect((await t.call('POST', `/assemblies/${a.id}/proposals/${emmas.json.id}/withdraw`, { token: lars })).status).toBe(404)

    t.clock.set(after(DEADLINE))
    const tooLate = await t.call('POST', `/assemblies/${a.id}/proposals`, { token: lars, body })
    expect(tooLate.status).toBe(422)
    expect(tooLate.json.message).toBe('Fristen for forslag er overskredet.')
    const tooLateEn = await t.call('POST', `/assemblies/${a.id}/proposals`, { token: emma, body })
    expect(tooLateEn.json.message).toBe('The deadline for proposals has passed.')
    expect((await t.call('POST', `/assemblies/${a.id}/proposals/${emmas.json.id}/withdraw`, { token: emma })).status).toBe(422)
    // After the deadline every member reads the submitted ones (not the withdrawn).
    expect(await titles(lars)).toEqual(['Cykelskur ved port 2:SUBMITTED', 'Grill area:SUBMITTED', 'Nye vinduer:SUBMITTED'])
    // Another association's administrator sees none of it.
    const other = await t.login(demo.otherAdmin)
    expect((await t.call('GET', `/assemblies/${a.id}/proposals`, { token: other })).status).toBe(404)
  })

  it('lists per company: another association’s list is 404, never []', async () => {
    await createAssembly(t, f.main)
    const other = await t.login(demo.otherAdmin)
    expect((await t.call('GET', `/assemblies?companyId=${f.main}`, { token: other })).status).toBe(404)
    expect((await t.call('GET', `/assemblies?companyId=${f.second}`, { token: other })).json).toEqual([])
    expect((await t.call('GET', '/assemblies', { token: other })).json).toEqual([])
    const list = await t.call('GET', `/assemblies?companyId=${f.main}`, { token: f.admin })
    expect(list.json.map((a: { title: string; companyName: string }) => [a.title, a.companyName])).toEqual([
      ['Ordinær generalforsamling 2027', 'Andelsboligforeningen Solgården'],
    ])
  })
})

function assemblyBodyOf(companyId: string) {
  return {
    companyId,
    title: 'Ordinær generalforsamling 2027',
    heldAt: '2027-03-12T19:00',
    place: 'Fælleshuset',
    agenda: ['Valg af dirigent'],
    proposalDeadline: '2027-03-01T12:00',
    noticeAt: '2027-02-20T10:00',
  }
}

describe('general assembly API documentation', () => {
  it('documents every route and its schemas in /api/openapi.json', async () => {
    const t = await testApp()
    const doc = (await t.call('GET', '/openapi.json')).json
    expect(Object.keys(doc.paths['/api/assemblies'])).toEqual(['get', 'post'])
    expect(Object.keys(doc.paths['/api/assemblies/{id}'])).toEqual(['get', 'patch'])
    for (const path of ['/assemblies/{id}/cancel', '/assemblies/{id}/held', '/assemblies/{id}/proposals/{proposalId}/withdraw'])
      expect(doc.paths[`/api${path}`].post).toBeDefined()
    expect(Object.keys(doc.paths['/api/assemblies/{id}/proposals'])).toEqual(['get', 'post'])
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining(['Assembly', 'AssemblySendout', 'CreateAssemblyRequest', 'UpdateAssemblyRequest', 'Proposal', 'CreateProposalRequest']),
    )
  })
})
