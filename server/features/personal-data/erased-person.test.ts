import { existsSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { v7 } from 'uuid'
import { mailOutbox } from '../../db/schema/platform'
import { personalDataErasures } from '../../db/schema/erasures'
import { users } from '../../db/schema/users'
import { i18nFor } from '../../i18n/i18n'
import { queueMail, queueMails } from '../../integrations/mail/mail-outbox'
import { demo, testApp } from '../../test/harness'
import { ERASED_NAME, erasedEmailOf, isErasedEmail, personEmail, personName } from '../../../shared/erased-person'
import { valuesIn } from '../notifications/notifications.service'
import { approveRequest, eraseOnRequest, memberWithDataEverywhere, newMember, recordRequest, zq } from './test-helpers'

describe('an erased person reads in the reader’s language (decision 0069)', () => {
  it('shows the stored sentinel as “Erased member” / “Slettet medlem”, anyone else as stored', () => {
    expect(personName(ERASED_NAME, i18nFor('en'))).toBe('Erased member')
    expect(personName(ERASED_NAME, i18nFor('da'))).toBe('Slettet medlem')
    expect(personName('Karen Holm', i18nFor('da'))).toBe('Karen Holm')
    expect(personName(undefined, i18nFor('da'))).toBeUndefined()
  })

  it('never shows the placeholder address', () => {
    const email = erasedEmailOf('0190a1b2-0000-7000-8000-000000000001')
    expect(isErasedEmail(email)).toBe(true)
    expect(personEmail(email)).toBe('')
    expect(personEmail('karen@example.dk')).toBe('karen@example.dk')
    expect(isErasedEmail('someone@erased.invalid.example.dk')).toBe(false)
  })

  it('writes the erased name in notices and e-mails in the reader’s language', () => {
    expect(valuesIn('da', { sender: ERASED_NAME, subject: 'Vandskade' })).toEqual({ sender: 'Slettet medlem', subject: 'Vandskade' })
    expect(valuesIn('en', { sender: ERASED_NAME })).toEqual({ sender: 'Erased member' })
  })

  it('never queues mail to an erased account’s placeholder address', async () => {
    const t = await testApp()
    const before = (await t.db.select().from(mailOutbox).all()).length
    await queueMail(t.db, t.clock, { to: erasedEmailOf('u1'), subject: 'x', text: 'x' })
    await queueMails(t.db, t.clock, [
      { to: erasedEmailOf('u2'), subject: 'x', text: 'x' },
      { to: 'karen@example.dk', subject: 'y', text: 'y' },
    ])
    const rows = await t.db.select({ to: mailOutbox.to }).from(mailOutbox).all()
    expect(rows.length - before).toBe(1)
    expect(rows.map((r) => r.to)).not.toContain(erasedEmailOf('u1'))
  })
})

describe('attacking the erase', () => {
  it('a double click (two approvals at once) erases once; the second is a clear 409', async () => {
    const t = await testApp()
    const m = await newMember(t)
    const { agreements } = await import('../../db/schema/agreements')
    await t.db.update(agreements).set({ status: 'CLOSED' }).where(eq(agreements.id, m.agreementId)).run()
    const recorded = await recordRequest(t, demo.admin, m.main, m.userId)
    const [a, b] = await Promise.all([approveRequest(t, demo.chairman, m.main, recorded.json.id), approveRequest(t, demo.chairman, m.main, recorded.json.id)])
    expect([a.status, b.status].sort()).toEqual([200, 409])
    const refused = a.status === 409 ? a : b
    expect(refused.json).toMatchObject({ code: 'INVALID_STATE', message: 'This request has already been decided.' })
    expect(await t.db.select().from(personalDataErasures).where(eq(personalDataErasures.userId, m.userId)).all()).toHaveLength(1)
  })

  it('a retry with the same Idempotency-Key gets the stored answer and erases nothing more; two staff approving at once erase once', async () => {
    const t = await testApp()
    const m = await newMember(t)
    const { agreements } = await import('../../db/schema/agreements')
    await t.db.update(agreements).set({ status: 'CLOSED' }).where(eq(agreements.id, m.agreementId)).run()
    const recorded = await recordRequest(t, demo.accountant, m.main, m.userId)
    const key = v7()
    const first = await approveRequest(t, demo.chairman, m.main, recorded.json.id, { 'Idempotency-Key': key })
    expect(first.status, JSON.stringify(first.json)).toBe(200)
    const retry = await approveRequest(t, demo.chairman, m.main, recorded.json.id, { 'Idempotency-Key': key })
    expect(retry).toMatchObject({ status: 200, json: first.json })
    // The administrator too, at the same moment as the chairman's retry.
    const [c, d] = await Promise.all([
      approveRequest(t, demo.admin, m.main, recorded.json.id),
      approveRequest(t, demo.chairman, m.main, recorded.json.id, { 'Idempotency-Key': key }),
    ])
    expect([c.status, d.status]).toEqual([409, 200])
    expect(await t.db.select().from(personalDataErasures).where(eq(personalDataErasures.userId, m.userId)).all()).toHaveLength(1)
  })

  it('the erased person’s device syncing its outbox gets 401, never a 500', async () => {
    const t = await testApp()
    const m = await memberWithDataEverywhere(t)
    expect((await eraseOnRequest(t, demo.chairman, m.main, m.userId)).status).toBe(200)
    const batch = await t.call('POST', '/sync/batch', {
      token: m.member,
      body: {
        items: [{ method: 'POST', path: '/api/forum/threads', headers: { 'Idempotency-Key': v7() }, body: { companyId: m.main, title: 'Hej', body: 'Hej' } }],
      },
    })
    expect(batch.status).toBe(401)
    expect((await t.call('GET', '/sync?since=0', { token: m.member })).status).toBe(401)
    const single = await t.call('POST', '/messages', {
      token: m.member,
      headers: { 'Idempotency-Key': v7() },
      body: { companyId: m.main, type: 'MESSAGE', subject: 'x', body: 'x', recipient: { kind: 'BOARD' } },
    })
    expect(single.status).toBe(401)
  })

  it('a reset link sent before the erase no longer works', async () => {
    const t = await testApp()
    const m = await newMember(t)
    const { agreements } = await import('../../db/schema/agreements')
    await t.db.update(agreements).set({ status: 'CLOSED' }).where(eq(agreements.id, m.agreementId)).run()
    await t.call('POST', '/auth/forgot-password', { body: { email: zq.email } })
    const mail = (await t.mails()).find((x) => x.to === zq.email)!
    const token = decodeURIComponent(/token=([^&\s]+)/.exec(mail.text)![1]!)
    expect((await eraseOnRequest(t, demo.chairman, m.main, m.userId)).status).toBe(200)
    const reset = await t.call('POST', '/auth/reset-password', { body: { token, newPassword: 'Helt-ny-kode-42' } })
    expect(reset.status).toBe(400)
    // Nor can a new link be asked for with the old address, and no mail goes to the placeholder.
    await t.call('POST', '/auth/forgot-password', { body: { email: zq.email } })
    const placeholder = (await t.db.select({ e: users.emailAddress }).from(users).where(eq(users.id, m.userId)).get())!.e
    expect((await t.mails()).filter((x) => x.to === zq.email || x.to === placeholder)).toEqual([])
  })

  it('deletes the .eml copies the mail worker wrote of mail to or about them, and only those', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'erase-eml-'))
    const t = await testApp({ MAIL_OUTBOX_DIR: dir })
    const m = await memberWithDataEverywhere(t)
    const rows = await t.db.select({ id: mailOutbox.id, to: mailOutbox.to, text: mailOutbox.text }).from(mailOutbox).all()
    // As the file transport writes them once sent (server/integrations/mail/mail-outbox.ts).
    for (const r of rows) writeFileSync(join(dir, `${r.id}.eml`), `To: ${r.to}\n\n${r.text}`)
    const theirs = rows.filter((r) => r.to === zq.email || r.text.includes(zq.name))
    const others = rows.filter((r) => !theirs.includes(r))
    expect(theirs.length).toBeGreaterThan(0)
    expect(others.length).toBeGreaterThan(0)
    expect((await eraseOnRequest(t, demo.chairman, m.main, m.userId)).status).toBe(200)
    expect(theirs.filter((r) => existsSync(join(dir, `${r.id}.eml`)))).toEqual([])
    expect(others.every((r) => existsSync(join(dir, `${r.id}.eml`)))).toBe(true)
  })
})
