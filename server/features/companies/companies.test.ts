import { describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { demo, testApp } from '../../test/harness'
import { addresses, companyMembers } from '../../db/schema/companies'
import { companyIds, MAIN_CVR, SECOND_CVR } from './test-helpers'
import { users } from '../../db/schema/users'
import { addressKey } from '../../../shared/domain/address'
import { acceptedWithCollectedCharge, agreementFixtures, createAgreement } from '../agreements/test-helpers'

const newCompany = { name: 'Andelsboligforeningen Birkely', acronym: 'AB Birkely', cvr: '35954716', unionType: 'CONDO' }

async function setup() {
  const t = await testApp()
  const ids = await companyIds(t)
  const [sa, chairman, admin, accountant, board, resident, other] = await Promise.all(
    [demo.superadmin, demo.chairman, demo.admin, demo.accountant, demo.boardmember, demo.resident, demo.otherAdmin].map((e) => t.login(e)),
  )
  return { t, ...ids, sa: sa!, chairman: chairman!, admin: admin!, accountant: accountant!, board: board!, resident: resident!, other: other! }
}

const UNKNOWN_ID = '0190d5e6-0000-7000-8000-00000000beef'
const issueMessages = (json: { issues?: { path: string; message: string }[] }) => Object.fromEntries((json.issues ?? []).map((i) => [i.path, i.message]))

describe('companies', () => {
  it('lists all companies for the super admin and only their own for staff', async () => {
    const { t, sa, admin, resident, main } = await setup()
    const all = await t.call('GET', '/company', { token: sa })
    expect(all.status).toBe(200)
    expect(all.json.map((c: { cvr: string }) => c.cvr).sort()).toEqual([MAIN_CVR, SECOND_CVR].sort())
    const own = await t.call('GET', '/company', { token: admin })
    expect(own.json).toHaveLength(1)
    expect(own.json[0]).toMatchObject({
      id: main,
      name: 'Andelsboligforeningen Solgården',
      acronym: 'ABF Solgården',
      unionType: 'COOP',
      membersCount: 4,
      agreementsCount: 0,
      invoicesCount: 0,
      status: 'ACTIVE',
      heatingWaterPeriodStartDate: '01.06',
    })
    expect((await t.call('GET', '/company', { token: resident })).json).toEqual([])
  })

  it('creates a company (super admin) with status NEW and answers its id', async () => {
    const { t, sa } = await setup()
    const res = await t.call('POST', '/company', { token: sa, body: { ...newCompany, cvr: '3595 4716' } })
    expect(res.status).toBe(201)
    const got = await t.call('GET', `/company/${res.json.id}`, { token: sa })
    expect(got.json).toMatchObject({ ...newCompany, status: 'NEW', version: 1, membersCount: 0 })
    expect(got.headers.get('ETag')).toBe('"1"')
  })

  it('answers each docs/PRODUCT.md §5 message when creating a company', async () => {
    const { t, sa } = await setup()
    const empty = await t.call('POST', '/company', { token: sa, body: {} })
    expect(empty.status).toBe(400)
    expect(issueMessages(empty.json)).toEqual({
      name: 'Company name is required',
      acronym: 'Acronym is required',
      cvr: 'CVR number is required',
      unionType: 'Union type is required',
    })
    const blank = await t.call('POST', '/company', { token: sa, body: { name: ' ', acronym: '', cvr: '', unionType: '' } })
    expect(issueMessages(blank.json)).toEqual({
      name: 'Company name is required',
      acronym: 'Acronym is required',
      cvr: 'CVR number is required',
      unionType: 'Union type is required',
    })
    const bad = await t.call('POST', '/company', { token: sa, body: { ...newCompany, cvr: '35954717', unionType: 'RENTAL' } })
    expect(issueMessages(bad.json)).toEqual({
      cvr: 'CVR number must be 8 digits with a valid check digit',
      unionType: 'Invalid union type. Only COOP and CONDO are supported',
    })
    const dup = await t.call('POST', '/company', { token: sa, body: { ...newCompany, cvr: MAIN_CVR } })
    expect(dup.status).toBe(409)
    expect(dup.json).toMatchObject({ code: 'CONFLICT', message: 'A company with this CVR number already exists.' })
  })

  it('answers the messages in Danish for a Danish caller', async () => {
    const { t, chairman, main } = await setup()
    const res = await t.call('PATCH', `/company/${main}/field/heatingWaterPeriodStartDate`, {
      token: chairman,
      body: { value: '32.01' },
      headers: { 'Accept-Language': 'da' },
    })
    expect(res.status).toBe(400)
    expect(res.json.issues[0].message).toBe('Ugyldigt datoformat. Brug formatet dd.mm (f.eks. 15.03)')
  })

  it('lets only the super admin create a company', async () => {
    const { t, admin } = await setup()
    expect((await t.call('POST', '/company', { token: admin, body: newCompany })).status).toBe(403)
    expect((await t.call('POST', '/company', { body: newCompany })).status).toBe(401)
  })

  it('replays an offline create with the same id and refuses another body for it', async () => {
    const { t, sa } = await setup()
    const id = '01930000-0000-7000-8000-000000000001'
    expect((await t.call('POST', '/company', { token: sa, body: { ...newCompany, id } })).json).toEqual({ id })
    expect((await t.call('POST', '/company', { token: sa, body: { ...newCompany, id } })).json).toEqual({ id })
    expect((await t.call('POST', '/company', { token: sa, body: { ...newCompany, name: 'Other', id } })).status).toBe(409)
  })

  it('reads a company by /company/{id} and /companies/{id}, 404 for another company', async () => {
    const { t, board, admin, main, second } = await setup()
    const a = await t.call('GET', `/company/${main}`, { token: board })
    const b = await t.call('GET', `/companies/${main}`, { token: board })
    expect(a.status).toBe(200)
    expect(b.json).toEqual(a.json)
    expect((await t.call('GET', `/company/${second}`, { token: board })).status).toBe(404)
    const hidden = await t.call('GET', `/company/${second}`, { token: admin })
    expect(hidden).toMatchObject({ status: 404, json: { code: 'NOT_FOUND' } })
  })

  it('updates fields with PUT and PATCH, bumping the version, and refuses a stale If-Match with the current company', async () => {
    const { t, admin, main } = await setup()
    const put = await t.call('PUT', `/company/${main}`, {
      token: admin,
      body: { name: 'ABF Solgården I', heatingWaterPeriodEndDate: '30.04' },
      headers: { 'If-Match': '"1"' },
    })
    expect(put.status).toBe(200)
    expect(put.json).toMatchObject({ name: 'ABF Solgården I', heatingWaterPeriodEndDate: '30.04', version: 2 })
    expect(put.headers.get('ETag')).toBe('"2"')
    const patch = await t.call('PATCH', `/company/${main}/field/acronym`, { token: admin, body: { value: 'ABF S' } })
    expect(patch.json).toMatchObject({ acronym: 'ABF S', version: 3 })
    const stale = await t.call('PATCH', `/company/${main}/field/name`, { token: admin, body: { value: 'X' }, headers: { 'If-Match': '"2"' } })
    expect(stale.status).toBe(412)
    expect(stale.json).toMatchObject({ code: 'VERSION_CONFLICT', current: { version: 3, acronym: 'ABF S' } })
    const viaAlias = await t.call('PUT', `/companies/${main}`, { token: admin, body: { unionType: 'CONDO' } })
    expect(viaAlias.json).toMatchObject({ unionType: 'CONDO', version: 4 })
  })

  it('validates patched fields and refuses fields outside the allow-list', async () => {
    const { t, admin, main, second } = await setup()
    const field = (name: string, value: unknown) => t.call('PATCH', `/company/${main}/field/${name}`, { token: admin, body: { value } })
    expect((await field('status', 'ACTIVE')).json.issues[0]).toEqual({ path: 'fieldName', message: 'This field cannot be edited.' })
    expect((await field('name', '')).json.issues[0]).toEqual({ path: 'name', message: 'Company name is required' })
    expect((await field('acronym', '  ')).json.issues[0]).toEqual({ path: 'acronym', message: 'Acronym is required' })
    expect((await field('cvr', '')).json.issues[0]).toEqual({ path: 'cvr', message: 'CVR number is required' })
    expect((await field('cvr', '12345678')).json.issues[0]).toEqual({ path: 'cvr', message: 'CVR number must be 8 digits with a valid check digit' })
    expect((await field('cvr', SECOND_CVR)).status).toBe(409)
    expect((await field('unionType', 'RENTAL')).json.issues[0]).toEqual({ path: 'unionType', message: 'Invalid union type. Only COOP and CONDO are supported' })
    expect((await t.call('PATCH', `/company/${second}/field/name`, { token: admin, body: { value: 'X' } })).status).toBe(404)
  })

  it('validates heating-water dates as dd.mm real dates of the current year', async () => {
    const { t, main } = await setup()
    let admin = await t.login(demo.admin)
    const msg = 'Invalid date format. Please use dd.mm format (e.g., 15.03)'
    const set = (value: unknown) => t.call('PATCH', `/company/${main}/field/heatingWaterPeriodStartDate`, { token: admin, body: { value } })
    for (const bad of ['1.3', '15-03', '32.01', '00.05', '15.13', '31.04', '29.02', 'abcde'])
      expect((await set(bad)).json.issues, bad).toEqual([{ path: 'heatingWaterPeriodStartDate', message: msg }])
    expect((await set('15.03')).json).toMatchObject({ heatingWaterPeriodStartDate: '15.03' })
    expect((await set('')).json).toMatchObject({ heatingWaterPeriodStartDate: null })
    // 2028 is a leap year: 29.02 becomes a real date.
    t.clock.set('2028-01-10T10:00:00.000Z')
    admin = await t.login(demo.admin)
    expect((await set('29.02')).json).toMatchObject({ heatingWaterPeriodStartDate: '29.02' })
    const put = await t.call('PUT', `/company/${main}`, { token: admin, body: { heatingWaterPeriodEndDate: '31.09' } })
    expect(put.json.issues).toEqual([{ path: 'heatingWaterPeriodEndDate', message: msg }])
  })

  it('lets a board member change only the heating-water period', async () => {
    const { t, board, accountant, main } = await setup()
    expect((await t.call('PATCH', `/company/${main}/field/heatingWaterPeriodEndDate`, { token: board, body: { value: '31.05' } })).status).toBe(200)
    expect((await t.call('PATCH', `/company/${main}/field/name`, { token: board, body: { value: 'X' } })).status).toBe(403)
    expect((await t.call('PUT', `/company/${main}`, { token: board, body: { name: 'X', heatingWaterPeriodEndDate: '31.05' } })).status).toBe(403)
    expect((await t.call('PATCH', `/company/${main}/field/name`, { token: accountant, body: { value: 'Solgården' } })).status).toBe(200)
  })
})

describe('company life cycle', () => {
  it('follows the documented transitions and refuses the others with 409 INVALID_STATE', async () => {
    const { t, sa } = await setup()
    const { id } = (await t.call('POST', '/company', { token: sa, body: newCompany })).json
    const step = (action: string, method = 'POST') => t.call(method, `/company/${id}/${action}`, { token: sa })
    expect((await step('suspend')).json).toMatchObject({ code: 'INVALID_STATE', message: 'This status change is not allowed for a company with status NEW.' })
    expect((await step('activate')).json).toMatchObject({ status: 'ACTIVE', version: 2 })
    expect((await step('activate')).status).toBe(409)
    expect((await step('delete')).status).toBe(409)
    expect((await step('suspend', 'GET')).json).toMatchObject({ status: 'SUSPENDED' })
    expect((await step('activate', 'GET')).json).toMatchObject({ status: 'ACTIVE' })
    expect((await step('deactivate')).json).toMatchObject({ status: 'DEACTIVATED' })
    expect((await step('activate')).status).toBe(409)
    expect((await step('suspend')).status).toBe(409)
    expect((await step('delete', 'GET')).json).toMatchObject({ status: 'DELETED' })
    expect((await step('activate')).status).toBe(409)
    expect((await t.call('GET', '/company', { token: sa })).json.find((c: { id: string }) => c.id === id)).toMatchObject({ status: 'DELETED' })
  })

  it('deletes a NEW company straight away', async () => {
    const { t, sa } = await setup()
    const { id } = (await t.call('POST', '/company', { token: sa, body: newCompany })).json
    expect((await t.call('POST', `/company/${id}/delete`, { token: sa })).json).toMatchObject({ status: 'DELETED' })
  })

  it('makes a suspended or deactivated company read-only', async () => {
    const { t, sa, admin, main } = await setup()
    await t.call('POST', `/company/${main}/suspend`, { token: sa })
    const member = (await t.db.select().from(companyMembers).where(eq(companyMembers.companyId, main)).all()).find((m) => m.role === 'BOARDMEMBER')!
    const address = (await t.db.select().from(addresses).where(eq(addresses.companyId, main)).get())!
    const writes = [
      t.call('PATCH', `/company/${main}/field/name`, { token: admin, body: { value: 'X' } }),
      t.call('PUT', `/company/${main}`, { token: sa, body: { name: 'X' } }),
      t.call('POST', `/company/${main}/addresses`, { token: admin, body: { street: 'Solgårdsvej', number: '9', zip: '2200', city: 'København N' } }),
      t.call('DELETE', `/company/${main}/addresses/${address.id}`, { token: admin }),
      t.call('POST', `/company/${main}/member`, { token: admin, body: { user: { name: 'Ny', email: 'ny@example.dk' }, role: 'BOARDMEMBER' } }),
      t.call('DELETE', `/company/${main}/member/${member.id}`, { token: admin }),
    ]
    for (const res of await Promise.all(writes))
      expect(res.json).toMatchObject({ code: 'INVALID_STATE', message: 'This company is suspended or deactivated, so its data cannot be changed.' })
    expect((await t.call('GET', `/company/${main}`, { token: admin })).status).toBe(200)
    await t.call('POST', `/company/${main}/activate`, { token: sa })
    expect((await t.call('PATCH', `/company/${main}/field/name`, { token: admin, body: { value: 'X' } })).status).toBe(200)
  })

  it('hides a deleted company from its staff', async () => {
    const { t, sa, admin } = await setup()
    const { id } = (await t.call('POST', '/company', { token: sa, body: newCompany })).json
    const me = (await t.call('GET', '/account/info', { token: admin })).json.id
    await t.call('POST', `/company/${id}/member`, { token: sa, body: { userId: me, role: 'ADMINISTRATOR' } })
    expect((await t.call('GET', `/company/${id}`, { token: admin })).status).toBe(200)
    await t.call('POST', `/company/${id}/delete`, { token: sa })
    expect((await t.call('GET', `/company/${id}`, { token: admin })).status).toBe(404)
    expect((await t.call('GET', '/company', { token: admin })).json.map((c: { id: string }) => c.id)).not.toContain(id)
  })

  it('leaves the life cycle to the super admin', async () => {
    const { t, chairman, other, main } = await setup()
    expect((await t.call('POST', `/company/${main}/suspend`, { token: chairman })).status).toBe(403)
    expect((await t.call('POST', `/company/${main}/suspend`, { token: other })).status).toBe(404)
    expect((await t.call('GET', `/company/${main}/suspend`)).status).toBe(401)
  })
})

describe('members', () => {
  it('lists the staff with name, e-mail, phone and role', async () => {
    const { t, board, main } = await setup()
    const res = await t.call('GET', `/company/${main}/members`, { token: board })
    expect(res.status).toBe(200)
    expect(res.json).toHaveLength(4)
    expect(res.json.find((m: { role: string }) => m.role === 'CHAIRMAN')).toMatchObject({ name: 'Karen Holm', email: demo.chairman, phone: '+45 20 11 22 33' })
  })

  it('adds an existing user by id, who then sees the company and is told by e-mail', async () => {
    const { t, sa, admin, main } = await setup()
    const resident = (await t.db.select().from(users).where(eq(users.emailAddress, demo.resident)).get())!
    // The super admin may add anyone by id (staff only people they know: members-privacy.test.ts).
    const res = await t.call('POST', `/company/${main}/member`, { token: sa, body: { userId: resident.id, role: 'BOARDMEMBER' } })
    expect(res.status).toBe(201)
    expect(res.json).toMatchObject({ userId: resident.id, name: resident.fullName, email: demo.resident, role: 'BOARDMEMBER' })
    const token = await t.login(demo.resident)
    const info = (await t.call('GET', '/account/info', { token })).json
    expect(info).toMatchObject({ userRole: 'MEMBER', currentCompany: { id: main } })
    expect((await t.call('GET', `/company/${main}`, { token })).json.membersCount).toBe(5)
    expect((await t.call('POST', `/company/${main}/member`, { token: admin, body: { userId: resident.id, role: 'ACCOUNTANT' } })).json).toMatchObject({
      code: 'CONFLICT',
      message: 'This user is already a member of the company.',
    })
    expect((await t.mails()).map((m) => [m.to, m.subject])).toEqual([[demo.resident, 'Du er tilføjet til Andelsboligforeningen Solgården på Boligkasse']])
  })

  it('creates and invites a new user in their language with a 7-day set-password link', async () => {
    const { t, chairman, main } = await setup()
    const res = await t.call('POST', `/company/${main}/member`, {
      token: chairman,
      body: { user: { name: 'Birgitte Lund', email: 'Birgitte@Example.dk', phone: '+45 40 50 60 70', language: 'DA' }, role: 'ACCOUNTANT' },
    })
    expect(res.status).toBe(201)
    expect(res.json).toMatchObject({ name: 'Birgitte Lund', email: 'birgitte@example.dk', phone: '+45 40 50 60 70', role: 'ACCOUNTANT' })
    const [mail] = await t.mails()
    expect(mail!.to).toBe('birgitte@example.dk')
    expect(mail!.subject).toBe('Du er inviteret til Andelsboligforeningen Solgården på Boligkasse')
    expect(mail!.text).toContain('Karen Holm har tilføjet dig')
    const token = decodeURIComponent(/token=([^&\s]+)/.exec(mail!.text)![1]!)
    t.clock.advance(6 * 24 * 60 * 60 * 1000)
    const reset = await t.call('POST', '/auth/reset-password', { body: { token, newPassword: 'Solsikke-Gaard-77', email: 'birgitte@example.dk' } })
    expect(reset.status).toBe(200)
    const login = await t.call('POST', '/auth/login', { body: { type: 'email', email: 'birgitte@example.dk', password: 'Solsikke-Gaard-77' } })
    expect(login.status).toBe(200)
  })

  it('answers the add-user validation messages', async () => {
    const { t, admin, main } = await setup()
    const none = await t.call('POST', `/company/${main}/member`, { token: admin, body: {} })
    expect(issueMessages(none.json)).toEqual({ role: 'Please choose a role', userId: 'Choose an existing user or enter a name and e-mail for a new user.' })
    const bad = await t.call('POST', `/company/${main}/member`, { token: admin, body: { user: { name: '', email: 'nope', phone: '12' }, role: 'BOARDMEMBER' } })
    expect(issueMessages(bad.json)).toEqual({
      'user.name': 'This field is required',
      'user.email': 'Please enter a valid email address',
      'user.phone': 'Please enter a valid mobile number',
    })
  })

  it('keeps at least one chairman or administrator', async () => {
    const { t, sa, chairman, main } = await setup()
    const list = (await t.call('GET', `/company/${main}/members`, { token: sa })).json as { id: string; role: string }[]
    const admin = list.find((m) => m.role === 'ADMINISTRATOR')!
    const chair = list.find((m) => m.role === 'CHAIRMAN')!
    expect((await t.call('DELETE', `/company/${main}/member/${admin.id}`, { token: chairman })).status).toBe(204)
    const last = await t.call('DELETE', `/company/${main}/member/${chair.id}`, { token: sa })
    expect(last).toMatchObject({ status: 422, json: { code: 'BUSINESS_RULE', message: 'A company must keep at least one chairman or administrator.' } })
  })

  it("changes a member's role (admin staff), which counts from the next request", async () => {
    const { t, admin, board, accountant, main } = await setup()
    const list = (await t.call('GET', `/company/${main}/members`, { token: admin })).json as { id: string; role: string; version: number }[]
    const member = list.find((m) => m.role === 'BOARDMEMBER')!
    expect(member.version).toBe(1)
    // A board member may not change roles, not even their own.
    expect((await t.call('PATCH', `/company/${main}/member/${member.id}`, { token: board, body: { role: 'ADMINISTRATOR' } })).status).toBe(403)
    expect((await t.call('PATCH', `/company/${main}/field/name`, { token: board, body: { value: 'Solgården' } })).status).toBe(403)
    const changed = await t.call('PATCH', `/company/${main}/member/${member.id}`, {
      token: accountant,
      body: { role: 'ACCOUNTANT' },
      headers: { 'If-Match': '"1"' },
    })
    expect(changed).toMatchObject({ status: 200, json: { id: member.id, role: 'ACCOUNTANT', version: 2 } })
    expect(changed.headers.get('ETag')).toBe('"2"')
    // The new role counts at once: the former board member now edits admin fields.
    expect((await t.call('PATCH', `/company/${main}/field/acronym`, { token: board, body: { value: 'ABF S' } })).status).toBe(200)
    expect((await t.call('GET', '/account/info', { token: board })).json.companies).toEqual([expect.objectContaining({ id: main, role: 'ACCOUNTANT' })])
    // The same role again changes nothing; a stale version is refused with the current member.
    expect((await t.call('PATCH', `/company/${main}/member/${member.id}`, { token: admin, body: { role: 'ACCOUNTANT' } })).json).toMatchObject({ version: 2 })
    const stale = await t.call('PATCH', `/company/${main}/member/${member.id}`, { token: admin, body: { role: 'CHAIRMAN' }, headers: { 'If-Match': '"1"' } })
    expect(stale).toMatchObject({ status: 412, json: { code: 'VERSION_CONFLICT', current: { role: 'ACCOUNTANT', version: 2 } } })
  })

  it('keeps the last chairman or administrator from being given another role', async () => {
    const { t, sa, admin, main } = await setup()
    const list = (await t.call('GET', `/company/${main}/members`, { token: sa })).json as { id: string; role: string }[]
    const administrator = list.find((m) => m.role === 'ADMINISTRATOR')!
    const chair = list.find((m) => m.role === 'CHAIRMAN')!
    // Two managers: one may become an accountant; chairman to administrator stays a manager.
    expect((await t.call('PATCH', `/company/${main}/member/${chair.id}`, { token: admin, body: { role: 'ADMINISTRATOR' } })).json.role).toBe('ADMINISTRATOR')
    expect((await t.call('PATCH', `/company/${main}/member/${chair.id}`, { token: admin, body: { role: 'BOARDMEMBER' } })).status).toBe(200)
    const last = await t.call('PATCH', `/company/${main}/member/${administrator.id}`, { token: sa, body: { role: 'ACCOUNTANT' } })
    expect(last).toMatchObject({
      status: 422,
      json: { code: 'BUSINESS_RULE', message: 'A company must keep at least one chairman or administrator.', issues: [{ path: 'role' }] },
    })
    const da = await t.call('PATCH', `/company/${main}/member/${administrator.id}`, {
      token: sa,
      body: { role: 'ACCOUNTANT' },
      headers: { 'Accept-Language': 'da' },
    })
    expect(da.json.message).not.toBe(last.json.message)
    expect((await t.call('PATCH', `/company/${main}/member/${administrator.id}`, { token: sa, body: { role: 'CHAIRMAN' } })).json.role).toBe('CHAIRMAN')
    expect((await t.call('PATCH', `/company/${main}/member/${administrator.id}`, { token: sa, body: { role: 'OWNER' } })).json).toMatchObject({
      code: 'VALIDATION_FAILED',
      issues: [{ path: 'role', message: 'Please choose a role' }],
    })
    expect((await t.call('PATCH', `/company/${main}/member/${UNKNOWN_ID}`, { token: sa, body: { role: 'CHAIRMAN' } })).status).toBe(404)
  })

  it("ends a removed member's access at once", async () => {
    const { t, admin, board, main } = await setup()
    const list = (await t.call('GET', `/company/${main}/members`, { token: admin })).json as { id: string; role: string }[]
    const member = list.find((m) => m.role === 'BOARDMEMBER')!
    expect((await t.call('DELETE', `/company/${main}/member/${member.id}`, { token: admin })).status).toBe(204)
    expect((await t.call('GET', `/company/${main}`, { token: board })).status).toBe(404)
    expect((await t.call('GET', '/account/info', { token: board })).json).toMatchObject({ userRole: 'USER', companies: [], currentCompany: null })
    expect((await t.call('DELETE', `/company/${main}/member/${member.id}`, { token: admin })).status).toBe(404)
  })
})

describe('addresses', () => {
  it('lists, adds (always in Denmark) and deletes addresses', async () => {
    const { t, admin, board, main } = await setup()
    expect((await t.call('GET', `/company/${main}/addresses`, { token: board })).json).toHaveLength(20)
    const body = {
      referenceId: '0a3f50a0-73ca-32b8-e044-0003ba298018',
      street: 'Vestergade',
      number: '12',
      floor: '2',
      side: 'tv',
      zip: '8000',
      city: 'Aarhus C',
      country: 'DK',
    }
    const added = await t.call('POST', `/company/${main}/addresses`, { token: admin, body })
    expect(added.status).toBe(201)
    expect(added.json).toMatchObject({ ...body, country: 'Denmark', companyId: main })
    expect((await t.call('GET', `/company/${main}/addresses`, { token: board })).json).toHaveLength(21)
    expect((await t.call('DELETE', `/company/${main}/addresses/${added.json.id}`, { token: admin })).status).toBe(204)
    expect((await t.call('DELETE', `/company/${main}/addresses/${added.json.id}`, { token: admin })).status).toBe(404)
  })

  it('refuses the same address twice in a company, written another way too, in both languages', async () => {
    const { t, admin, main, second, sa } = await setup()
    const body = { street: 'Vestergade', number: '12', floor: '2', side: 'tv', zip: '8000', city: 'Aarhus C' }
    expect((await t.call('POST', `/company/${main}/addresses`, { token: admin, body })).status).toBe(201)
    for (const again of [body, { ...body, street: ' vestergade ', floor: '2.', side: 'TV', city: 'Aarhus' }]) {
      const res = await t.call('POST', `/company/${main}/addresses`, { token: admin, body: again })
      expect(res).toMatchObject({
        status: 409,
        json: { code: 'CONFLICT', message: 'This address has already been added to the company.', issues: [{ path: 'street' }] },
      })
    }
    const da = await t.call('POST', `/company/${main}/addresses`, { token: admin, body, headers: { 'Accept-Language': 'da' } })
    expect(da.json.message).toBe('Denne adresse er allerede tilføjet til foreningen.')
    // Another floor is another home; another company may hold the same address.
    expect((await t.call('POST', `/company/${main}/addresses`, { token: admin, body: { ...body, floor: '3' } })).status).toBe(201)
    expect((await t.call('POST', `/company/${second}/addresses`, { token: sa, body })).status).toBe(201)
    // A seeded address counts too; it carries its key like any other.
    const seeded = (await t.db.select().from(addresses).where(eq(addresses.companyId, main)).get())!
    expect(seeded.addressKey).toBe(addressKey(seeded))
    const copy = { street: seeded.street, number: seeded.number, floor: seeded.floor, side: seeded.side, zip: seeded.zip, city: seeded.city }
    expect((await t.call('POST', `/company/${main}/addresses`, { token: admin, body: copy })).status).toBe(409)
  })

  it('answers the address validation messages', async () => {
    const { t, admin, main } = await setup()
    const res = await t.call('POST', `/company/${main}/addresses`, { token: admin, body: { street: '', zip: '80000', city: 'Aarhus', country: 'Sweden' } })
    expect(issueMessages(res.json)).toEqual({
      street: 'This field is required',
      number: 'This field is required',
      zip: 'Please enter a 4-digit postcode',
      country: 'Only addresses in Denmark can be added.',
    })
  })

  it('refuses to delete an address that an agreement uses, and counts agreements and invoices', async () => {
    const { t, admin, sa, main } = await setup()
    const counts = async () => {
      const listed = (await t.call('GET', '/company', { token: sa })).json.find((c: { id: string }) => c.id === main)
      const one = (await t.call('GET', `/company/${main}`, { token: admin })).json
      expect(one).toMatchObject({ agreementsCount: listed.agreementsCount, invoicesCount: listed.invoicesCount })
      return { agreements: listed.agreementsCount, invoices: listed.invoicesCount }
    }
    expect(await counts()).toEqual({ agreements: 0, invoices: 0 })
    const agreement = await createAgreement(t, {}, admin)
    const address = (await agreementFixtures(t)).addressIds[0]!
    const res = await t.call('DELETE', `/company/${main}/addresses/${address}`, { token: admin })
    expect(res).toMatchObject({ status: 409, json: { code: 'CONFLICT', message: 'This address is used by an agreement and cannot be deleted.' } })
    const second = await createAgreement(t, { emailAddress: demo.residentDa, memberName: 'Jens Hansen' }, admin)
    await acceptedWithCollectedCharge(t, agreement.id)
    await acceptedWithCollectedCharge(t, second.id)
    expect(await counts()).toEqual({ agreements: 2, invoices: 2 })
  })

  it('lets only admin staff change addresses', async () => {
    const { t, board, other, main } = await setup()
    const body = { street: 'Vestergade', number: '12', zip: '8000', city: 'Aarhus C' }
    expect((await t.call('POST', `/company/${main}/addresses`, { token: board, body })).status).toBe(403)
    expect((await t.call('POST', `/company/${main}/addresses`, { token: other, body })).status).toBe(404)
  })
})

describe('invitations and mobile numbers', () => {
  it("refuses a phone number another user holds, and keeps an invitee's number unverified", async () => {
    const t = await testApp()
    const { main } = await companyIds(t)
    const admin = await t.login(demo.admin)
    const taken = await t.call('POST', `/company/${main}/member`, {
      token: admin,
      body: { user: { name: 'Ny', email: 'ny@example.dk', phone: '20112233' }, role: 'BOARDMEMBER' },
    })
    expect(taken.status).toBe(409)
    expect(taken.json.issues).toEqual([{ path: 'user.phone', message: 'This mobile number is already in use.' }])
    const ok = await t.call('POST', `/company/${main}/member`, {
      token: admin,
      body: { user: { name: 'Ny', email: 'ny@example.dk', phone: '+45 60 60 60 60' }, role: 'BOARDMEMBER' },
    })
    expect(ok.status).toBe(201)
    expect(await t.db.select().from(users).where(eq(users.emailAddress, 'ny@example.dk')).get()).toMatchObject({
      mobileKey: '4560606060',
      mobileVerifiedAt: null,
    })
  })
})
