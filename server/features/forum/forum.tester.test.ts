/**
 * What an outside tester found in the forum (issue #22, decision 0066 "Added afterwards"): editing a
 * post in a locked thread says so, and a report shows the reported post's text and where it is.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { demo, testApp, type TestApp } from '../../test/harness'
import { DA, EN } from '../../test/requests'
import { documentFixtures } from '../documents/test-helpers'
import { excerptOf } from './forum.service'
import { postsOf, replyTo, startThread } from './test-helpers'

describe('forum after the outside test', () => {
  let t: TestApp
  let f: Awaited<ReturnType<typeof documentFixtures>>
  let author: string
  let neighbour: string
  let board: string
  beforeEach(async () => {
    t = await testApp()
    f = await documentFixtures(t)
    author = await t.login(demo.resident)
    neighbour = await t.login(demo.residentDa)
    board = await t.login(demo.boardmember)
  })

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
