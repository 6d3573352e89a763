import { beforeEach, describe, expect, it } from 'vitest'
import { demo, testApp, type TestApp } from '../../test/harness'
import { DA, EN, issue, pullChanges } from '../../test/requests'
import { documentFixtures, pdfBytes } from '../documents/test-helpers'
import { recordChange } from '../sync/change-log'
import { eq } from 'drizzle-orm'
import { articleSearchGrams } from '../../db/schema/knowledge'
import { attachFile, createArticle, laundryArticle, searchTitles } from './test-helpers'

const pullArticles = (t: TestApp, token: string, from?: string) => pullChanges(t, token, 'article', from)

describe('knowledge bank: articles', () => {
  let t: TestApp
  let f: Awaited<ReturnType<typeof documentFixtures>>
  let admin: string
  let resident: string
  let other: string
  let superadmin: string
  beforeEach(async () => {
    t = await testApp()
    f = await documentFixtures(t)
    admin = f.admin
    resident = await t.login(demo.resident)
    other = await t.login(demo.otherAdmin)
    superadmin = await t.login(demo.superadmin)
  })

  it('staff write an article with a sanitized body; members read it, another association gets 404; the platform’s are everyone’s', async () => {
    const created = await createArticle(t, admin, { ...laundryArticle, companyId: f.main })
    expect(created.status, JSON.stringify(created.json)).toBe(201)
    expect(created.json).toMatchObject({
      companyId: f.main,
      language: 'da',
      title: 'Vaskeriet og gården',
      tags: ['vaskeri', 'affald'],
      version: 1,
      attachments: [],
    })
    expect(created.json.body).not.toContain('script')
    expect(created.json.body).toContain('<b>storskrald</b>')
    const id = created.json.id as string
    expect((await t.call('GET', `/articles/${id}`, { token: resident })).json.title).toBe('Vaskeriet og gården')
    expect((await t.call('GET', `/articles/${id}`, { token: other })).status).toBe(404)
    expect((await t.call('GET', `/articles?companyId=${f.main}`, { token: other })).status).toBe(404)
    // A resident reads but does not write (403); a board member writes (every company role).
    expect((await t.call('PATCH', `/articles/${id}`, { token: resident, body: { title: 'Nyt' }, headers: { 'If-Match': '"1"' } })).status).toBe(403)
    const board = await t.login(demo.boardmember)
    const edited = await t.call('PATCH', `/articles/${id}`, { token: board, body: { tags: ['vaskeri', 'regler'] }, headers: { 'If-Match': '"1"' } })
    expect(edited.json).toMatchObject({ tags: ['vaskeri', 'regler'], version: 2 })
    expect((await t.call('PATCH', `/articles/${id}`, { token: admin, body: { title: 'Gammel' }, headers: { 'If-Match': '"1"' } })).status).toBe(412)

    // Platform articles: only the super admin writes them; every signed-in user reads them.
    expect((await createArticle(t, admin, { language: 'en', title: 'Everyone', body: 'x' })).status).toBe(403)
    const platform = await createArticle(t, superadmin, {
      companyId: null,
      language: 'en',
      title: 'How Vipps MobilePay agreements work',
      body: '<p>An agreement is accepted in the app.</p>',
    })
    expect(platform.status).toBe(201)
    expect((await t.call('GET', `/articles/${platform.json.id}`, { token: other })).status).toBe(200)
    expect((await t.call('PATCH', `/articles/${platform.json.id}`, { token: admin, body: { title: 'Mine' } })).status).toBe(403)
    const list = async (token: string) => ((await t.call('GET', '/articles', { token })).json as { title: string }[]).map((a) => a.title)
    expect(await list(resident)).toEqual(['How Vipps MobilePay agreements work', 'Vaskeriet og gården'])
    expect(await list(other)).toEqual(['How Vipps MobilePay agreements work'])
    // The super admin reads every association's (as the market's scope, and their offline copy).
    expect(await list(superadmin)).toEqual(['How Vipps MobilePay agreements work', 'Vaskeriet og gården'])

    // Sync: the resident gets both, the other association's admin the platform's only; a delete follows.
    expect((await pullArticles(t, resident)).changes.map((c) => c.data?.title).sort()).toEqual(['How Vipps MobilePay agreements work', 'Vaskeriet og gården'])
    const { changes, cursor } = await pullArticles(t, other)
    expect(changes.map((c) => c.data?.title)).toEqual(['How Vipps MobilePay agreements work'])
    expect((await t.call('DELETE', `/articles/${platform.json.id}`, { token: superadmin })).status).toBe(204)
    expect((await pullArticles(t, other, cursor)).changes).toEqual([expect.objectContaining({ id: platform.json.id, op: 'delete' })])
  })

  it('finds an article by a Danish word in its body, by the start of a word, without accents, and never another association’s', async () => {
    await createArticle(t, admin, { ...laundryArticle, companyId: f.main })
    await createArticle(t, admin, {
      companyId: f.main,
      language: 'da',
      title: 'Varme- og vandperioden',
      body: '<p>Perioden går fra 1. maj til 30. april; aflæsning af målerne.</p>',
    })
    await createArticle(t, other, { companyId: f.second, language: 'da', title: 'Havnehusets storskrald', body: '<p>Storskrald hentes om tirsdagen.</p>' })
    await createArticle(t, superadmin, {
      language: 'en',
      title: 'How Vipps MobilePay agreements work',
      body: '<p>Each member accepts the agreement in the app; charges follow monthly.</p>',
      tags: ['vipps'],
    })

    expect(await searchTitles(t, resident, 'storskrald')).toEqual(['Vaskeriet og gården'])
    expect(await searchTitles(t, resident, 'første')).toEqual(['Vaskeriet og gården'])
    expect(await searchTitles(t, resident, 'Tøjet')).toEqual(['Vaskeriet og gården'])
    expect(await searchTitles(t, resident, 'affald')).toEqual(['Vaskeriet og gården'])
    expect(await searchTitles(t, resident, 'AFFALDSSORT')).toEqual(['Vaskeriet og gården'])
    expect(await searchTitles(t, resident, 'garden')).toEqual(['Vaskeriet og gården'])
    expect(await searchTitles(t, resident, 'aflæsning målerne')).toEqual(['Varme- og vandperioden'])
    expect(await searchTitles(t, resident, 'storskrald maj')).toEqual([])
    expect(await searchTitles(t, resident, 'agreement')).toEqual(['How Vipps MobilePay agreements work'])
    expect(await searchTitles(t, resident, 'vipps')).toEqual(['How Vipps MobilePay agreements work'])
    expect(await searchTitles(t, resident, 'vaskeri', '&language=en')).toEqual([])
    // The other association finds its own, never Solgården's; the platform's for everyone.
    expect(await searchTitles(t, other, 'storskrald')).toEqual(['Havnehusets storskrald'])
    expect(await searchTitles(t, other, 'Tøjet')).toEqual([])
    expect(await searchTitles(t, other, 'monthly')).toEqual(['How Vipps MobilePay agreements work'])
    // A title's word weighs more than the body's.
    expect(await searchTitles(t, resident, 'periode')).toEqual(['Varme- og vandperioden'])
    // FTS syntax is only punctuation to the search: never a 500.
    for (const q of [
      '"',
      '"storskrald',
      'storskrald*',
      '-storskrald',
      'title:storskrald',
      'NEAR(a b)',
      'a OR',
      '*',
      "'; DROP TABLE articles; --",
      '(',
      'storskrald AND',
      '^',
      '!!!',
    ])
      expect((await t.call('GET', `/articles?q=${encodeURIComponent(q)}`, { token: resident })).status, q).toBe(200)
    expect(await searchTitles(t, resident, '"storskrald*"')).toEqual(['Vaskeriet og gården'])
    expect(await searchTitles(t, resident, 'title:storskrald')).toEqual([])
  })

  it('pages search results by score with a Link header', async () => {
    for (const n of [1, 2, 3])
      await createArticle(t, admin, { companyId: f.main, language: 'da', title: `Regler ${n}`, body: `<p>${'regler '.repeat(n)}for haven</p>` })
    const seen: string[] = []
    let url: string | null = '/articles?q=regler&limit=2'
    while (url) {
      const res = await t.call('GET', url, { token: resident })
      expect(res.status).toBe(200)
      seen.push(...(res.json as { title: string }[]).map((a) => a.title))
      url = res.headers.get('link')?.match(/<\/api([^>]+)>/)?.[1] ?? null
    }
    expect(seen.sort()).toEqual(['Regler 1', 'Regler 2', 'Regler 3'])
    expect((await t.call('GET', '/articles?q=regler&cursor=nope', { token: resident })).status).toBe(400)
  })

  it('ranks by the row alone: another association’s articles change neither a resident’s results nor their cursors', async () => {
    for (const [title, body, tags] of [
      ['Haven om sommeren', '<p>Grill i haven er tilladt.</p>', []],
      ['Regler for gården', '<p>Haven lukker kl. 22.</p>', ['haven']],
      ['Fælleshus', '<p>Haven bag huset kan lånes.</p>', []],
      ['Haven og haveudvalget', '<p>Udvalget mødes i haven.</p>', ['haven']],
    ] as const) {
      t.clock.advance(60_000)
      await createArticle(t, admin, { companyId: f.main, language: 'da', title, body, tags })
    }
    const pages = async () => {
      const seen: { titles: string[]; link: string | null }[] = []
      let url: string | null = '/articles?q=haven&limit=2'
      while (url) {
        const res = await t.call('GET', url, { token: resident })
        expect(res.status).toBe(200)
        const link = res.headers.get('link')
        seen.push({ titles: (res.json as { title: string }[]).map((a) => a.title), link })
        url = link?.match(/<\/api([^>]+)>/)?.[1] ?? null
      }
      return seen
    }
    const before = await pages()
    // The word in title, tags and body first, then in the title and body, the tags and body, the body (decision 0085); the newest first among equals.
    expect(before.flatMap((p) => p.titles)).toEqual(['Haven og haveudvalget', 'Haven om sommeren', 'Regler for gården', 'Fælleshus'])
    for (let i = 0; i < 5; i++)
      await createArticle(t, other, { companyId: f.second, language: 'da', title: `Haven ${i}`, body: '<p>haven haven haven</p>', tags: ['haven'] })
    expect(await pages()).toEqual(before)
  })

  it('keeps the search grams with the article: written with it, rewritten with its text, gone with it (decision 0085)', async () => {
    const id = (await createArticle(t, admin, { ...laundryArticle, companyId: f.main })).json.id as string
    const gramsOf = async () =>
      await t.db
        .select({ gram: articleSearchGrams.gram, companyId: articleSearchGrams.companyId })
        .from(articleSearchGrams)
        .where(eq(articleSearchGrams.articleId, id))
        .all()
    expect(await gramsOf()).toEqual(
      expect.arrayContaining([
        { gram: '^va', companyId: f.main },
        { gram: 'tor', companyId: f.main },
      ]),
    )
    const edited = await t.call('PATCH', `/articles/${id}`, {
      token: admin,
      body: { title: 'Cykelkælderen', body: '<p>Under opgang 5.</p>', tags: [] },
      headers: { 'If-Match': '"1"' },
    })
    expect(edited.status).toBe(200)
    expect(await searchTitles(t, resident, 'storskrald')).toEqual([])
    expect(await searchTitles(t, resident, 'cykelkaelder')).toEqual(['Cykelkælderen'])
    expect((await gramsOf()).map((g) => g.gram)).not.toContain('tor')
    expect((await t.call('DELETE', `/articles/${id}`, { token: admin, headers: { 'If-Match': '"2"' } })).status).toBe(204)
    expect(await gramsOf()).toEqual([])
  })

  it('gives the super admin every association’s articles in the offline copy, as their change log does', async () => {
    const own = (await createArticle(t, admin, { ...laundryArticle, companyId: f.main })).json.id as string
    const theirs = (await createArticle(t, other, { companyId: f.second, language: 'da', title: 'Havnehuset', body: '<p>x</p>' })).json.id as string
    const first = await pullArticles(t, superadmin)
    expect(first.changes.map((c) => c.id)).toEqual(expect.arrayContaining([own, theirs]))
    await t.call('PATCH', `/articles/${own}`, { token: admin, body: { title: 'Vaskeriet' }, headers: { 'If-Match': '"1"' } })
    const later = await pullArticles(t, superadmin, first.cursor)
    expect(later.changes).toEqual([expect.objectContaining({ id: own, op: 'upsert', data: expect.objectContaining({ title: 'Vaskeriet' }) })])
    expect(await searchTitles(t, superadmin, 'havnehuset')).toEqual(['Havnehuset'])
  })

  it('keeps the version when files come and go (a queued edit still applies) and names a missing attachment', async () => {
    const id = (await createArticle(t, admin, { ...laundryArticle, companyId: f.main })).json.id as string
    const added = await attachFile(t, admin, id, { name: 'Vaskeregler.pdf', bytes: pdfBytes('Vaskeregler') })
    expect(added.json.version).toBe(1)
    const edited = await t.call('PATCH', `/articles/${id}`, { token: admin, body: { title: 'Vaskeriet' }, headers: { 'If-Match': '"1"' } })
    expect(edited.status, JSON.stringify(edited.json)).toBe(200)
    expect(edited.json).toMatchObject({ version: 2, attachments: [expect.objectContaining({ fileName: 'Vaskeregler.pdf' })] })
    const missing = crypto.randomUUID()
    for (const [headers, text] of [
      [EN, 'Attachment not found.'],
      [DA, 'Bilaget findes ikke.'],
    ] as const) {
      const removed = await t.call('DELETE', `/articles/${id}/attachments/${missing}`, {
        token: admin,
        headers: { ...headers, 'Idempotency-Key': crypto.randomUUID() },
      })
      expect(removed.status).toBe(404)
      expect(removed.json.message).toBe(text)
      const read = await t.call('GET', `/articles/${id}/attachments/${missing}`, { token: resident, headers })
      expect(read.status).toBe(404)
      expect(read.json.message).toBe(text)
    }
  })

  it('folds accents alike on both engines (š ž ř ő ű ś ź ż ń …), and finds æ, ø and å spelt ae, oe or o, aa or a (decision 0085)', async () => {
    await createArticle(t, admin, {
      companyId: f.main,
      language: 'da',
      title: 'Dvořák i Győr',
      body: '<p>Šťastný rejste til Gdańsk, Kraków, Łódź og Zürich; Ærø er en ø; Bűn, Świnoujście, Żagań, Žilina.</p>',
    })
    for (const q of [
      'dvorak',
      'DVOŘÁK',
      'gyor',
      'stastny',
      'gdansk',
      'krakow',
      'łodz',
      'lodz',
      'zurich',
      'bun',
      'swinoujscie',
      'zagan',
      'zilina',
      'ærø',
      'aeroe',
      'aero',
    ])
      expect(await searchTitles(t, resident, q), q).toEqual(['Dvořák i Győr'])
    expect(await searchTitles(t, resident, 'aera')).toEqual([])
  })

  it('limits searches to 120 a minute per user (a list without words is not counted)', async () => {
    for (let i = 0; i < 120; i++) await searchTitles(t, resident, 'vask')
    expect((await t.call('GET', '/articles', { token: resident })).status).toBe(200)
    const limited = await t.call('GET', '/articles?q=vask', { token: resident })
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toBeTruthy()
    expect((await t.call('GET', '/articles?q=vask', { token: admin })).status).toBe(200)
    t.clock.advance(60_000)
    expect((await t.call('GET', '/articles?q=vask', { token: resident })).status).toBe(200)
  })

  it('pages the list newest first across the platform’s and the association’s articles', async () => {
    for (const [token, companyId, title] of [
      [admin, f.main, 'S1'],
      [superadmin, null, 'P1'],
      [admin, f.main, 'S2'],
      [other, f.second, 'H1'],
      [superadmin, null, 'P2'],
      [admin, f.main, 'S3'],
    ] as const) {
      t.clock.advance(1000)
      expect((await createArticle(t, token, { companyId, language: 'da', title, body: '<p>x</p>' })).status).toBe(201)
    }
    const walk = async (token: string) => {
      const seen: string[] = []
      let url: string | null = '/articles?limit=2'
      while (url) {
        const res = await t.call('GET', url, { token })
        seen.push(...(res.json as { title: string }[]).map((a) => a.title))
        url = res.headers.get('link')?.match(/<\/api([^>]+)>/)?.[1] ?? null
      }
      return seen
    }
    expect(await walk(resident)).toEqual(['S3', 'P2', 'S2', 'P1', 'S1'])
    expect(await walk(other)).toEqual(['P2', 'H1', 'P1'])
    expect(await walk(superadmin)).toEqual(['S3', 'P2', 'H1', 'S2', 'P1', 'S1'])
  })

  it('refuses bad input with a clear message in the user’s language', async () => {
    const cases: [Record<string, unknown>, string, string, string][] = [
      [{ language: 'da', title: ' ', body: 'x' }, 'title', 'Please enter a title', 'Indtast en titel'],
      [{ language: 'da', title: 'x', body: ' ' }, 'body', 'Please write the article', 'Skriv venligst artiklen'],
      [{ language: 'xx', title: 'x', body: 'y' }, 'language', 'Please choose one of the options', 'Vælg en af mulighederne'],
      [{ language: 'da', title: 'x', body: 'y', tags: ['a'.repeat(31)] }, 'tags.0', 'A tag can be at most 30 characters', 'Et emneord kan højst være 30 tegn'],
      [
        { language: 'da', title: 'x', body: 'y', tags: Array.from({ length: 11 }, (_, i) => `t${i}`) },
        'tags',
        'An article can have at most 10 tags',
        'En artikel kan højst have 10 emneord',
      ],
    ]
    for (const [body, path, en, da] of cases) {
      for (const [headers, text] of [
        [EN, en],
        [DA, da],
      ] as const) {
        const res = await createArticle(t, admin, { companyId: f.main, ...body }, headers)
        expect(res.status, JSON.stringify(res.json)).toBe(400)
        expect(issue(res, path)).toBe(text)
      }
    }
    const long = await t.call('GET', `/articles?q=${'a'.repeat(201)}`, { token: resident, headers: DA })
    expect(long.status).toBe(400)
  })

  it('takes attachments of the allowed types, scanned, and serves them to readers only', async () => {
    const id = (await createArticle(t, admin, { ...laundryArticle, companyId: f.main })).json.id as string
    const added = await attachFile(t, admin, id, { name: 'Vaskeregler.pdf', bytes: pdfBytes('Vaskeregler') })
    expect(added.status, JSON.stringify(added.json)).toBe(200)
    expect(added.json.attachments).toEqual([expect.objectContaining({ fileName: 'Vaskeregler.pdf', contentType: 'application/pdf' })])
    const fileId = added.json.attachments[0].id
    const file = await t.app.request(`/api/articles/${id}/attachments/${fileId}`, { headers: { Authorization: `Bearer ${resident}` } })
    expect(file.status).toBe(200)
    expect(file.headers.get('content-security-policy')).toContain('sandbox')
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(pdfBytes('Vaskeregler'))
    expect((await t.app.request(`/api/articles/${id}/attachments/${fileId}`, { headers: { Authorization: `Bearer ${other}` } })).status).toBe(404)
    expect((await attachFile(t, resident, id, { name: 'x.pdf', bytes: pdfBytes() })).status).toBe(403)
    const exe = await attachFile(t, admin, id, { name: 'virus.exe', bytes: new Uint8Array([0x4d, 0x5a]) }, 'da')
    expect(exe.status).toBe(422)
    expect(issue(exe, 'file')).toBeTruthy()
    const fake = await attachFile(t, admin, id, { name: 'fake.pdf', bytes: new TextEncoder().encode('not a pdf') })
    expect(fake.status).toBe(422)
    expect((await attachFile(t, admin, id, null)).status).toBe(400)
    const removed = await t.call('DELETE', `/articles/${id}/attachments/${fileId}`, { token: admin, headers: { 'Idempotency-Key': crypto.randomUUID() } })
    expect(removed.json.attachments).toEqual([])
    // The removed file's bytes go with the sweep.
    expect(await t.services.articles.sweepFiles(0)).toBe(1)
  })

  it('logs a platform article for everyone, and refuses a change that names nobody', async () => {
    await expect(t.lock.run(() => recordChange(t.db, t.clock, 'article', 'x', 'upsert', {}))).rejects.toThrow(/without a scope/)
    await expect(t.lock.run(() => recordChange(t.db, t.clock, 'article', 'x', 'upsert', { everyone: true, companyId: f.main }))).rejects.toThrow(
      /everyone and someone/,
    )
  })

  it('refuses an infected attachment (the scanning hook)', async () => {
    const scanned = await testApp({}, { messages: { scanner: { scan: async () => 'infected' } } })
    const g = await documentFixtures(scanned)
    const id = (await createArticle(scanned, g.admin, { ...laundryArticle, companyId: g.main })).json.id as string
    const res = await attachFile(scanned, g.admin, id, { name: 'Vaskeregler.pdf', bytes: pdfBytes() })
    expect(res.status).toBe(422)
    expect((await scanned.call('GET', `/articles/${id}`, { token: g.admin })).json.attachments).toEqual([])
  })
})
