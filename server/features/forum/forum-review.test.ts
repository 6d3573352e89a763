import { beforeEach, describe, expect, it, vi } from 'vitest'
import { and, eq, inArray } from 'drizzle-orm'
import { v7 } from 'uuid'
import { companies } from '../../db/schema/companies'
import { notifications } from '../../db/schema/notifications'
import { changeLog } from '../../db/schema/sync'
import { users } from '../../db/schema/users'
import { demo, type TestApp } from '../../test/harness'
import { DA, EN, issue, pullChanges } from '../../test/requests'
import { neighbourhood, type Fixtures } from '../documents/test-helpers'
import { forumRepository } from './forum.repository'
import { excerptOf, POSTS_PER_HOUR } from './forum.service'
import { postsOf, replyTo, startThread } from './test-helpers'

/** What the review of the forum found (hidden threads' notices, idempotent resends, empty bodies, sync rows, limits). */
describe('forum, after review', () => {
  let t: TestApp
  let f: Fixtures
  let author: string
  let neighbour: string
  let board: string
  beforeEach(async () => ({ t, f, resident: author, residentDa: neighbour, board } = await neighbourhood()))

  it('a reply in a hidden thread tells its moderators only, never its members (the title stays with the moderators)', async () => {
    const chairman = await t.login(demo.chairman)
    const thread = (await startThread(t, author, { companyId: f.main, title: 'Naboens hund', body: 'Den gør hele natten.' })).json
    expect((await replyTo(t, neighbour, thread.id, { body: 'Enig.' })).status).toBe(201)
    expect((await t.call('PUT', `/forum/threads/${thread.id}/follow`, { token: chairman })).status).toBe(200)
    expect((await t.call('POST', `/forum/threads/${thread.id}/moderation`, { token: board, body: { action: 'HIDE', reason: 'Udhængning' } })).status).toBe(200)
    const mailsBefore = (await t.mails()).length
    const notesBefore = (await t.db.select().from(notifications).all()).length
    expect((await replyTo(t, board, thread.id, { body: 'Skjult, vi tager den med udlejer.' })).status).toBe(201)
    const mails = (await t.mails()).slice(mailsBefore)
    expect(mails.map((m) => m.to)).toEqual([demo.chairman])
    const chairmanId = (await t.db.select({ id: users.id }).from(users).where(eq(users.emailAddress, demo.chairman)).get())!.id
    const notes = (await t.db.select().from(notifications).all()).slice(notesBefore)
    expect(notes.map((n) => n.userId)).toEqual([chairmanId])
  })

  it('resending a create or a reply after it was hidden is 404 for a member, never the hidden marker', async () => {
    const id = v7()
    const body = { id, postId: v7(), companyId: f.main, title: 'Grill', body: 'Må vi grille?' }
    expect((await startThread(t, author, body)).status).toBe(201)
    const replyId = v7()
    const other = (await startThread(t, author, { companyId: f.main, title: 'Cykler', body: 'Hvor?' })).json
    expect((await replyTo(t, neighbour, other.id, { id: replyId, body: 'Kælderen' })).status).toBe(201)

    await t.call('POST', `/forum/threads/${id}/moderation`, { token: board, body: { action: 'HIDE', reason: 'Dublet' } })
    await t.call('POST', `/forum/posts/${replyId}/moderation`, { token: board, body: { action: 'HIDE', reason: 'Privat' } })

    const thread = await startThread(t, author, body)
    expect(thread.status).toBe(404)
    expect(JSON.stringify(thread.json)).not.toContain('Dublet')
    const reply = await replyTo(t, neighbour, other.id, { id: replyId, body: 'Kælderen' })
    expect(reply.status).toBe(404)
    expect(JSON.stringify(reply.json)).not.toContain('Privat')
    // A moderator still gets the stored one back.
    const board2 = await replyTo(t, board, other.id, { id: v7(), body: 'Ok' })
    expect((await replyTo(t, board, other.id, { id: board2.json.id, body: 'Ok' })).status).toBe(201)
  })

  it.each([
    ['a script', '<script>alert(1)</script>'],
    ['a style', '<style>x</style>'],
    ['empty tags', '<p> &nbsp; </p><b></b>'],
  ])('refuses a body of only %s after sanitizing, in English and Danish', async (_name, html) => {
    const thread = (await startThread(t, author, { companyId: f.main, title: 'Emne', body: 'Tekst' })).json
    const opening = (await postsOf(t, author, thread.id))[0]!
    for (const [headers, text] of [
      [EN, 'Please write something first'],
      [DA, 'Skriv venligst noget først'],
    ] as const) {
      const created = await startThread(t, author, { companyId: f.main, title: 'Emne', body: html }, headers)
      expect(created.status).toBe(400)
      expect(issue(created, 'body')).toBe(text)
      const replied = await replyTo(t, neighbour, thread.id, { body: html }, headers)
      expect(replied.status).toBe(400)
      expect(issue(replied, 'body')).toBe(text)
      const edited = await t.call('PATCH', `/forum/posts/${opening.id}`, { token: author, body: { body: html }, headers })
      expect(edited.status).toBe(400)
      expect(issue(edited, 'body')).toBe(text)
    }
    expect(await postsOf(t, author, thread.id)).toHaveLength(1)
  })

  it('hiding a thread logs one change per post for the members (not one per resident); residents’ copies lose the posts, unhiding brings them back', async () => {
    const thread = (await startThread(t, author, { companyId: f.main, title: 'Mange svar', body: 'Start' })).json
    for (let i = 0; i < 4; i++) await replyTo(t, neighbour, thread.id, { body: `Svar ${i}` })
    const postIds = (await postsOf(t, author, thread.id)).map((p) => p.id)
    expect(postIds).toHaveLength(5)
    const rowsOf = async () =>
      await t.db
        .select()
        .from(changeLog)
        .where(and(eq(changeLog.entity, 'forumPost'), inArray(changeLog.entityId, postIds)))
        .all()
    const { cursor } = await pullChanges(t, neighbour, 'forumPost')
    const before = (await rowsOf()).length
    expect((await t.call('POST', `/forum/threads/${thread.id}/moderation`, { token: board, body: { action: 'HIDE' } })).status).toBe(200)
    const logged = (await rowsOf()).slice(before)
    expect(logged.map((r) => [r.entityId, r.companyId, r.userId, r.audience]).sort()).toEqual(postIds.map((id) => [id, f.main, null, 'MEMBERS']).sort())
    const hidden = await pullChanges(t, neighbour, 'forumPost', cursor)
    expect(hidden.changes.filter((c) => postIds.includes(c.id)).map((c) => c.op)).toEqual(postIds.map(() => 'delete'))
    expect((await t.call('POST', `/forum/threads/${thread.id}/moderation`, { token: board, body: { action: 'UNHIDE' } })).status).toBe(200)
    const back = await pullChanges(t, neighbour, 'forumPost', hidden.cursor)
    expect(
      back.changes
        .filter((c) => postIds.includes(c.id) && c.op === 'upsert')
        .map((c) => c.id)
        .sort(),
    ).toEqual([...postIds].sort())
  })

  it('asks which associations the caller lives in once per request, and their residents once', async () => {
    const thread = (await startThread(t, author, { companyId: f.main, title: 'Emne', body: 'Tekst' })).json
    const homes = vi.spyOn(t.services.residency, 'residentCompanyIds')
    const residents = vi.spyOn(t.services.residency, 'residentIds')
    expect((await replyTo(t, neighbour, thread.id, { body: 'Svar' })).status).toBe(201)
    expect(homes).toHaveBeenCalledTimes(1)
    expect(residents).toHaveBeenCalledTimes(1)
    homes.mockRestore()
    residents.mockRestore()
  })

  it('a database failure while reading a post is not turned into 404', async () => {
    const thread = (await startThread(t, author, { companyId: f.main, title: 'Emne', body: 'Tekst' })).json
    const post = (await postsOf(t, author, thread.id))[0]!
    const spy = vi.spyOn(forumRepository, 'thread').mockRejectedValueOnce(new Error('disk I/O error'))
    const res = await t.call('PATCH', `/forum/posts/${post.id}`, { token: author, body: { body: 'Ny' } })
    spy.mockRestore()
    expect(res.status).toBe(500)
  })

  it('resolving a report is refused while the association is read-only', async () => {
    const thread = (await startThread(t, author, { companyId: f.main, title: 'Parkering', body: 'Min plads' })).json
    const post = (await postsOf(t, author, thread.id))[0]!
    expect((await t.call('POST', `/forum/posts/${post.id}/report`, { token: neighbour, body: { reason: 'Udhængning' } })).status).toBe(202)
    const open = (await t.call('GET', `/forum/reports?companyId=${f.main}`, { token: board })).json
    await t.db.update(companies).set({ status: 'SUSPENDED' }).where(eq(companies.id, f.main)).run()
    const refused = await t.call('POST', `/forum/reports/${open[0].id}/resolve`, { token: board })
    expect(refused.status).toBeGreaterThanOrEqual(400)
    expect(refused.status).toBeLessThan(500)
    expect((await forumRepository.reportById(t.db, open[0].id))!.resolvedAt).toBeNull()
  })

  it('a reply PostgreSQL runs again after a serialization failure counts once against the posting limit', async () => {
    const thread = (await startThread(t, author, { companyId: f.main, title: 'Emne', body: 'Tekst' })).json
    for (let i = 0; i < POSTS_PER_HOUR - 2; i++) expect((await replyTo(t, neighbour, thread.id, { body: `Svar ${i}` })).status).toBe(201)
    const insert = forumRepository.insertPost
    const spy = vi.spyOn(forumRepository, 'insertPost').mockImplementationOnce(async (db, row) => {
      await insert(db, row)
      throw Object.assign(new Error('could not serialize access due to read/write dependencies among transactions'), { code: '40001' })
    })
    const retried = await replyTo(t, neighbour, thread.id, { body: 'Kørt to gange' })
    expect(retried.status, JSON.stringify(retried.json)).toBe(201)
    expect(spy).toHaveBeenCalledTimes(2)
    spy.mockRestore()
    // The 30th post of the hour is still allowed; the 31st is not, with a Retry-After.
    expect((await replyTo(t, neighbour, thread.id, { body: 'Den sidste' })).status).toBe(201)
    const over = await replyTo(t, neighbour, thread.id, { body: 'En for meget' })
    expect(over.status).toBe(429)
    expect(Number(over.headers.get('Retry-After'))).toBeGreaterThan(0)
    // An hour later the oldest posts have left the window.
    t.clock.advance(3_600_000)
    expect((await replyTo(t, neighbour, thread.id, { body: 'Igen' })).status).toBe(201)
  })

  // What an outside tester found (decision 0066 "Added afterwards"): editing a post in a locked thread says so,
  // and a report shows the reported post's text and where it is.

  it('editing a post in a locked thread says the thread is locked and posts cannot be edited', async () => {
    const thread = (await startThread(t, author, { companyId: f.main, title: 'Vaskeri', body: 'Hvem har nøglen?' })).json
    const post = (await postsOf(t, author, thread.id))[0]!
    await t.call('POST', `/forum/threads/${thread.id}/moderation`, { token: board, body: { action: 'LOCK' } })
    for (const [headers, message] of [
      [EN, 'This thread is locked, so its posts cannot be edited.'],
      [DA, 'Tråden er låst, så dens indlæg kan ikke redigeres.'],
    ] as const) {
      const res = await t.call('PATCH', `/forum/posts/${post.id}`, { token: author, headers, body: { body: 'Fundet!' } })
      expect(res.status).toBe(422)
      expect(res.json.message).toBe(message)
    }
  })

  it('a report carries the reported post’s id and a plain-text excerpt; another association gets 404', async () => {
    const long = `<p>Naboen i nr. 3 &amp; hans hund</p><p>${'larmer hele natten '.repeat(12)}</p>`
    const thread = (await startThread(t, author, { companyId: f.main, title: 'Støj', body: 'Start' })).json
    const reply = (await replyTo(t, author, thread.id, { body: long })).json
    expect((await t.call('POST', `/forum/posts/${reply.id}/report`, { token: neighbour, body: { reason: 'Udhængning' } })).status).toBe(202)
    const open = await t.call('GET', `/forum/reports?companyId=${f.main}`, { token: board })
    expect(open.json).toEqual([expect.objectContaining({ postId: reply.id, threadId: thread.id, threadTitle: 'Støj' })])
    const excerpt = open.json[0].postExcerpt as string
    expect(excerpt.startsWith('Naboen i nr. 3 & hans hund larmer hele natten')).toBe(true)
    expect(excerpt).not.toMatch(/[<>]/)
    expect(excerpt.length).toBe(140)
    expect(excerpt.endsWith('…')).toBe(true)
    expect((await t.call('GET', `/forum/reports?companyId=${f.main}`, { token: await t.login(demo.otherAdmin) })).status).toBe(404)
  })

  it('an excerpt is one line of text: tags, entities and whitespace', () => {
    expect(excerptOf('<p>Hej&nbsp;med&#39;dig</p>\n<p>&lt;b&gt; &#x2764;</p>')).toBe("Hej med'dig <b> ❤")
    expect(excerptOf('kort')).toBe('kort')
  })
})
