import { describe, expect, it } from 'vitest'
import { demo, testApp } from '../../test/harness'
import { AddressProviderUnavailable } from '../../integrations/addresses/address-provider'
import { addressProviderFor } from '../../integrations/addresses/address-provider-for'

describe('GET /api/address-search', () => {
  it('answers suggestions from the builtin provider to staff', async () => {
    const t = await testApp()
    const res = await t.call('GET', '/address-search?q=2200', { token: await t.login(demo.boardmember) })
    expect(res.status).toBe(200)
    expect(res.json.length).toBeGreaterThan(0)
    expect(res.json[0]).toMatchObject({ zip: '2200', city: 'København N' })
  })

  it('needs at least 3 characters, a staff member and a session', async () => {
    const t = await testApp()
    const admin = await t.login(demo.admin)
    expect((await t.call('GET', '/address-search?q=ve', { token: admin })).json.issues).toEqual([
      { path: 'q', message: 'Type at least 3 characters to search.' },
    ])
    expect((await t.call('GET', '/address-search?q=vestergade', { token: await t.login(demo.resident) })).status).toBe(403)
    expect((await t.call('GET', '/address-search?q=vestergade')).status).toBe(401)
  })

  it('answers 503 PROVIDER_UNAVAILABLE when the provider fails', async () => {
    const t = await testApp({}, { addressProvider: { name: 'dataforsyningen', search: async () => Promise.reject(new AddressProviderUnavailable('down')) } })
    const res = await t.call('GET', '/address-search?q=vestergade', { token: await t.login(demo.admin) })
    expect(res).toMatchObject({
      status: 503,
      json: { code: 'PROVIDER_UNAVAILABLE', message: 'The address search is not available right now. Please try again later.' },
    })
  })

  it('chooses the provider from ADDRESS_PROVIDER and needs a token for dataforsyningen', () => {
    expect(addressProviderFor({ addressProvider: 'builtin', addressApiToken: undefined }).name).toBe('builtin')
    expect(addressProviderFor({ addressProvider: 'dataforsyningen', addressApiToken: 'x' }).name).toBe('dataforsyningen')
    expect(() => addressProviderFor({ addressProvider: 'dataforsyningen', addressApiToken: undefined })).toThrow(/ADDRESS_API_TOKEN/)
  })
})
