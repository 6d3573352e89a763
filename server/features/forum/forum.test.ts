import { beforeEach, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { v7 } from 'uuid'
import { forumModerationEvents } from '../../db/schema/forum'
import { notifications } from '../../db/schema/notifications'
import { users } from '../../db/schema/users'
import { demo, type TestApp } from '../../test/harness'
import { DA, EN, issue, pullChanges } from '../../test/requests'
import { createAgreement } from '../agreements/test-helpers'
import { neighbourhood, type Fixtures } from '../documents/test-helpers'
import { postsOf, replyTo, startThread } from './test-helpers'

const EMMA = 'beboer03@solgaarden.dk'

const pull = async (t: TestApp, token: string, entity: string) => (await pullChanges(t, token, entity)).changes

describe('forum', () => {
  let t: TestApp
  let f: Fixtures
  let author: string
  let neighbour: string
  let board: string
  beforeEach(async () => ({ t, f, resident: author, residentDa: neighbour, board } = await neighbourhood()))

  const titles = async (token: string) => {
    const res = await t.call('GET', `/forum/threads?companyId=${f.main}`, { token })
    expect(res.status).toBe(200)
    return (res.json as { title: string }[]).map((x) => x.title)
  }

  it('a member starts a thread with sanitized HTML; members read it, another association never does', async () => {
    const created = await startThread(t, author, {
      companyId: f.main,
      title: '  Fælles cykeloprydning i maj? ',
      body: '<p>Skal vi <b>rydde</b> op?</p><script>alert(1)</script><a href="javascript:alert(1)">klik</a>',
    })
    expect(created.status, JSON.stringify(created.json)).toBe(201)
    expect(created.json).toMatchObject({ title: 'Fælles cykeloprydning i maj?', replyCount: 0, pinned: false, locked: null, hidden: null, following: true })
    const posts = await postsOf(t, neighbour, created.json.id)
    expect(posts).toHaveLength(1)
    expect(posts[0]!.opening).toBe(true)
    expect(posts[0]!.body).toContain('<b>rydde</b>')
    expect(posts[0]!.body).not.toContain('script')
    expect(posts[0]!.body).not.toContain('javascript')
    expect(await titles(board)).toEqual(['Fælles cykeloprydning i maj?'])
    const other = await t.login(demo.otherAdmin)
    expect((await t.call('GET', `/forum/threads?companyId=${f.main}`, { token: other })).status).toBe(404)
    expect((await t.call('GET', `/forum/threads/${created.json.id}`, { token: other })).status).toBe(404)
    expect((await t.call('GET', `/forum/threads/${created.json.id}/posts`, { token: other })).status).toBe(404)
    expect(await pull(t, other, 'forumThread')).toEqual([])
    expect(await pull(t, other, 'forumPost')).toEqual([])
    expect((await pull(t, neighbour, 'forumThread')).map((c) => c.id)).toEqual([created.json.id])
    expect((await pull(t, neighbour, 'forumPost')).map((c) => c.id)).toEqual([posts[0]!.id])
  })

  it('a reply tells exactly the followers but the replier, in-app and by e-mail in each one’s language', async () => {
    await createAgreement(t, { emailAddress: EMMA, memberName: 'Emma Hansen' }, f.admin)
    const emma = await t.login(EMMA)
    const thread = (await startThread(t, author, { companyId: f.main, title: 'Vaskeriet', body: 'Maskine 2 er i stykker.' })).json
    // The board member follows without posting; Emma posts, then unfollows.
    expect((await t.call('PUT', `/forum/threads/${thread.id}/follow`, { token: board })).json.following).toBe(true)
    expect((await replyTo(t, emma, thread.id, { body: 'Also machine 3.' })).status).toBe(201)
    expect((await t.call('DELETE', `/forum/threads/${thread.id}/follow`, { token: emma })).json.following).toBe(false)
    const before = (await t.mails()).length
    const notesBefore = (await t.db.select().from(notifications).all()).length
    const reply = await replyTo(t, neighbour, thread.id, { body: 'Jeg ringer til viceværten.' })
    expect(reply.status).toBe(201)
    const mails = (await t.mails()).slice(before)
    expect(mails.map((m) => m.to).sort()).toEqual([demo.boardmember, demo.resident].sort())
    const toAuthor = mails.find((m) => m.to === demo.resident)!
    expect(toAuthor.subject).toBe('Lars Pedersen svarede i “Vaskeriet”')
    expect(toAuthor.text).toContain(`/forum/thread/${thread.id}`)
    const notes = (await t.db.select().from(notifications).all()).slice(notesBefore)
    expect(notes).toHaveLength(2)
    // Emma follows again by replying; the author hears about it in Danish, Emma is not told of her own reply.
    const again = (await t.mails()).length
    await replyTo(t, emma, thread.id, { body: 'Thanks!' })
    expect(
      (await t.mails())
        .slice(again)
        .map((m) => m.to)
        .sort(),
    ).toEqual([demo.boardmember, demo.resident, demo.residentDa].sort())
    const r = (await t.mails()).length
    await replyTo(t, author, thread.id, { body: 'Tak alle!' })
    const last = (await t.mails()).slice(r)
    expect(last.map((m) => m.to).sort()).toEqual([demo.boardmember, demo.residentDa, EMMA].sort())
    expect(last.find((m) => m.to === EMMA)!.subject).toBe('Sofie Jensen replied in “Vaskeriet”')
    expect((await t.call('GET', `/forum/threads/${thread.id}`, { token: neighbour })).json.replyCount).toBe(4)
  })

  it('board moderation: lock refuses replies clearly, hide takes a thread or post from members, pin lists it first; all audited', async () => {
    const a = (await startThread(t, author, { companyId: f.main, title: 'Første', body: 'a' })).json
    t.clock.advance(1000)
    const b = (await startThread(t, neighbour, { companyId: f.main, title: 'Anden', body: 'b' })).json
    expect(await titles(author)).toEqual(['Anden', 'Første'])
    expect((await t.call('POST', `/forum/threads/${a.id}/moderation`, { token: board, body: { action: 'PIN' } })).json.pinned).toBe(true)
    expect(await titles(author)).toEqual(['Første', 'Anden'])

    const locked = await t.call('POST', `/forum/threads/${b.id}/moderation`, { token: board, body: { action: 'LOCK' } })
    expect(locked.json.locked).toMatchObject({ byName: 'Jonas Berg' })
    for (const [headers, text] of [
      [EN, 'This thread is locked: no new replies.'],
      [DA, 'Tråden er låst: der kan ikke svares mere.'],
    ] as const) {
      const refused = await replyTo(t, author, b.id, { body: 'Hallo?' }, headers)
      expect(refused.status).toBe(422)
      expect(refused.json.message).toBe(text)
    }
    await t.call('POST', `/forum/threads/${b.id}/moderation`, { token: board, body: { action: 'UNLOCK' } })
    const r = await replyTo(t, author, b.id, { body: 'Grimt sagt' })
    expect(r.status).toBe(201)

    // A hidden post: members no longer see it; moderators see it marked, with who and why.
    await t.call('POST', `/forum/posts/${r.json.id}/moderation`, { token: board, body: { action: 'HIDE', reason: 'Personangreb' } })
    expect((await postsOf(t, neighbour, b.id)).map((p) => p.id)).not.toContain(r.json.id)
    expect((await postsOf(t, board, b.id)).find((p) => p.id === r.json.id)!.hidden).toMatchObject({ byName: 'Jonas Berg', reason: 'Personangreb' })
    expect((await t.call('GET', `/forum/threads/${b.id}`, { token: neighbour })).json.replyCount).toBe(0)

    // A hidden thread: 404 and unlisted for members, listed and readable for moderators.
    await t.call('POST', `/forum/threads/${b.id}/moderation`, { token: board, body: { action: 'HIDE' } })
    expect(await titles(neighbour)).toEqual(['Første'])
    expect((await t.call('GET', `/forum/threads/${b.id}`, { token: neighbour })).status).toBe(404)
    expect((await t.call('GET', `/forum/threads/${b.id}`, { token: board })).json.hidden).toMatchObject({ byName: 'Jonas Berg' })
    expect(await titles(board)).toEqual(['Første', 'Anden'])
    expect((await pull(t, neighbour, 'forumThread')).map((c) => c.id)).toEqual([a.id])

    const audit = await t.db.select().from(forumModerationEvents).all()
    expect(audit.map((e) => e.action)).toEqual(['PIN', 'LOCK', 'UNLOCK', 'HIDE', 'HIDE'])
    expect(audit.every((e) => e.actorName === 'Jonas Berg')).toBe(true)
    expect(audit[3]).toMatchObject({ postId: r.json.id, reason: 'Personangreb' })
    // A resident moderates nothing.
    expect((await t.call('POST', `/forum/threads/${a.id}/moderation`, { token: neighbour, body: { action: 'LOCK' } })).status).toBe(403)
  })

  it('a report: once per member and post, not one’s own; the moderators are told in-app and resolve it', async () => {
    const thread = (await startThread(t, author, { companyId: f.main, title: 'Parkering', body: 'Hvem holder på min plads?' })).json
    const post = (await postsOf(t, author, thread.id))[0]!
    const notesBefore = (await t.db.select().from(notifications).all()).length
    expect((await t.call('POST', `/forum/posts/${post.id}/report`, { token: neighbour, body: { reason: 'Udhængning af en nabo' } })).status).toBe(202)
    const again = await t.call('POST', `/forum/posts/${post.id}/report`, { token: neighbour, body: { reason: 'Igen' }, headers: DA })
    expect(again.status).toBe(409)
    expect(again.json.message).toBe('Du har allerede anmeldt dette indlæg.')
    const own = await t.call('POST', `/forum/posts/${post.id}/report`, { token: author, body: { reason: 'x' }, headers: EN })
    expect(own.status).toBe(422)
    expect(own.json.message).toBe('You cannot report your own post.')
    const staffIds = (await t.db.select({ id: users.id, email: users.emailAddress }).from(users).all())
      .filter((u) => [demo.chairman, demo.admin, demo.accountant, demo.boardmember].includes(u.email as never))
      .map((u) => u.id)
    const notes = (await t.db.select().from(notifications).all()).slice(notesBefore)
    expect(notes.map((n) => n.userId).sort()).toEqual(staffIds.sort())
    const open = await t.call('GET', `/forum/reports?companyId=${f.main}`, { token: board })
    expect(open.json).toEqual([
      expect.objectContaining({ postId: post.id, threadTitle: 'Parkering', reason: 'Udhængning af en nabo', reporterName: 'Lars Pedersen' }),
    ])
    expect((await t.call('POST', `/forum/reports/${open.json[0].id}/resolve`, { token: board })).status).toBe(204)
    expect((await t.call('GET', `/forum/reports?companyId=${f.main}`, { token: board })).json).toEqual([])
    const audit = await t.db.select().from(forumModerationEvents).where(eq(forumModerationEvents.action, 'RESOLVE_REPORT')).all()
    expect(audit).toHaveLength(1)
  })

  it('authors edit with If-Match and delete (shown as deleted); a retried create is one thread', async () => {
    const id = v7()
    const postId = v7()
    const body = { id, postId, companyId: f.main, title: 'Grill', body: 'Må vi grille i gården?' }
    expect((await startThread(t, author, body)).status).toBe(201)
    expect((await startThread(t, author, body)).json.id).toBe(id)
    expect((await titles(author)).length).toBe(1)
    expect((await startThread(t, neighbour, { ...body, title: 'Andet' })).status).toBe(409)
    // Another association's ids are never revealed: 404, not 409.
    const other = await t.login(demo.otherAdmin)
    expect((await startThread(t, other, { ...body, companyId: f.second })).status).toBe(404)
    expect((await startThread(t, other, { companyId: f.second, postId, title: 'Andet', body: 'x' })).status).toBe(404)
    const edited = await t.call('PATCH', `/forum/posts/${postId}`, {
      token: author,
      body: { body: 'Må vi grille på græsset?' },
      headers: { 'If-Match': '"1"' },
    })
    expect(edited.json).toMatchObject({ body: 'Må vi grille på græsset?', version: 2, editedAt: expect.any(String) })
    expect((await t.call('PATCH', `/forum/posts/${postId}`, { token: author, body: { body: 'x' }, headers: { 'If-Match': '"1"' } })).status).toBe(412)
    expect((await t.call('PATCH', `/forum/posts/${postId}`, { token: neighbour, body: { body: 'x' } })).status).toBe(403)
    const reply = (await replyTo(t, neighbour, id, { id: v7(), body: 'Ja' })).json
    const deleted = await t.call('DELETE', `/forum/posts/${reply.id}`, { token: neighbour })
    expect(deleted.json).toMatchObject({ deleted: true, body: '' })
    expect((await t.call('GET', `/forum/threads/${id}`, { token: author })).json.replyCount).toBe(0)
  })

  it.each([
    ['no title', { title: '' }, 'title', 'Please give the thread a title', 'Giv tråden en titel'],
    ['an empty post', { body: '   ' }, 'body', 'Please write something first', 'Skriv venligst noget først'],
    ['a title over 150 characters', { title: 'x'.repeat(151) }, 'title', 'At most 150 characters', 'Højst 150 tegn'],
    ['a post over 10,000 characters', { body: 'x'.repeat(10_001) }, 'body', 'Content must be at most 10000 characters', 'Indhold må højst være 10000 tegn'],
  ])('refuses %s clearly, in English and Danish', async (_name, extra, path, en, da) => {
    for (const [headers, text] of [
      [EN, en],
      [DA, da],
    ] as const) {
      const res = await startThread(t, author, { companyId: f.main, title: 'Emne', body: 'Tekst', ...extra }, headers)
      expect(res.status).toBe(400)
      expect(issue(res, path)).toBe(text)
    }
  })

  it('refuses bad input without a 500, and rate-limits posting', async () => {
    const thread = (await startThread(t, author, { companyId: f.main, title: 'Emne', body: 'Tekst' })).json
    const post = (await postsOf(t, author, thread.id))[0]!
    const report = await t.call('POST', `/forum/posts/${post.id}/report`, { token: neighbour, body: { reason: '' }, headers: DA })
    expect(report.status).toBe(400)
    expect(issue(report, 'reason')).toBe('Skriv venligst, hvad der er galt')
    expect((await t.call('POST', `/forum/threads/${thread.id}/moderation`, { token: board, body: { action: 'DELETE' } })).status).toBe(400)
    expect((await t.call('GET', '/forum/threads/not-an-id', { token: author })).status).toBe(400)
    expect((await t.call('GET', `/forum/threads?companyId=${f.main}&cursor=garbage`, { token: author })).status).toBe(400)
    for (let i = 0; i < 30; i++) await replyTo(t, neighbour, thread.id, { body: `Svar ${i}` })
    expect((await replyTo(t, neighbour, thread.id, { body: 'En for meget' })).status).toBe(429)
  })

  it('pages threads by last activity, pinned first', async () => {
    const ids: string[] = []
    for (let i = 0; i < 5; i++) {
      ids.push((await startThread(t, author, { companyId: f.main, title: `Tråd ${i}`, body: 'x' })).json.id)
      t.clock.advance(1000)
    }
    await replyTo(t, neighbour, ids[1]!, { body: 'op' })
    await t.call('POST', `/forum/threads/${ids[0]}/moderation`, { token: board, body: { action: 'PIN' } })
    const first = await t.call('GET', `/forum/threads?companyId=${f.main}&limit=2`, { token: neighbour })
    expect(first.json.map((x: { title: string }) => x.title)).toEqual(['Tråd 0', 'Tråd 1'])
    const next = /<([^>]+)>/.exec(first.headers.get('link')!)![1]!.replace(/^.*\/api/, '')
    const second = await t.call('GET', next, { token: neighbour })
    expect(second.json.map((x: { title: string }) => x.title)).toEqual(['Tråd 4', 'Tråd 3'])
  })
})
