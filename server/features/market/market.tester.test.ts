/**
 * What an outside tester found in the market (decision 0063 "Added afterwards"): writing
 * about a listing that is gone or expired, a limit per listing that parallel requests cannot pass,
 * an expired listing by id, renewing a gone listing, and the photo's message for a file that is no photo.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { demo, type TestApp } from '../../test/harness'
import { DA, EN, issue } from '../../test/requests'
import { neighbourhood, type Fixtures } from '../documents/test-helpers'
import { createListing, putPhoto } from './test-helpers'

const DAY = 86_400_000

describe('market after the outside test', () => {
  let t: TestApp
  let f: Fixtures
  let seller: string
  let neighbour: string
  beforeEach(async () => ({ t, f, resident: seller, residentDa: neighbour } = await neighbourhood()))
  const contact = (id: string, token: string, headers: Record<string, string> = EN) =>
    t.call('POST', `/market/${id}/contact`, { token, headers, body: { text: 'Er den stadig til salg?' } })

  it('refuses writing about a gone or an expired listing (422, EN and DA), and sends nothing', async () => {
    const gone = await createListing(t, seller, { companyId: f.main, kind: 'SWAP', title: 'Lampe' })
    await t.call('PATCH', `/market/${gone.json.id}`, { token: seller, body: { status: 'GONE' } })
    const before = (await t.mails()).length
    for (const [headers, message] of [
      [EN, 'This listing is no longer available.'],
      [DA, 'Denne annonce er ikke længere tilgængelig.'],
    ] as const) {
      const res = await contact(gone.json.id, neighbour, headers)
      expect(res.status).toBe(422)
      expect(res.json.message).toBe(message)
    }
    const old = await createListing(t, seller, { companyId: f.main, kind: 'SWAP', title: 'Stol' })
    t.clock.advance(30 * DAY + 1000)
    neighbour = await t.login(demo.residentDa)
    const expired = await contact(old.json.id, neighbour)
    expect(expired.status).toBe(422)
    expect(expired.json.message).toBe('This listing is no longer available.')
    expect((await t.mails()).length).toBe(before)
  })

  it('an expired listing is 404 by id for others, the seller still reads it; a gone listing is not renewed', async () => {
    const listing = await createListing(t, seller, { companyId: f.main, kind: 'BUY', title: 'Cykel', priceOre: 50000 })
    t.clock.advance(30 * DAY + 1000)
    seller = await t.login(demo.resident)
    neighbour = await t.login(demo.residentDa)
    expect((await t.call('GET', `/market/${listing.json.id}`, { token: neighbour })).status).toBe(404)
    expect((await t.call('GET', `/market/${listing.json.id}`, { token: await t.login(demo.boardmember) })).status).toBe(404)
    expect((await t.call('GET', `/market/${listing.json.id}`, { token: seller })).json).toMatchObject({ title: 'Cykel' })
    await t.call('PATCH', `/market/${listing.json.id}`, { token: seller, body: { status: 'GONE' } })
    // A gone listing is no longer "expired": it reads, but is not renewed.
    expect((await t.call('GET', `/market/${listing.json.id}`, { token: neighbour })).status).toBe(200)
    for (const [headers, message] of [
      [EN, 'This listing is marked gone, so it cannot be renewed.'],
      [DA, 'Denne annonce er markeret som væk, så den kan ikke fornyes.'],
    ] as const) {
      const renew = await t.call('POST', `/market/${listing.json.id}/renew`, { token: seller, headers })
      expect(renew.status).toBe(422)
      expect(renew.json.message).toBe(message)
    }
  })

  it('three messages a day about one listing: ten parallel requests let exactly three through', async () => {
    const listing = await createListing(t, seller, { companyId: f.main, kind: 'SHARE', title: 'Boremaskine' })
    const before = (await t.mails()).length
    const answers = await Promise.all(Array.from({ length: 10 }, () => contact(listing.json.id, neighbour)))
    const statuses = answers.map((a) => a.status).sort()
    expect(statuses).toEqual([202, 202, 202, 429, 429, 429, 429, 429, 429, 429])
    expect((await t.mails()).length - before).toBe(3)
    // An hour on (the limit over all listings starts over): not this listing again today, another one yes.
    t.clock.advance(3_600_000 + 1000)
    expect((await contact(listing.json.id, neighbour)).status).toBe(429)
    const other = await createListing(t, seller, { companyId: f.main, kind: 'SHARE', title: 'Stige' })
    expect((await contact(other.json.id, neighbour)).status).toBe(202)
    // The next day this one takes messages again.
    t.clock.advance(DAY)
    neighbour = await t.login(demo.residentDa)
    expect((await contact(listing.json.id, neighbour)).status).toBe(202)
  })

  it('a file that is no photo says to choose a photo, in English and Danish', async () => {
    const listing = await createListing(t, seller, { companyId: f.main, kind: 'SHARE', title: 'Boremaskine' })
    const text = { name: 'noter.txt', bytes: new TextEncoder().encode('bare tekst') }
    expect(issue(await putPhoto(t, seller, listing.json.id, text), 'file')).toBe('Please choose a photo (PNG, JPEG, GIF or WebP).')
    const da = await putPhoto(t, seller, listing.json.id, { name: 'x.exe', bytes: new Uint8Array([0x4d, 0x5a]) }, 'da')
    expect(da.status).toBe(422)
    expect(issue(da, 'file')).toBe('Vælg venligst et foto (PNG, JPEG, GIF eller WebP).')
  })
})
