import { beforeEach, describe, expect, it } from 'vitest'
import { demo, testApp, type TestApp } from '../../test/harness'
import { DA, EN, issue, pullChanges } from '../../test/requests'
import { documentFixtures } from '../documents/test-helpers'
import { createSpecialist, plumber } from './test-helpers'

const pullSpecialists = (t: TestApp, token: string, from?: string) => pullChanges(t, token, 'specialist', from)

describe('linked specialists', () => {
  let t: TestApp
  let f: Awaited<ReturnType<typeof documentFixtures>>
  let resident: string
  beforeEach(async () => {
    t = await testApp()
    f = await documentFixtures(t)
    resident = await t.login(demo.resident)
  })

  it('staff add a specialist; members read and filter by kind; another association gets 404; changes follow through sync', async () => {
    const created = await createSpecialist(t, f.admin, { ...plumber, companyId: f.main })
    expect(created.status, JSON.stringify(created.json)).toBe(201)
    expect(created.json).toMatchObject({
      kind: 'PLUMBER',
      name: 'Jens Vand',
      email: 'jens@vandvarme.dk',
      website: 'https://www.vandvarme.dk',
      notes: 'Døgnvagt ved vandskade.\nRing først.',
      version: 1,
    })
    const board = await t.login(demo.boardmember)
    const lawyer = await createSpecialist(t, board, { companyId: f.main, kind: 'LAWYER', name: 'Advokat Hansen', phone: '', email: '' })
    expect(lawyer.json).toMatchObject({ phone: null, email: null, companyName: null, notes: '' })
    const names = async (q: string) =>
      ((await t.call('GET', `/specialists?companyId=${f.main}${q}`, { token: resident })).json as { name: string }[]).map((s) => s.name)
    expect(await names('')).toEqual(['Advokat Hansen', 'Jens Vand'])
    expect(await names('&kind=LAWYER')).toEqual(['Advokat Hansen'])
    const page = await t.call('GET', `/specialists?companyId=${f.main}&limit=1`, { token: resident })
    expect(page.headers.get('link')).toContain('cursor=')
    const other = await t.login(demo.otherAdmin)
    expect((await t.call('GET', `/specialists?companyId=${f.main}`, { token: other })).status).toBe(404)
    expect((await t.call('GET', `/specialists/${created.json.id}`, { token: other })).status).toBe(404)
    expect((await pullSpecialists(t, other)).changes).toEqual([])

    const { changes, cursor } = await pullSpecialists(t, resident)
    expect(changes.map((c) => c.data?.name).sort()).toEqual(['Advokat Hansen', 'Jens Vand'])
    expect((await t.call('PATCH', `/specialists/${created.json.id}`, { token: resident, body: { name: 'X' }, headers: { 'If-Match': '"1"' } })).status).toBe(
      403,
    )
    const edited = await t.call('PATCH', `/specialists/${created.json.id}`, {
      token: f.admin,
      body: { phone: '', notes: 'Kun hverdage' },
      headers: { 'If-Match': '"1"' },
    })
    expect(edited.json).toMatchObject({ phone: null, notes: 'Kun hverdage', version: 2 })
    expect((await t.call('PATCH', `/specialists/${created.json.id}`, { token: f.admin, body: { name: 'Y' }, headers: { 'If-Match': '"1"' } })).status).toBe(412)
    expect((await t.call('DELETE', `/specialists/${lawyer.json.id}`, { token: f.admin })).status).toBe(204)
    const after = (await pullSpecialists(t, resident, cursor)).changes
    expect(after).toContainEqual(expect.objectContaining({ id: created.json.id, op: 'upsert', data: expect.objectContaining({ notes: 'Kun hverdage' }) }))
    expect(after).toContainEqual(expect.objectContaining({ id: lawyer.json.id, op: 'delete' }))
  })

  it('gives the super admin every association’s specialists in the offline copy, as their change log does', async () => {
    const other = await t.login(demo.otherAdmin)
    const superadmin = await t.login(demo.superadmin)
    const own = (await createSpecialist(t, f.admin, { ...plumber, companyId: f.main })).json.id as string
    const theirs = (await createSpecialist(t, other, { companyId: f.second, kind: 'LAWYER', name: 'Advokat Havn' })).json.id as string
    const first = await pullSpecialists(t, superadmin)
    expect(first.changes.map((c) => c.id)).toEqual(expect.arrayContaining([own, theirs]))
    await t.call('PATCH', `/specialists/${theirs}`, { token: other, body: { notes: 'Kun mandag' }, headers: { 'If-Match': '"1"' } })
    expect((await pullSpecialists(t, superadmin, first.cursor)).changes).toEqual([
      expect.objectContaining({ id: theirs, op: 'upsert', data: expect.objectContaining({ notes: 'Kun mandag' }) }),
    ])
  })

  it('refuses a bad phone number, e-mail address or web address in the user’s language', async () => {
    const cases: [Record<string, unknown>, string, string, string][] = [
      [{ phone: 'ring mig' }, 'phone', 'Please enter a valid phone number', 'Indtast et gyldigt telefonnummer'],
      [{ email: 'jens@' }, 'email', 'Please enter a valid email address', 'Indtast en gyldig e-mailadresse'],
      [
        { website: 'javascript:alert(1)' },
        'website',
        'Please enter a valid web address, such as www.example.dk',
        'Indtast en gyldig webadresse, fx www.eksempel.dk',
      ],
      [{ website: 'vandvarme' }, 'website', 'Please enter a valid web address, such as www.example.dk', 'Indtast en gyldig webadresse, fx www.eksempel.dk'],
      [{ name: ' ' }, 'name', 'Please enter a name', 'Indtast et navn'],
      [{ kind: 'WIZARD' }, 'kind', 'Please choose one of the options', 'Vælg en af mulighederne'],
    ]
    for (const [fields, path, en, da] of cases)
      for (const [headers, text] of [
        [EN, en],
        [DA, da],
      ] as const) {
        const res = await createSpecialist(t, f.admin, { ...plumber, companyId: f.main, ...fields }, headers)
        expect(res.status, JSON.stringify(res.json)).toBe(400)
        expect(issue(res, path)).toBe(text)
      }
  })
})
