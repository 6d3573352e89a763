/**
 * Input the server must refuse (docs/decisions/0034-input-the-server-refuses.md) for companies: CVR 00000000, names over their
 * limit (the answer names it), control characters and bidi overrides in names and addresses, and
 * zod's own issues translated. Each answer in English and in Danish (Accept-Language).
 */
import { describe, expect, it } from 'vitest'
import { demo, testApp } from '../../test/harness'
import { companyIds } from './test-helpers'

const DA = { 'Accept-Language': 'da' }
const issue = (res: { json: any }, path: string): string | undefined => res.json?.issues?.find((i: { path: string }) => i.path === path)?.message
const newCompany = { name: 'Andelsboligforeningen Birkely', acronym: 'AB Birkely', cvr: '35954716', unionType: 'CONDO' }

async function setup() {
  const t = await testApp()
  const { main } = await companyIds(t)
  return { t, main, sa: await t.login(demo.superadmin), admin: await t.login(demo.admin) }
}

describe('text, names and CVR of companies', () => {
  it('refuses CVR 00000000 (its check sum passes) on create and on a field edit, in English and Danish', async () => {
    const { t, sa, admin, main } = await setup()
    const create = await t.call('POST', '/company', { token: sa, body: { ...newCompany, cvr: '00000000' } })
    expect(create.status).toBe(400)
    expect(create.json.code).toBe('VALIDATION_FAILED')
    expect(issue(create, 'cvr')).toBe('This is not a real CVR number')
    expect(issue(await t.call('POST', '/company', { token: sa, body: { ...newCompany, cvr: '0000 0000' }, headers: DA }), 'cvr')).toBe(
      'Dette er ikke et rigtigt CVR-nummer',
    )
    const field = await t.call('PATCH', `/company/${main}/field/cvr`, { token: admin, body: { value: '00000000' } })
    expect(field.json.issues).toEqual([{ path: 'cvr', message: 'This is not a real CVR number' }])
    const put = await t.call('PUT', `/company/${main}`, { token: admin, body: { cvr: '00000000' }, headers: DA })
    expect(issue(put, 'cvr')).toBe('Dette er ikke et rigtigt CVR-nummer')
    expect((await t.call('POST', '/company', { token: sa, body: newCompany })).status).toBe(201)
  })

  it('a 201-character company name says the limit of 200, in English and Danish, also on a field edit; 200 are accepted', async () => {
    const { t, sa, admin, main } = await setup()
    const en = await t.call('POST', '/company', { token: sa, body: { ...newCompany, name: 'N'.repeat(201) } })
    expect(en.status).toBe(400)
    expect(issue(en, 'name')).toBe('Name must be at most 200 characters')
    const da = await t.call('POST', '/company', { token: sa, body: { ...newCompany, name: 'N'.repeat(201), acronym: 'A'.repeat(51) }, headers: DA })
    expect(issue(da, 'name')).toBe('Navn må højst være 200 tegn')
    expect(issue(da, 'acronym')).toBe('Forkortelse må højst være 50 tegn')
    const field = await t.call('PATCH', `/company/${main}/field/name`, { token: admin, body: { value: 'N'.repeat(201) }, headers: DA })
    expect(field.json.issues).toEqual([{ path: 'name', message: 'Højst 200 tegn' }])
    expect((await t.call('POST', '/company', { token: sa, body: { ...newCompany, name: 'N'.repeat(200) } })).status).toBe(201)
  })

  it.each([
    ['NUL', 'Birkely\u0000'],
    ['CR LF', 'Birkely\r\nSkjult'],
    ['a right-to-left override', 'Birkely \u202Egnineb'],
    ['a left-to-right embedding', '\u202ABirkely'],
    ['a first-strong isolate', 'Birkely \u2068x\u2069'],
    ['a C1 control', 'Birkely\u0085'],
  ])('refuses %s in a company name and acronym, in English and Danish', async (_, text) => {
    const { t, sa, admin, main } = await setup()
    const res = await t.call('POST', '/company', { token: sa, body: { ...newCompany, name: text, acronym: text } })
    expect(res.status).toBe(400)
    expect(issue(res, 'name')).toBe('Please remove line breaks and control characters')
    expect(issue(res, 'acronym')).toBe('Please remove line breaks and control characters')
    const field = await t.call('PATCH', `/company/${main}/field/name`, { token: admin, body: { value: text }, headers: DA })
    expect(field.json.issues).toEqual([{ path: 'name', message: 'Fjern linjeskift og kontroltegn' }])
  })

  it('refuses control characters and over-long values in an address, naming the limit', async () => {
    const { t, admin, main } = await setup()
    const add = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
      t.call('POST', `/company/${main}/addresses`, { token: admin, body, headers })
    const address = { street: 'Solgårdsvej', number: '9', zip: '2200', city: 'København N' }
    const res = await add({ ...address, street: 'Solgårdsvej\n9', side: 'th\u202E', city: 'C'.repeat(101), number: '9'.repeat(21) })
    expect(res.status).toBe(400)
    expect(issue(res, 'street')).toBe('Please remove line breaks and control characters')
    expect(issue(res, 'side')).toBe('Please remove line breaks and control characters')
    expect(issue(res, 'city')).toBe('City must be at most 100 characters')
    expect(issue(res, 'number')).toBe('House number must be at most 20 characters')
    const da = await add({ ...address, street: 'S'.repeat(201), floor: '1\u0000' }, DA)
    expect(issue(da, 'street')).toBe('Vej må højst være 200 tegn')
    expect(issue(da, 'floor')).toBe('Fjern linjeskift og kontroltegn')
    expect((await add(address)).status).toBe(201)
  })

  it("refuses a new member's name of 201 characters or with a line break, in English and Danish", async () => {
    const { t, admin, main } = await setup()
    const add = (name: string, headers: Record<string, string> = {}) =>
      t.call('POST', `/company/${main}/member`, { token: admin, body: { user: { name, email: 'ny@example.dk' }, role: 'BOARDMEMBER' }, headers })
    expect(issue(await add('M'.repeat(201)), 'user.name')).toBe('Name must be at most 200 characters')
    expect(issue(await add('M'.repeat(201), DA), 'user.name')).toBe('Navn må højst være 200 tegn')
    expect(issue(await add('Ny\nBeboer'), 'user.name')).toBe('Please remove line breaks and control characters')
    expect(issue(await add('Ny \u202EBeboer', DA), 'user.name')).toBe('Fjern linjeskift og kontroltegn')
    expect((await add('Ny Beboer')).status).toBe(201)
  })

  it("refuses control characters in a payment provider's name and keys", async () => {
    const { t, sa } = await setup()
    const { second } = await companyIds(t)
    const config = {
      providerName: 'Vipps\u202E',
      merchantSerialNumber: '123456',
      subscriptionKey: 'key\u0000',
      clientId: 'client',
      clientSecret: 'sec\r\nret',
      useTestMode: true,
    }
    const res = await t.call('POST', `/company/${second}/payment-providers`, { token: sa, body: { config } })
    expect(res.status).toBe(400)
    expect(issue(res, 'config.providerName')).toBe('Please remove line breaks and control characters')
    expect(issue(res, 'config.subscriptionKey')).toBe('Please remove line breaks and control characters')
    expect(issue(res, 'config.clientSecret')).toBe('Please remove line breaks and control characters')
    const long = await t.call('POST', `/company/${second}/payment-providers`, {
      token: sa,
      body: { config: { ...config, providerName: 'V'.repeat(101), subscriptionKey: 'k', clientSecret: 's' } },
      headers: DA,
    })
    expect(issue(long, 'config.providerName')).toBe('Udbydernavn må højst være 100 tegn')
  })
})
