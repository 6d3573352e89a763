import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { agreements } from '../../db/schema/agreements'
import { users } from '../../db/schema/users'
import { recordChange } from '../sync/change-log'
import { demo, testApp, type TestApp } from '../../test/harness'
import { assemblyFixtures, createAssembly, DEADLINE, NOTICE, residentEn, tickAt } from './test-helpers'

type Change = { entity: string; id: string; op: string; version?: number; data?: Record<string, unknown> }

/** Every page from `cursor` on, signed in afresh (the test clock moves months). */
async function pull(t: TestApp, email: string, cursor?: string) {
  const token = await t.login(email)
  const changes: Change[] = []
  for (;;) {
    const q = new URLSearchParams({ limit: '500', ...(cursor ? { cursor } : {}) })
    const res = await t.call('GET', `/sync?${q}`, { token })
    expect(res.status).toBe(200)
    changes.push(...res.json.changes)
    cursor = res.json.cursor
    if (!res.json.hasMore) return { changes, cursor: cursor! }
  }
}

const of = (changes: Change[], entity: string) => changes.filter((c) => c.entity === entity)
const after = (iso: string, ms = 1000) => new Date(new Date(iso).getTime() + ms).toISOString()

describe('general assemblies offline (sync)', () => {
  it('staff have an assembly at once, members once its notice went out, and the others’ proposals once the deadline passed', async () => {
    const t = await testApp()
    const f = await assemblyFixtures(t)
    const a = await createAssembly(t, f.main)

    // Staff: in their first snapshot; a board member too. Members and another association: nothing.
    expect(of((await pull(t, demo.boardmember)).changes, 'assembly').map((c) => c.id)).toEqual([a.id])
    const lars = await pull(t, demo.residentDa)
    expect(of(lars.changes, 'assembly')).toEqual([])
    const other = await pull(t, demo.otherAdmin)
    expect(of(other.changes, 'assembly')).toEqual([])
    const emma = await pull(t, residentEn)

    // The notice goes out: the members' next pull brings the assembly, with its sendouts.
    await tickAt(t, after(NOTICE))
    const larsAfterNotice = await pull(t, demo.residentDa, lars.cursor)
    const [row] = of(larsAfterNotice.changes, 'assembly')
    expect(row).toMatchObject({ id: a.id, op: 'upsert', version: 1 })
    expect(row!.data).toMatchObject({
      title: 'Ordinær generalforsamling 2027',
      noticeSentAt: after(NOTICE),
      agenda: ['Valg af dirigent', 'Bestyrelsens beretning', 'Godkendelse af årsregnskab'],
    })
    expect(of((await pull(t, demo.otherAdmin, other.cursor)).changes, 'assembly')).toEqual([])

    // Emma proposes: she has her own proposal at once; Lars has nothing of it before the deadline, staff have it.
    const proposal = await t.call('POST', `/assemblies/${a.id}/proposals`, {
      token: await t.login(residentEn),
      body: { title: 'Grill area', body: 'A shared barbecue.' },
    })
    expect(proposal.status).toBe(201)
    const emmaNow = await pull(t, residentEn, emma.cursor)
    expect(of(emmaNow.changes, 'proposal').map((c) => c.id)).toEqual([proposal.json.id])
    const larsBefore = await pull(t, demo.residentDa, larsAfterNotice.cursor)
    expect(of(larsBefore.changes, 'proposal')).toEqual([])
    expect(of((await pull(t, demo.accountant)).changes, 'proposal').map((c) => c.id)).toEqual([proposal.json.id])

    // The deadline passes: the job hands the members the submitted proposals.
    expect((await tickAt(t, after(DEADLINE))).published).toBe(1)
    const larsAfterDeadline = await pull(t, demo.residentDa, larsBefore.cursor)
    expect(of(larsAfterDeadline.changes, 'proposal')).toEqual([
      expect.objectContaining({ id: proposal.json.id, op: 'upsert', data: expect.objectContaining({ title: 'Grill area', authorName: 'Emma Hansen' }) }),
    ])
    // Once only.
    expect((await tickAt(t, after(DEADLINE, 5000))).published).toBe(0)

    // A new device of Lars's (a snapshot) has the same.
    const fresh = await pull(t, demo.residentDa)
    expect(of(fresh.changes, 'assembly').map((c) => c.id)).toEqual([a.id])
    expect(of(fresh.changes, 'proposal').map((c) => c.id)).toEqual([proposal.json.id])
  })

  it('a member who is no longer a resident starts afresh at the next pull, without the assembly', async () => {
    const t = await testApp()
    const f = await assemblyFixtures(t)
    const a = await createAssembly(t, f.main)
    await tickAt(t, after(NOTICE))
    const first = await pull(t, residentEn)
    expect(of(first.changes, 'assembly').map((c) => c.id)).toEqual([a.id])
    // Emma's agreement is rejected: she is no longer a member. Her residencies are part of what
    // her cursor was issued for, so the next pull is a reset (her copy is dropped) and its
    // snapshot no longer holds the assembly.
    const emma = (await t.db.select().from(users).where(eq(users.emailAddress, residentEn)).get())!
    await t.db.update(agreements).set({ status: 'REJECTED' }).where(eq(agreements.memberUserId, emma.id)).run()
    const token = await t.login(residentEn)
    const next = await t.call('GET', `/sync?limit=500&cursor=${first.cursor}`, { token })
    expect(next.json.reset).toBe(true)
    expect(of(next.json.changes as Change[], 'assembly')).toEqual([])
    // A row logged for her later is sent as a delete (loaded again, it is not hers to see).
    await t.lock.run(() => recordChange(t.db, t.clock, 'assembly', a.id, 'upsert', { userId: emma.id }))
    const later = await pull(t, residentEn, next.json.cursor as string)
    expect(of(later.changes, 'assembly')).toEqual([{ entity: 'assembly', id: a.id, op: 'delete' }])
  })
})
