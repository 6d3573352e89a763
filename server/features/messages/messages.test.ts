import { Writable } from 'node:stream'
import pino from 'pino'
import { eq, sql } from 'drizzle-orm'
import { beforeEach, describe, expect, it } from 'vitest'
import { demo, testApp, type TestApp } from '../../test/harness'
import { mailOutbox } from '../../db/schema/platform'
import { messages as messagesTable } from '../../db/schema/messages'
import { createAgreement } from '../agreements/test-helpers'
import { companyIds } from '../companies/test-helpers'
import { copenhagenToInstant } from './messages.service'

const residentEn = 'beboer03@solgaarden.dk'

/** The demo company with three residents (DA, DA, EN) who hold agreements. */
async function setup(t: TestApp) {
  const { main, second } = await companyIds(t)
  const admin = await t.login(demo.admin)
  await createAgreement(t, {}, admin)
  await createAgreement(t, { emailAddress: demo.residentDa, memberName: 'Lars Pedersen' }, admin)
  await createAgreement(t, { emailAddress: residentEn, memberName: 'Emma Hansen' }, admin)
  return { main, second, admin }
}

const draft = (companyId: string, extra: Record<string, unknown> = {}) => ({
  companyId,
  type: 'NOTICE',
  subject: 'Generalforsamling 2027',
  body: 'Kære beboere,\n<b>Generalforsamlingen</b> holdes den 12. marts.<script>alert(1)</script>',
  recipient: { kind: 'ALL_MEMBERS' },
  ...extra,
})

const userId = (t: TestApp, token: string) => t.call('GET', '/account/info', { token }).then((r) => r.json.id as string)

describe('messages', () => {
  let t: TestApp
  let f: Awaited<ReturnType<typeof setup>>
  beforeEach(async () => {
    t = await testApp()
    f = await setup(t)
  })

  it('a board member sends a notice to all members: each gets a notification and an e-mail in their language', async () => {
    const board = await t.login(demo.boardmember)
    const created = await t.call('POST', '/messages', { token: board, body: draft(f.main) })
    expect(created.status, JSON.stringify(created.json)).toBe(201)
    expect(created.json.status).toBe('DRAFT')
    expect(created.json.body).not.toContain('<script>')
    const mailsBefore = (await t.mails()).length

    const sent = await t.call('POST', `/messages/${created.json.id}/send`, { token: board })
    expect(sent.status, JSON.stringify(sent.json)).toBe(200)
    expect(sent.json.status).toBe('SENT')
    const emails = sent.json.recipients.map((r: { emailAddress: string }) => r.emailAddress).sort()
    // Residents with agreements and the other staff; never the sender.
    expect(emails).toEqual([demo.resident, demo.residentDa, residentEn, demo.admin, demo.accountant, demo.chairman].sort())

    const mails = (await t.mails()).slice(mailsBefore)
    expect(mails).toHaveLength(6)
    const en = mails.find((m) => m.to === residentEn)!
    expect(en.subject).toBe('New notice: Generalforsamling 2027')
    expect(en.text).toContain('Hello Emma Hansen,')
    expect(en.text).toContain('Jonas Berg from Andelsboligforeningen Solgården sent you a notice.')
    expect(en.text).toContain('Generalforsamlingen holdes den 12. marts.')
    expect(en.html).toContain('<b>Generalforsamlingen</b>')
    expect(en.html).not.toContain('<script>')
    expect(en.text).toContain(`http://localhost:3000/messages/${created.json.id}`)
    const da = mails.find((m) => m.to === demo.residentDa)!
    expect(da.subject).toBe('Ny meddelelse: Generalforsamling 2027')
    expect(da.text).toContain('Hej Lars Pedersen,')
    expect(da.text).toContain('Jonas Berg fra Andelsboligforeningen Solgården har sendt dig en meddelelse.')
    expect(da.text).toContain('Åbn besked')

    const resident = await t.login(demo.residentDa)
    const notifications = await t.call('GET', '/notifications', { token: resident })
    expect(
      notifications.json.some(
        (n: { title: string; actionUrl: string }) => n.title === 'Ny meddelelse: Generalforsamling 2027' && n.actionUrl === `/messages/${created.json.id}`,
      ),
    ).toBe(true)
  })

  it('tracks received and viewed per recipient: SENT → DELIVERED when every e-mail left → READ when everyone opened it', async () => {
    const admin = f.admin
    const created = await t.call('POST', '/messages', { token: admin, body: draft(f.main, { recipient: { kind: 'BOARD' }, type: 'MESSAGE' }) })
    const id = created.json.id
    await t.call('POST', `/messages/${id}/send`, { token: admin })
    // The mail worker sent the e-mails.
    await t.db.update(mailOutbox).set({ status: 'sent', sentAt: '2026-11-23T09:00:05.000Z' }).run()
    expect((await t.services.messages.tick()).received).toBe(3)
    let view = await t.call('GET', `/messages/${id}`, { token: admin })
    expect(view.json.status).toBe('DELIVERED')
    expect(view.json.recipients.every((r: { receivedAt: string | null }) => r.receivedAt === '2026-11-23T09:00:05.000Z')).toBe(true)

    for (const email of [demo.chairman, demo.accountant, demo.boardmember]) {
      const token = await t.login(email)
      const opened = await t.call('POST', `/messages/${id}/view`, { token })
      expect(opened.status).toBe(200)
      // Staff see every recipient; the viewer's own row has its time.
      const own = opened.json.recipients.find((r: { emailAddress: string }) => r.emailAddress === email)
      expect(own.viewedAt).toBe('2026-11-23T09:00:00.000Z')
    }
    view = await t.call('GET', `/messages/${id}`, { token: admin })
    expect(view.json.status).toBe('READ')
  })

  it('a resident writes to the board only, and sees only their own recipient row of a message to them', async () => {
    const resident = await t.login(demo.resident)
    const toAll = await t.call('POST', '/messages', { token: resident, body: draft(f.main, { type: 'MESSAGE' }) })
    expect(toAll.status).toBe(422)
    // Answered in the resident's language (Danish).
    expect(toAll.json.issues[0]).toMatchObject({ path: 'recipient', message: 'Beboere kan kun skrive til bestyrelsen.' })
    const toBoard = await t.call('POST', '/messages', { token: resident, body: draft(f.main, { recipient: { kind: 'BOARD' } }) })
    expect(toBoard.status).toBe(201)
    // A resident's message is a message, whatever type they ask for.
    expect(toBoard.json.type).toBe('MESSAGE')
    const sent = await t.call('POST', `/messages/${toBoard.json.id}/send`, { token: resident })
    expect(sent.json.recipients).toHaveLength(4)

    const notice = await t.call('POST', '/messages', { token: f.admin, body: draft(f.main) })
    await t.call('POST', `/messages/${notice.json.id}/send`, { token: f.admin })
    const asRecipient = await t.call('GET', `/messages/${notice.json.id}`, { token: resident })
    expect(asRecipient.json.recipients).toHaveLength(1)
    expect(asRecipient.json.recipients[0].emailAddress).toBe(demo.resident)
  })

  it('sends to one member or to everyone at an address, and refuses a member of another company', async () => {
    const residentId = await userId(t, await t.login(residentEn))
    const one = await t.call('POST', '/messages', { token: f.admin, body: draft(f.main, { recipient: { kind: 'MEMBER', userId: residentId } }) })
    expect(one.json.recipient).toMatchObject({ kind: 'MEMBER', label: 'Emma Hansen' })
    const sent = await t.call('POST', `/messages/${one.json.id}/send`, { token: f.admin })
    expect(sent.json.recipients.map((r: { emailAddress: string }) => r.emailAddress)).toEqual([residentEn])

    const addressId = (await t.call('GET', `/agreement`, { token: f.admin })).json[0].addresses[0].id
    const atAddress = await t.call('POST', '/messages', { token: f.admin, body: draft(f.main, { recipient: { kind: 'ADDRESS', addressId } }) })
    expect(atAddress.status).toBe(201)
    const sentAddress = await t.call('POST', `/messages/${atAddress.json.id}/send`, { token: f.admin })
    // Every test agreement covers the first address.
    expect(sentAddress.json.recipients).toHaveLength(3)

    const otherAdminId = await userId(t, await t.login(demo.otherAdmin))
    const foreign = await t.call('POST', '/messages', { token: f.admin, body: draft(f.main, { recipient: { kind: 'MEMBER', userId: otherAdminId } }) })
    expect(foreign.status).toBe(422)
  })

  it('validates with the docs/PRODUCT.md §5 messages', async () => {
    const res = await t.call('POST', '/messages', { token: f.admin, body: { companyId: f.main, subject: '  ', body: '' } })
    expect(res.status).toBe(400)
    const byPath = Object.fromEntries(res.json.issues.map((i: { path: string; message: string }) => [i.path, i.message]))
    expect(byPath).toMatchObject({ subject: 'Please enter a subject', body: 'Please enter message content', recipient: 'Please select a recipient' })
  })

  it("a draft is its author's: other staff get 404, a sent message cannot be edited (409), a retried create answers the same draft", async () => {
    const id = crypto.randomUUID()
    const created = await t.call('POST', '/messages', { token: f.admin, body: draft(f.main, { id }) })
    const again = await t.call('POST', '/messages', { token: f.admin, body: draft(f.main, { id }) })
    expect(again.status).toBe(201)
    expect(again.json.id).toBe(created.json.id)
    const chairman = await t.login(demo.chairman)
    expect((await t.call('GET', `/messages/${id}`, { token: chairman })).status).toBe(404)
    expect((await t.call('PATCH', `/messages/${id}`, { token: chairman, body: { subject: 'x' } })).status).toBe(404)
    expect((await t.call('GET', '/messages', { token: chairman })).json).toHaveLength(0)

    const edited = await t.call('PATCH', `/messages/${id}`, {
      token: f.admin,
      body: { subject: 'Generalforsamling 2027 (rettet)' },
      headers: { 'If-Match': '"1"' },
    })
    expect(edited.json).toMatchObject({ subject: 'Generalforsamling 2027 (rettet)', version: 2 })
    expect((await t.call('PATCH', `/messages/${id}`, { token: f.admin, body: { subject: 'x' }, headers: { 'If-Match': '"1"' } })).status).toBe(412)
    await t.call('POST', `/messages/${id}/send`, { token: f.admin })
    expect((await t.call('PATCH', `/messages/${id}`, { token: f.admin, body: { subject: 'x' } })).status).toBe(409)
    expect((await t.call('POST', `/messages/${id}/send`, { token: f.admin })).status).toBe(409)
    // Once sent, the company's staff read it; a chairman who is not the author may not change it.
    expect((await t.call('GET', `/messages/${id}`, { token: chairman })).status).toBe(200)
    expect((await t.call('DELETE', `/messages/${id}`, { token: chairman })).status).toBe(403)
  })

  it("another company's staff, a resident who did not receive it and a guest cannot see a message", async () => {
    const created = await t.call('POST', '/messages', { token: f.admin, body: draft(f.main, { recipient: { kind: 'BOARD' } }) })
    await t.call('POST', `/messages/${created.json.id}/send`, { token: f.admin })
    const other = await t.login(demo.otherAdmin)
    const neighbour = await t.login(demo.resident)
    for (const token of [other, neighbour]) {
      expect((await t.call('GET', `/messages/${created.json.id}`, { token })).status).toBe(404)
      expect((await t.call('POST', `/messages/${created.json.id}/view`, { token })).status).toBe(404)
      expect((await t.call('GET', '/messages', { token })).json).toHaveLength(0)
    }
    expect((await t.call('GET', `/messages/${created.json.id}`)).status).toBe(401)
    // Writing in another company: 404, not 403.
    expect((await t.call('POST', '/messages', { token: other, body: draft(f.main) })).status).toBe(404)
    const outsider = await t.login('beboer14@solgaarden.dk')
    expect((await t.call('POST', '/messages', { token: outsider, body: draft(f.main, { recipient: { kind: 'BOARD' } }) })).status).toBe(404)
  })

  it('sends a scheduled message when its Copenhagen time comes, not before', async () => {
    const created = await t.call('POST', '/messages', { token: f.admin, body: draft(f.main, { scheduledAt: '2026-11-23T12:00' }) })
    expect(created.json).toMatchObject({ status: 'DRAFT', scheduledAt: '2026-11-23T12:00', sendAt: '2026-11-23T11:00:00.000Z' })
    const mails = (await t.mails()).length
    t.clock.set('2026-11-23T10:59:00.000Z')
    expect((await t.services.messages.tick()).sent).toBe(0)
    t.clock.set('2026-11-23T11:00:00.000Z')
    expect((await t.services.messages.tick()).sent).toBe(1)
    expect((await t.services.messages.tick()).sent).toBe(0)
    const after = await t.call('GET', `/messages/${created.json.id}`, { token: f.admin })
    expect(after.json).toMatchObject({ status: 'SENT', sentAt: '2026-11-23T11:00:00.000Z', scheduledAt: null })
    expect((await t.mails()).length - mails).toBe(6)

    const past = await t.call('POST', '/messages', { token: f.admin, body: draft(f.main, { scheduledAt: '2026-11-23T11:30' }) })
    expect(past.status).toBe(400)
    expect(past.json.issues[0]).toMatchObject({ path: 'scheduledAt', message: 'The sending time must be in the future.' })
  })

  it('refuses an edit that schedules a draft in the past at the field, in both languages, and keeps the draft as it was', async () => {
    const created = await t.call('POST', '/messages', { token: f.admin, body: draft(f.main, { scheduledAt: '2026-11-24T08:00' }) })
    expect(created.status).toBe(201)
    const edit = { subject: 'Generalforsamling 2027 (flyttet)', scheduledAt: '2026-11-23T09:59' }
    const en = await t.call('PATCH', `/messages/${created.json.id}`, { token: f.admin, body: edit, headers: { 'If-Match': `"${created.json.version}"` } })
    expect(en).toMatchObject({
      status: 400,
      json: { code: 'VALIDATION_FAILED', issues: [{ path: 'scheduledAt', message: 'The sending time must be in the future.' }] },
    })
    const chairman = await t.login(demo.chairman)
    const own = await t.call('POST', '/messages', { token: chairman, body: draft(f.main) })
    const da = await t.call('PATCH', `/messages/${own.json.id}`, { token: chairman, body: edit, headers: { 'If-Match': `"${own.json.version}"` } })
    expect(da.json.issues).toEqual([{ path: 'scheduledAt', message: 'Afsendelsestidspunktet skal ligge i fremtiden.' }])
    expect((await t.call('GET', `/messages/${created.json.id}`, { token: f.admin })).json).toMatchObject({
      subject: 'Generalforsamling 2027',
      scheduledAt: '2026-11-24T08:00',
      version: created.json.version,
    })
  })

  it('reads schedule times as Copenhagen wall time across daylight saving', () => {
    expect(copenhagenToInstant('2027-01-15T08:00')).toBe('2027-01-15T07:00:00.000Z')
    expect(copenhagenToInstant('2027-07-15T08:00')).toBe('2027-07-15T06:00:00.000Z')
  })

  it('sync: recipients receive a sent message; a draft reaches no one but its author', async () => {
    const created = await t.call('POST', '/messages', { token: f.admin, body: draft(f.main) })
    const resident = await t.login(residentEn)
    const chairman = await t.login(demo.chairman)
    const ids = async (token: string) =>
      (await t.call('GET', '/sync?limit=2000', { token })).json.changes
        .filter((c: { entity: string }) => c.entity === 'message')
        .map((c: { id: string }) => c.id)
    expect(await ids(f.admin)).toEqual([created.json.id])
    expect(await ids(resident)).toEqual([])
    expect(await ids(chairman)).toEqual([])
    await t.call('POST', `/messages/${created.json.id}/send`, { token: f.admin })
    expect(await ids(resident)).toEqual([created.json.id])
    expect(await ids(chairman)).toEqual([created.json.id])
  })

  it('attachments: allowed types only, served to recipients, not to others', async () => {
    const created = await t.call('POST', '/messages', { token: f.admin, body: draft(f.main, { recipient: { kind: 'BOARD' } }) })
    const upload = (name: string, bytes: Uint8Array) => {
      const form = new FormData()
      form.set('file', new File([bytes as unknown as ArrayBuffer], name))
      return t.app.request(`/api/messages/${created.json.id}/attachments`, { method: 'POST', headers: { Authorization: `Bearer ${f.admin}` }, body: form })
    }
    // A real PDF's second line is binary (bytes ≥ 0x80, not UTF-8): the upload must keep every byte.
    const pdf = new Uint8Array([
      ...new TextEncoder().encode('%PDF-1.4\n%'),
      0xe2,
      0xe3,
      0xcf,
      0xd3,
      0x0a,
      0xff,
      0x00,
      0x80,
      ...new TextEncoder().encode(' referat'),
    ])
    const ok = await upload('Referat.pdf', pdf)
    expect(ok.status).toBe(201)
    const attachment = (await ok.json()).attachments[0]
    expect(attachment).toMatchObject({ name: 'Referat.pdf', contentType: 'application/pdf', size: pdf.byteLength })
    expect((await upload('virus.exe', new Uint8Array([0x4d, 0x5a]))).status).toBe(422)
    expect((await upload('fake.pdf', new TextEncoder().encode('MZ not a pdf'))).status).toBe(422)
    // No empty file anywhere (every upload passes server/integrations/files/attachment-store.ts), not even a text file.
    const empty = await upload('notes.txt', new Uint8Array())
    expect(empty.status).toBe(422)
    expect(((await empty.json()) as { issues: unknown[] }).issues[0]).toMatchObject({
      path: 'file',
      message: 'The file is empty: choose a file that has something in it.',
    })
    await t.call('POST', `/messages/${created.json.id}/send`, { token: f.admin })

    const path = `/api/messages/${created.json.id}/attachments/${attachment.id}`
    const chairman = await t.login(demo.chairman)
    const got = await t.app.request(path, { headers: { Authorization: `Bearer ${chairman}` } })
    expect(got.status).toBe(200)
    expect(got.headers.get('content-disposition')).toContain('Referat.pdf')
    expect(new Uint8Array(await got.arrayBuffer())).toEqual(pdf)
    const resident = await t.login(demo.resident)
    expect((await t.app.request(path, { headers: { Authorization: `Bearer ${resident}` } })).status).toBe(404)
  })

  it('a deleted draft’s and a removed attachment’s files go with the sweep after their delete committed; files still referred to stay', async () => {
    const attach = async (messageId: string, name: string) => {
      const form = new FormData()
      form.set('file', new File([new TextEncoder().encode(`%PDF-1.4 ${name}`) as unknown as ArrayBuffer], name))
      const res = await t.app.request(`/api/messages/${messageId}/attachments`, { method: 'POST', headers: { Authorization: `Bearer ${f.admin}` }, body: form })
      expect(res.status).toBe(201)
      return ((await res.json()) as { attachments: { id: string; name: string }[] }).attachments.find((a) => a.name === name)!.id
    }
    const a = await t.call('POST', '/messages', { token: f.admin, body: draft(f.main) })
    const b = await t.call('POST', '/messages', { token: f.admin, body: draft(f.main) })
    await attach(a.json.id, 'a1.pdf')
    const kept = await attach(b.json.id, 'b1.pdf')
    const removed = await attach(b.json.id, 'b2.pdf')
    expect((await t.call('DELETE', `/messages/${b.json.id}/attachments/${removed}`, { token: f.admin })).status).toBe(200)
    expect((await t.call('DELETE', `/messages/${a.json.id}`, { token: f.admin })).status).toBe(204)
    // Just written: within the grace an upload's file may still be waiting for its row to commit.
    expect(await t.services.messages.sweepFiles()).toBe(0)
    expect(await t.services.messages.sweepFiles(-60_000)).toBe(2)
    expect(await t.services.messages.sweepFiles(-60_000)).toBe(0)
    const got = await t.app.request(`/api/messages/${b.json.id}/attachments/${kept}`, { headers: { Authorization: `Bearer ${f.admin}` } })
    expect(got.status).toBe(200)
    expect(await got.text()).toBe('%PDF-1.4 b1.pdf')
  })

  it("the contact form e-mails the platform's contact address", async () => {
    const res = await t.call('POST', '/contact', { body: { message: '  Hvordan opretter jeg en forening?  ', email: 'gæst@example.dk'.replace('æ', 'ae') } })
    expect(res.status).toBe(202)
    const mail = (await t.mails()).at(-1)!
    expect(mail.to).toBe('kontakt@boligkasse.dk')
    expect(mail.text).toContain('Hvordan opretter jeg en forening?')
    expect(mail.text).toContain('gaest@example.dk')
    expect((await t.call('POST', '/contact', { body: { message: '   ' } })).status).toBe(400)
  })
})

describe('anonymous messages', () => {
  it('reach the board with no trace of the sender in any table or log line', async () => {
    const lines: string[] = []
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk))
        done()
      },
    })
    const t = await testApp({}, { log: pino({ level: 'trace' }, sink) })
    const { main } = await setup(t)
    const token = await t.login(residentEn)
    const sender = (await t.call('GET', '/account/info', { token })).json as { id: string; emailAddress: string; fullName: string }

    // Earlier mail (the agreement invitations) already left.
    await t.db.update(mailOutbox).set({ status: 'sent', sentAt: t.clock.now().toISOString() }).run()
    // Everything in the database before the send, row by row.
    const tables = (
      await t.db.values<[string]>(
        t.database.engine === 'postgres' ?
          sql`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`
        : sql`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`,
      )
    ).map(([name]) => name)
    const dump = async () =>
      new Set(
        (
          await Promise.all(tables.map(async (name) => (await t.db.values(sql.raw(`SELECT * FROM "${name}"`))).map((row) => `${name}:${JSON.stringify(row)}`)))
        ).flat(),
      )
    const before = await dump()
    const linesBefore = lines.length

    const res = await t.call('POST', '/messages/anonymous', {
      token,
      headers: { 'Idempotency-Key': 'anon-key-1' },
      body: { companyId: main, subject: 'Støj fra vaskekælderen', body: 'Der bliver vasket efter kl. 22 hver aften.' },
    })
    expect(res.status, JSON.stringify(res.json)).toBe(201)
    expect(res.json).toEqual({ sent: true, recipients: 4 })
    // Let the mail worker send, so its rows are part of the scan too.
    await t.db.update(mailOutbox).set({ status: 'sent', sentAt: t.clock.now().toISOString() }).run()
    await t.services.messages.tick()

    const written = [...(await dump())].filter((row) => !before.has(row))
    expect(written.some((row) => row.startsWith('messages:'))).toBe(true)
    expect(written.some((row) => row.startsWith('message_recipients:'))).toBe(true)
    expect(written.some((row) => row.startsWith('mail_outbox:'))).toBe(true)
    for (const trace of [sender.id, sender.emailAddress, sender.fullName, 'anon-key-1']) {
      expect(written.filter((row) => row.toLowerCase().includes(trace.toLowerCase()))).toEqual([])
      expect(lines.slice(linesBefore).filter((l) => l.toLowerCase().includes(trace.toLowerCase()))).toEqual([])
    }
    expect(lines.slice(linesBefore).filter((l) => l.includes('/messages/anonymous'))).toEqual([])
    const row = (await t.db.select().from(messagesTable).where(eq(messagesTable.anonymous, true)).get())!
    expect(row.senderUserId).toBeNull()

    // The board reads it, without a sender; the sender's own list does not have it.
    const chairman = await t.login(demo.chairman)
    const seen = await t.call('GET', `/messages/${row.id}`, { token: chairman })
    expect(seen.json).toMatchObject({ anonymous: true, sender: null, subject: 'Støj fra vaskekælderen' })
    expect((await t.call('GET', '/messages', { token })).json).toEqual([])
    const mail = (await t.mails()).find((m) => m.to === demo.chairman && m.subject.includes('Støj'))!
    expect(mail.subject).toBe('Anonym besked til bestyrelsen: Støj fra vaskekælderen')
  })

  it('are for members of the company only', async () => {
    const t = await testApp()
    const { main } = await setup(t)
    const outsider = await t.login('beboer14@solgaarden.dk')
    const res = await t.call('POST', '/messages/anonymous', { token: outsider, body: { companyId: main, subject: 'x', body: 'y' } })
    expect(res.status).toBe(404)
    expect((await t.call('POST', '/messages/anonymous', { body: { companyId: main, subject: 'x', body: 'y' } })).status).toBe(401)
  })
})
