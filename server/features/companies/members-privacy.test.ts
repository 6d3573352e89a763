import { describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { demo, testApp, type TestApp } from '../../test/harness'
import { authMethods, users } from '../../db/schema/users'
import { newId } from '../../lib/ids'
import { companyIds } from './test-helpers'

const userOf = async (t: TestApp, email: string) => (await t.db.select().from(users).where(eq(users.emailAddress, email)).get())!

/**
 * Adding staff never shows another association's member data (docs/decisions/0033-privacy-between-associations.md). By id only
 * someone the caller already knows; someone outside by their exact e-mail, answered exactly as a
 * new user would be; an existing user keeps their own data and is told by e-mail.
 */
describe('adding staff from outside the association', () => {
  it('adds an existing user by exact e-mail with an answer made only of what the caller typed', async () => {
    const t = await testApp()
    const { second } = await companyIds(t)
    const other = await t.login(demo.otherAdmin)
    const before = await userOf(t, demo.admin)
    const typed = { name: 'A. Nielsen', email: 'Admin@Solgaarden.dk', phone: '+45 11 22 33 44' }
    const existing = await t.call('POST', `/company/${second}/member`, { token: other, body: { user: typed, role: 'BOARDMEMBER' } })
    const fresh = await t.call('POST', `/company/${second}/member`, {
      token: other,
      body: { user: { ...typed, email: 'ny.bestyrelse@example.dk' }, role: 'BOARDMEMBER' },
    })
    expect(existing.status).toBe(201)
    expect(fresh.status).toBe(201)
    const shape = (json: Record<string, unknown>) => ({ ...json, id: 'id', userId: 'userId', email: 'email' })
    expect(shape(existing.json)).toEqual(shape(fresh.json))
    expect(existing.json).toEqual({
      id: expect.any(String),
      companyId: second,
      userId: before.id,
      name: 'A. Nielsen',
      email: demo.admin,
      phone: '+45 11 22 33 44',
      role: 'BOARDMEMBER',
      version: 1,
      createdAt: expect.any(String),
    })
    expect(JSON.stringify(existing.json)).not.toMatch(/Anders|20 44 55 66/)
    // Their own account is untouched; they are now staff of the second association too.
    expect(await userOf(t, demo.admin)).toMatchObject({ fullName: 'Anders Nielsen', mobileNumber: '+45 20 44 55 66', language: 'EN', version: before.version })
    const anders = await t.login(demo.admin)
    expect((await t.call('GET', '/account/info', { token: anders })).json.companies.map((c: { id: string }) => c.id)).toContain(second)
  })

  it('e-mails the existing user in their language who added them, where, and a link to sign in', async () => {
    const t = await testApp()
    const { second } = await companyIds(t)
    const other = await t.login(demo.otherAdmin)
    await t.call('POST', `/company/${second}/member`, { token: other, body: { user: { name: 'Anders', email: demo.admin }, role: 'BOARDMEMBER' } })
    await t.call('POST', `/company/${second}/member`, { token: other, body: { user: { name: 'Sofie', email: demo.resident }, role: 'BOARDMEMBER' } })
    const [en, da] = await t.mails()
    expect(en).toMatchObject({ to: demo.admin, subject: 'You were added to Ejerforeningen Havnehuset on Boligkasse' })
    expect(en!.text).toContain('Hello Anders Nielsen,')
    expect(en!.text).toContain('Henrik Dahl has added you to Ejerforeningen Havnehuset on Boligkasse.')
    expect(en!.text).toContain('http://localhost:3000/login')
    expect(en!.text).not.toContain('reset-password')
    expect(da).toMatchObject({ to: demo.resident, subject: 'Du er tilføjet til Ejerforeningen Havnehuset på Boligkasse' })
    expect(da!.text).toContain('Henrik Dahl har tilføjet dig til Ejerforeningen Havnehuset på Boligkasse.')
    expect(await t.mails()).toHaveLength(2)
  })

  it('sends a fresh set-password link to someone who never took up an earlier invitation', async () => {
    const t = await testApp()
    const { main, second } = await companyIds(t)
    const admin = await t.login(demo.admin)
    await t.call('POST', `/company/${main}/member`, {
      token: admin,
      body: { user: { name: 'Birgitte Lund', email: 'birgitte@example.dk' }, role: 'ACCOUNTANT' },
    })
    // An unproven claim (a sign-in whose confirmation link was never clicked) signs nobody in.
    const birgitte = await userOf(t, 'birgitte@example.dk')
    await t.db
      .insert(authMethods)
      .values({
        id: newId(),
        userId: birgitte.id,
        type: 'PHONE_PASSWORD',
        identifier: '4540506070',
        secretHash: 'x',
        verifiedAt: null,
        createdAt: t.clock.now().toISOString(),
      })
      .run()
    const other = await t.login(demo.otherAdmin)
    const res = await t.call('POST', `/company/${second}/member`, {
      token: other,
      body: { user: { name: 'B. Lund', email: 'birgitte@example.dk' }, role: 'BOARDMEMBER' },
    })
    expect(res.json).toMatchObject({ name: 'B. Lund', phone: null })
    const mail = (await t.mails()).at(-1)!
    expect(mail.subject).toBe('You were added to Ejerforeningen Havnehuset on Boligkasse')
    const token = decodeURIComponent(/reset-password\?token=([^&\s]+)/.exec(mail.text)![1]!)
    expect((await t.call('POST', '/auth/reset-password', { body: { token, newPassword: 'Solsikke-Gaard-77', email: 'birgitte@example.dk' } })).status).toBe(200)
  })

  it('adds by id only someone the caller already knows; any other id answers like an unknown one', async () => {
    const t = await testApp()
    const { main, second } = await companyIds(t)
    const other = await t.login(demo.otherAdmin)
    const outsider = await t.call('POST', `/company/${second}/member`, {
      token: other,
      body: { userId: (await userOf(t, demo.admin)).id, role: 'BOARDMEMBER' },
    })
    const unknown = await t.call('POST', `/company/${second}/member`, {
      token: other,
      body: { userId: '0190d5e6-0000-7000-8000-00000000beef', role: 'BOARDMEMBER' },
    })
    expect(outsider.status).toBe(400)
    expect(outsider.json).toEqual(unknown.json)
    expect(outsider.json.issues).toEqual([{ path: 'userId', message: expect.any(String) }])
    const superadmin = await t.call('POST', `/company/${second}/member`, {
      token: other,
      body: { userId: (await userOf(t, demo.superadmin)).id, role: 'BOARDMEMBER' },
    })
    expect(superadmin.json).toEqual(unknown.json)
    expect(await t.mails()).toHaveLength(0)

    // Once Anders is staff of both, he adds Havnehuset's administrator to Solgården by id, with their data.
    const sa = await t.login(demo.superadmin)
    expect(
      (await t.call('POST', `/company/${second}/member`, { token: sa, body: { userId: (await userOf(t, demo.admin)).id, role: 'BOARDMEMBER' } })).status,
    ).toBe(201)
    const anders = await t.login(demo.admin)
    const known = await t.call('POST', `/company/${main}/member`, {
      token: anders,
      body: { userId: (await userOf(t, demo.otherAdmin)).id, role: 'BOARDMEMBER' },
    })
    expect(known.status).toBe(201)
    expect(known.json).toMatchObject({ name: 'Henrik Dahl', email: demo.otherAdmin })
    expect((await t.mails()).at(-1)).toMatchObject({ to: demo.otherAdmin, subject: 'Du er tilføjet til Andelsboligforeningen Solgården på Boligkasse' })
  })
})
