import { beforeEach, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { demo, testApp, type TestApp } from '../../test/harness'
import { documentEvents, documents } from '../../db/schema/documents'
import { documentFixtures, pdfBytes, uploadDocument } from './test-helpers'

type Change = { entity: string; id: string; op: string; data?: Record<string, unknown> }

async function pullAll(t: TestApp, token: string, cursor?: string) {
  const changes: Change[] = []
  for (;;) {
    const res = await t.call('GET', `/sync?limit=500${cursor ? `&cursor=${cursor}` : ''}`, { token })
    expect(res.status).toBe(200)
    changes.push(...res.json.changes)
    cursor = res.json.cursor
    if (!res.json.hasMore) return { changes: changes.filter((c) => c.entity === 'document'), cursor: cursor! }
  }
}

const fileOf = (t: TestApp, token: string, id: string) => t.app.request(`/api/documents/${id}/file`, { headers: { Authorization: `Bearer ${token}` } })

describe('documents', () => {
  let t: TestApp
  let f: Awaited<ReturnType<typeof documentFixtures>>
  beforeEach(async () => {
    t = await testApp()
    f = await documentFixtures(t)
  })

  const upload = (audience: string, title = `Doc ${audience}`, token = f.admin) =>
    uploadDocument(t, token, { companyId: f.main, title, category: 'BYLAWS', audience }).then((r) => {
      expect(r.status, JSON.stringify(r.json)).toBe(201)
      return r.json as { id: string; fileId: string; version: number; audience: string }
    })

  it('staff upload; each reader sees the audiences meant for them, another association sees nothing', async () => {
    const members = await upload('MEMBERS')
    const board = await upload('BOARD')
    const staff = await upload('STAFF')
    expect(members).toMatchObject({
      title: 'Doc MEMBERS',
      category: 'BYLAWS',
      fileName: 'Vedtaegter.pdf',
      contentType: 'application/pdf',
      size: pdfBytes().byteLength,
    })
    const titles = async (email: string) => {
      const res = await t.call('GET', `/documents?companyId=${f.main}`, { token: await t.login(email) })
      return res.status === 200 ? (res.json as { title: string }[]).map((d) => d.title).sort() : res.status
    }
    expect(await titles(demo.chairman)).toEqual(['Doc BOARD', 'Doc MEMBERS', 'Doc STAFF'])
    expect(await titles(demo.superadmin)).toEqual(['Doc BOARD', 'Doc MEMBERS', 'Doc STAFF'])
    expect(await titles(demo.boardmember)).toEqual(['Doc BOARD', 'Doc MEMBERS'])
    expect(await titles(demo.resident)).toEqual(['Doc MEMBERS'])
    expect(await titles(demo.otherAdmin)).toBe(404)

    const resident = await t.login(demo.resident)
    const bytes = await fileOf(t, resident, members.id)
    expect(bytes.status).toBe(200)
    expect(new Uint8Array(await bytes.arrayBuffer())).toEqual(pdfBytes())
    expect(bytes.headers.get('content-security-policy')).toContain('sandbox')
    expect(bytes.headers.get('etag')).toBe(`"${members.fileId}"`)
    for (const id of [board.id, staff.id]) {
      expect((await t.call('GET', `/documents/${id}`, { token: resident })).status).toBe(404)
      expect((await fileOf(t, resident, id)).status).toBe(404)
    }
    const other = await t.login(demo.otherAdmin)
    expect((await t.call('GET', `/documents/${members.id}`, { token: other })).status).toBe(404)
    expect((await fileOf(t, other, members.id)).status).toBe(404)
  })

  it('refuses what it must: wrong type, too large, empty, a board member choosing the staff audience, a resident uploading', async () => {
    const bad = (file: { name: string; bytes: Uint8Array } | null, fields: Record<string, string> = {}, token = f.admin) =>
      uploadDocument(t, token, { companyId: f.main, title: 'Referat', category: 'MINUTES', audience: 'MEMBERS', ...fields }, file)
    const exe = await bad({ name: 'virus.exe', bytes: new Uint8Array([0x4d, 0x5a]) })
    expect(exe.status).toBe(422)
    expect(exe.json.issues[0]).toMatchObject({ path: 'file', message: 'This type of file cannot be attached (PDF, images, text, Word or Excel).' })
    expect((await bad({ name: 'fake.pdf', bytes: new TextEncoder().encode('MZ not a pdf') })).status).toBe(422)
    expect((await bad({ name: 'empty.pdf', bytes: new Uint8Array() })).status).toBe(422)
    expect((await bad(null)).json.issues[0]).toMatchObject({ path: 'file', message: 'Please choose a file' })
    const noTitle = await bad({ name: 'a.pdf', bytes: pdfBytes() }, { title: '  ' })
    expect(noTitle.status).toBe(400)
    expect(noTitle.json.issues[0]).toMatchObject({ path: 'title', message: 'Please enter a title' })
    expect((await bad({ name: 'a.pdf', bytes: pdfBytes() }, { category: 'SECRET' })).status).toBe(400)
    const big = new Uint8Array(20 * 1024 * 1024 + 1)
    big.set(pdfBytes())
    const tooBig = await bad({ name: 'big.pdf', bytes: big })
    expect(tooBig.status).toBe(422)
    expect(tooBig.json.issues[0].message).toBe('The file is too large (at most 20 MB).')
    const huge = new Uint8Array(21 * 1024 * 1024)
    huge.set(pdfBytes())
    const refused = await bad({ name: 'huge.pdf', bytes: huge })
    expect(refused.status).toBe(413)
    expect(refused.json.message).toBe('The file is too large (at most 20 MB).')
    const board = await t.login(demo.boardmember)
    const staffOnly = await bad({ name: 'a.pdf', bytes: pdfBytes() }, { audience: 'STAFF' }, board)
    expect(staffOnly.status).toBe(422)
    expect(staffOnly.json.issues[0].path).toBe('audience')
    expect((await bad({ name: 'a.pdf', bytes: pdfBytes() }, {}, board)).status).toBe(201)
    expect((await bad({ name: 'a.pdf', bytes: pdfBytes() }, {}, await t.login(demo.resident))).status).toBe(403)
    expect((await bad({ name: 'a.pdf', bytes: pdfBytes() }, {}, await t.login(demo.otherAdmin))).status).toBe(404)
    expect((await bad({ name: 'a.pdf', bytes: pdfBytes() }, { companyId: f.second })).status).toBe(404)
    expect((await bad({ name: 'a.pdf', bytes: pdfBytes() }, { assemblyId: '0190d5e6-0000-7000-8000-00000000beef' })).status).toBe(422)
  })

  it('an upload resent with the same Idempotency-Key (a new multipart boundary) is answered once, not stored twice', async () => {
    const send = (boundary: string, title = 'Budget 2027') => {
      const head = (name: string, extra = '') => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${extra}\r\n`
      const text = (name: string, value: string) => `${head(name)}\r\n${value}\r\n`
      const body = Buffer.concat([
        Buffer.from(text('companyId', f.main) + text('title', title) + text('category', 'BUDGET') + text('audience', 'MEMBERS')),
        Buffer.from(`${head('file', '; filename="budget.pdf"')}Content-Type: application/pdf\r\n\r\n`),
        Buffer.from(pdfBytes()),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ])
      return t.app.request('/api/documents', {
        method: 'POST',
        headers: { Authorization: `Bearer ${f.admin}`, 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Idempotency-Key': 'upload-1' },
        body,
      })
    }
    const first = await send('----formdata-a1')
    expect(first.status).toBe(201)
    const again = await send('----formdata-b2')
    expect(again.status).toBe(201)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(((await again.json()) as { id: string }).id).toBe(((await first.json()) as { id: string }).id)
    expect(await t.db.select().from(documents).all()).toHaveLength(1)
    expect((await send('----formdata-c3', 'Another title')).status).toBe(422)
  })

  it('a virus scan that says infected refuses the upload and stores nothing', async () => {
    const scanned = await testApp({}, { messages: { scanner: { scan: async () => 'infected' } } })
    const g = await documentFixtures(scanned)
    const res = await uploadDocument(scanned, g.admin, { companyId: g.main, title: 'X', category: 'OTHER', audience: 'MEMBERS' })
    expect(res.status).toBe(422)
    expect(res.json.issues[0].message).toBe('The file was refused by the virus scan.')
    expect(await scanned.db.select().from(documents).all()).toHaveLength(0)
  })

  it('edits with If-Match, replaces the file with a new file id, deletes; the audit trail says who did what', async () => {
    const doc = await upload('MEMBERS', 'Vedtægter 2026')
    const stale = await t.call('PATCH', `/documents/${doc.id}`, { token: f.admin, body: { title: 'X' }, headers: { 'If-Match': '"7"' } })
    expect(stale.status).toBe(412)
    const chairman = await t.login(demo.chairman)
    const edited = await t.call('PATCH', `/documents/${doc.id}`, {
      token: chairman,
      body: { title: 'Vedtægter 2027', audience: 'BOARD' },
      headers: { 'If-Match': `"${doc.version}"` },
    })
    expect(edited.status, JSON.stringify(edited.json)).toBe(200)
    expect(edited.json).toMatchObject({ title: 'Vedtægter 2027', audience: 'BOARD', version: doc.version + 1 })
    const resident = await t.login(demo.resident)
    expect((await t.call('PATCH', `/documents/${doc.id}`, { token: resident, body: { title: 'Mine' } })).status).toBe(404)
    const board = await t.login(demo.boardmember)
    expect((await t.call('PATCH', `/documents/${doc.id}`, { token: board, body: { audience: 'STAFF' } })).status).toBe(422)

    const form = new FormData()
    form.set('file', new File([new TextEncoder().encode('Nye vedtægter') as unknown as ArrayBuffer], 'vedtaegter.txt'))
    const replaced = await t.app.request(`/api/documents/${doc.id}/file`, { method: 'PUT', headers: { Authorization: `Bearer ${f.admin}` }, body: form })
    expect(replaced.status).toBe(200)
    const after = (await replaced.json()) as { fileId: string; contentType: string; fileName: string }
    expect(after).toMatchObject({ contentType: 'text/plain', fileName: 'vedtaegter.txt' })
    expect(after.fileId).not.toBe(doc.fileId)
    expect(await (await fileOf(t, chairman, doc.id)).text()).toBe('Nye vedtægter')

    expect((await t.call('DELETE', `/documents/${doc.id}`, { token: resident })).status).toBe(404)
    expect((await t.call('GET', `/documents/${doc.id}/history`, { token: chairman })).json).toHaveLength(3)
    expect((await t.call('DELETE', `/documents/${doc.id}`, { token: f.admin })).status).toBe(204)
    expect((await t.call('GET', `/documents/${doc.id}`, { token: f.admin })).status).toBe(404)

    const trail = await t.db.select().from(documentEvents).where(eq(documentEvents.documentId, doc.id)).all()
    expect(trail.map((e) => [e.action, e.userName]).sort()).toEqual(
      [
        ['DELETED', 'Anders Nielsen'],
        ['EDITED', 'Karen Holm'],
        ['REPLACED', 'Anders Nielsen'],
        ['UPLOADED', 'Anders Nielsen'],
      ].sort(),
    )
    expect(trail.find((e) => e.action === 'EDITED')!.details).toEqual({ title: ['Vedtægter 2026', 'Vedtægter 2027'], audience: ['MEMBERS', 'BOARD'] })
  })

  it('sync: a resident gets the members’ documents, and a delete when one is no longer for them', async () => {
    const resident = await t.login(demo.resident)
    const board = await t.login(demo.boardmember)
    const doc = await upload('MEMBERS', 'Husorden')
    await upload('STAFF', 'Lønninger')
    const first = await pullAll(t, resident)
    expect(first.changes.map((c) => [c.op, c.data?.title])).toEqual([['upsert', 'Husorden']])
    const boardFirst = await pullAll(t, board)
    expect(boardFirst.changes.map((c) => c.data?.title)).toEqual(['Husorden'])

    await t.call('PATCH', `/documents/${doc.id}`, { token: f.admin, body: { audience: 'STAFF' } })
    const next = await pullAll(t, resident, first.cursor)
    expect(next.changes).toEqual([expect.objectContaining({ id: doc.id, op: 'delete' })])
    expect((await pullAll(t, board, boardFirst.cursor)).changes).toEqual([expect.objectContaining({ id: doc.id, op: 'delete' })])
    expect((await pullAll(t, await t.login(demo.otherAdmin))).changes).toEqual([])
  })

  it('the sweep removes replaced and deleted files only', async () => {
    const kept = await upload('MEMBERS', 'Kept')
    const gone = await upload('MEMBERS', 'Gone')
    await t.call('DELETE', `/documents/${gone.id}`, { token: f.admin })
    expect(await t.services.documents.sweepFiles(0)).toBe(1)
    expect((await fileOf(t, f.admin, kept.id)).status).toBe(200)
    expect(await t.services.documents.sweepFiles(0)).toBe(0)
    const row = await t.db.select().from(documents).where(eq(documents.id, kept.id)).get()
    expect(row?.fileId).toBe(kept.fileId)
  })
})

describe('documents and residency', () => {
  it('a resident whose agreement ends gets a reset (their copy loses the members’ documents); a new resident gets one too', async () => {
    const t = await testApp()
    const f = await documentFixtures(t)
    const { agreements } = await import('../../db/schema/agreements')
    const { users } = await import('../../db/schema/users')
    await uploadDocument(t, f.admin, { companyId: f.main, title: 'Husorden', category: 'HOUSE_RULES', audience: 'MEMBERS' })
    const resident = await t.login(demo.resident)
    const first = await pullAll(t, resident)
    expect(first.changes.map((c) => c.data?.title)).toEqual(['Husorden'])
    const userId = (await t.db.select({ id: users.id }).from(users).where(eq(users.emailAddress, demo.resident)).get())!.id
    await t.db.update(agreements).set({ status: 'CLOSED' }).where(eq(agreements.memberUserId, userId)).run()
    const after = await t.call('GET', `/sync?limit=500&cursor=${first.cursor}`, { token: resident })
    expect(after.json.reset).toBe(true)
    expect((after.json.changes as Change[]).filter((c) => c.entity === 'document')).toEqual([])
    // A former resident keeps sight of the company (their own records) but reads none of its documents.
    expect((await t.call('GET', `/documents?companyId=${f.main}`, { token: resident })).json).toEqual([])

    // Moving in again: the next pull starts afresh and brings the members' documents.
    await t.db.update(agreements).set({ status: 'ACCEPTED' }).where(eq(agreements.memberUserId, userId)).run()
    const again = await t.call('GET', `/sync?limit=500&cursor=${after.json.cursor}`, { token: resident })
    expect(again.json.reset).toBe(true)
    expect((again.json.changes as Change[]).filter((c) => c.entity === 'document').map((c) => c.data?.title)).toEqual(['Husorden'])
  })
})
