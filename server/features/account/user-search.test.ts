import { describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { demo, testApp } from '../../test/harness'
import { users } from '../../db/schema/users'
import { companyIds } from '../companies/test-helpers'

const SOLGAARDEN = 'Andelsboligforeningen Solgården'

/** GET /api/account/users (docs/decisions/0033-privacy-between-associations.md): staff find only people of their own associations. */
describe('GET /api/account/users', () => {
  it('lets staff find the staff of their own company, with only the companies they share', async () => {
    const t = await testApp()
    const token = await t.login(demo.admin)
    const res = await t.call('GET', '/account/users?email=formand@', { token })
    expect(res.status).toBe(200)
    expect(res.json).toEqual([
      {
        id: expect.any(String),
        fullName: 'Karen Holm',
        emailAddress: demo.chairman,
        mobileNumber: '+45 20 11 22 33',
        companies: [{ id: expect.any(String), name: SOLGAARDEN }],
      },
    ])
  })

  it("never lists another association's people, residents or the super admin by prefix", async () => {
    const t = await testApp()
    const other = await t.login(demo.otherAdmin)
    for (const prefix of ['admin@sol', 'formand', 'beboer01', 'superadmin', 'kasserer@solgaarden.dk'])
      expect((await t.call('GET', `/account/users?email=${prefix}`, { token: other })).json, prefix).toEqual([])
    const admin = await t.login(demo.admin)
    for (const prefix of ['admin@havn', 'superadmin', 'beboer'])
      expect((await t.call('GET', `/account/users?email=${prefix}`, { token: admin })).json, prefix).toEqual([])
    // Their own administrator is found, in the other association's search too.
    expect((await t.call('GET', '/account/users?email=admin@', { token: other })).json.map((u: { emailAddress: string }) => u.emailAddress)).toEqual([
      demo.otherAdmin,
    ])
  })

  it("shows someone in two associations with only the caller's association", async () => {
    const t = await testApp()
    const { second } = await companyIds(t)
    const sa = await t.login(demo.superadmin)
    const karen = (await t.db.select().from(users).where(eq(users.emailAddress, demo.chairman)).get())!
    expect((await t.call('POST', `/company/${second}/member`, { token: sa, body: { userId: karen.id, role: 'BOARDMEMBER' } })).status).toBe(201)
    const other = await t.login(demo.otherAdmin)
    const found = (await t.call('GET', '/account/users?email=formand@', { token: other })).json
    expect(found).toEqual([
      {
        id: karen.id,
        fullName: 'Karen Holm',
        emailAddress: demo.chairman,
        mobileNumber: '+45 20 11 22 33',
        companies: [{ id: second, name: expect.not.stringContaining('Solg') }],
      },
    ])
    const admin = await t.login(demo.admin)
    expect((await t.call('GET', '/account/users?email=formand@', { token: admin })).json[0].companies).toEqual([{ id: expect.any(String), name: SOLGAARDEN }])
  })

  it('lets the super admin find everyone, with every company', async () => {
    const t = await testApp()
    const token = await t.login(demo.superadmin)
    const res = await t.call('GET', '/account/users?email=admin@', { token })
    expect(res.json.map((u: { emailAddress: string }) => u.emailAddress)).toEqual([demo.otherAdmin, demo.admin])
    expect(res.json[1].companies).toEqual([{ id: expect.any(String), name: SOLGAARDEN }])
    expect((await t.call('GET', '/account/users?email=beboer01', { token })).json).toHaveLength(1)
  })

  it('refuses residents with 403 and short searches with 400', async () => {
    const t = await testApp()
    const resident = await t.login(demo.resident)
    expect((await t.call('GET', '/account/users?email=beboer', { token: resident })).status).toBe(403)
    const admin = await t.login(demo.admin)
    const short = await t.call('GET', '/account/users?email=ab', { token: admin })
    expect(short.status).toBe(400)
    expect(short.json.issues[0].message).toBe('Type at least 3 characters to search.')
  })

  it('treats %, _ and a backslash literally', async () => {
    const t = await testApp()
    await t.db.update(users).set({ emailAddress: 'for_mand@solgaarden.dk' }).where(eq(users.emailAddress, demo.chairman)).run()
    const token = await t.login(demo.admin)
    const search = async (text: string) =>
      (await t.call('GET', `/account/users?email=${encodeURIComponent(text)}`, { token })).json.map((u: { emailAddress: string }) => u.emailAddress)
    expect(await search('%%%')).toEqual([])
    expect(await search('f_r')).toEqual([])
    expect(await search('for_')).toEqual(['for_mand@solgaarden.dk'])
    expect(await search('for\\_')).toEqual([])
  })
})
