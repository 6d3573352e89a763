import { beforeEach, describe, expect, it } from 'vitest'
import { v7 } from 'uuid'
import { demo, type TestApp } from '../../test/harness'
import { DA, EN, issue, pullChanges } from '../../test/requests'
import { neighbourhood, type Fixtures } from '../documents/test-helpers'
import { createListing, pngBytes, putPhoto } from './test-helpers'

const DAY = 86_400_000

const pullListings = (t: TestApp, token: string, from?: string) => pullChanges(t, token, 'listing', from)

describe('market', () => {
  let t: TestApp
  let f: Fixtures
  let seller: string
  let neighbour: string
  beforeEach(async () => ({ t, f, resident: seller, residentDa: neighbour } = await neighbourhood()))

  const list = async (token: string, kind?: string) => {
    const res = await t.call('GET', `/market?companyId=${f.main}${kind ? `&kind=${kind}` : ''}`, { token })
    expect(res.status).toBe(200)
    return (res.json as { title: string }[]).map((l) => l.title)
  }

  it('a member lists a swap item; members of the association see it, another association does not; it expires after 30 days unless renewed', async () => {
    const created = await createListing(t, seller, { companyId: f.main, kind: 'SWAP', title: '  Plantestiklinger ', description: 'Monstera og pilea' })
    expect(created.status, JSON.stringify(created.json)).toBe(201)
    expect(created.json).toMatchObject({
      kind: 'SWAP',
      title: 'Plantestiklinger',
      priceOre: null,
      status: 'AVAILABLE',
      photoId: null,
      seller: { fullName: expect.any(String) },
      expiresAt: new Date(t.clock.now().getTime() + 30 * DAY).toISOString(),
    })
    const sale = await createListing(t, neighbour, { companyId: f.main, kind: 'BUY', title: 'Barnevogn', priceOre: 45000 })
    expect(sale.json.priceOre).toBe(45000)
    expect(await list(neighbour, 'SWAP')).toEqual(['Plantestiklinger'])
    expect(await list(neighbour)).toEqual(['Barnevogn', 'Plantestiklinger'])
    expect(await list(await t.login(demo.boardmember), 'BUY')).toEqual(['Barnevogn'])
    const other = await t.login(demo.otherAdmin)
    expect((await t.call('GET', `/market?companyId=${f.main}`, { token: other })).status).toBe(404)
    expect((await t.call('GET', `/market/${created.json.id}`, { token: other })).status).toBe(404)
    expect((await pullListings(t, other)).changes).toEqual([])

    // The seller marks it reserved; every member's copy follows through sync.
    const { cursor } = await pullListings(t, neighbour)
    const reserved = await t.call('PATCH', `/market/${created.json.id}`, { token: seller, body: { status: 'RESERVED' }, headers: { 'If-Match': '"1"' } })
    expect(reserved.json).toMatchObject({ status: 'RESERVED', version: 2 })
    const after = (await pullListings(t, neighbour, cursor)).changes
    expect(after).toContainEqual(expect.objectContaining({ id: created.json.id, op: 'upsert', data: expect.objectContaining({ status: 'RESERVED' }) }))
    const stale = await t.call('PATCH', `/market/${created.json.id}`, { token: seller, body: { status: 'GONE' }, headers: { 'If-Match': '"1"' } })
    expect(stale.status).toBe(412)

    // 30 days on: hidden from others (in the list and by id), still the seller's (to renew).
    t.clock.advance(30 * DAY + 1000)
    seller = await t.login(demo.resident)
    neighbour = await t.login(demo.residentDa)
    // Each sees their own expired listing (to renew it), not the other's.
    expect(await list(neighbour)).toEqual(['Barnevogn'])
    expect(await list(seller)).toEqual(['Plantestiklinger'])
    expect((await t.call('GET', `/market/${created.json.id}`, { token: neighbour })).status).toBe(404)
    expect((await t.call('GET', `/market/${created.json.id}`, { token: seller })).status).toBe(200)
    const renewed = await t.call('POST', `/market/${created.json.id}/renew`, { token: seller, headers: { 'If-Match': '"2"' } })
    expect(renewed.status).toBe(200)
    expect(renewed.json).toMatchObject({ status: 'RESERVED', expiresAt: new Date(t.clock.now().getTime() + 30 * DAY).toISOString() })
    expect(await list(neighbour)).toEqual(['Barnevogn', 'Plantestiklinger'])
    expect((await t.call('POST', `/market/${created.json.id}/renew`, { token: neighbour })).status).toBe(403)
  })

  it('a member writes to the seller: an in-app notice and an e-mail in the seller’s language; not to oneself; rate-limited', async () => {
    const created = await createListing(t, seller, { companyId: f.main, kind: 'SWAP', title: 'Cykel' })
    const before = (await t.mails()).length
    const sent = await t.call('POST', `/market/${created.json.id}/contact`, { token: neighbour, body: { text: 'Jeg bytter gerne med en lampe.' } })
    expect(sent.status).toBe(202)
    const mails = (await t.mails()).slice(before)
    expect(mails).toHaveLength(1)
    expect(mails[0]!.to).toBe(demo.resident)
    expect(mails[0]!.text).toContain('Jeg bytter gerne med en lampe.')
    expect(mails[0]!.text).toContain(demo.residentDa)
    const notes = await t.call('GET', '/notifications', { token: seller })
    expect(JSON.stringify(notes.json)).toContain('Cykel')
    const own = await t.call('POST', `/market/${created.json.id}/contact`, { token: seller, body: { text: 'Hej' }, headers: EN })
    expect(own.status).toBe(422)
    expect(own.json.message).toBe('This is your own listing.')
    const empty = await t.call('POST', `/market/${created.json.id}/contact`, { token: neighbour, body: { text: '  ' }, headers: DA })
    expect(empty.status).toBe(400)
    expect(issue(empty, 'text')).toBe('Skriv venligst en besked.')
    // 10 an hour over all listings (3 a day about one listing, market.tester.test.ts).
    for (let i = 0; i < 9; i++) {
      const other = await createListing(t, seller, { companyId: f.main, kind: 'SWAP', title: `Ting ${i}` })
      expect((await t.call('POST', `/market/${other.json.id}/contact`, { token: neighbour, body: { text: `Hej ${i}` } })).status).toBe(202)
    }
    expect((await t.call('POST', `/market/${created.json.id}/contact`, { token: neighbour, body: { text: 'Igen' } })).status).toBe(429)
  })

  it('a photo: an image of at most 5 MB, scanned; readers fetch it; a new photo has a new id', async () => {
    const created = await createListing(t, seller, { companyId: f.main, kind: 'SHARE', title: 'Boremaskine' })
    const put = await putPhoto(t, seller, created.json.id)
    expect(put.status).toBe(200)
    expect(put.json.photoId).toEqual(expect.any(String))
    const res = await t.app.request(`/api/market/${created.json.id}/photo`, { headers: { Authorization: `Bearer ${neighbour}` } })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('image/png')
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(pngBytes())
    const pdf = await putPhoto(t, seller, created.json.id, { name: 'x.pdf', bytes: new TextEncoder().encode('%PDF-1.4\n%%EOF\n') })
    expect(pdf.status).toBe(422)
    expect(issue(pdf, 'file')).toBe('Please choose a photo (PNG, JPEG, GIF or WebP).')
    const exe = await putPhoto(t, seller, created.json.id, { name: 'x.exe', bytes: new Uint8Array([0x4d, 0x5a]) })
    expect(exe.status).toBe(422)
    expect(issue(exe, 'file')).toBe('Please choose a photo (PNG, JPEG, GIF or WebP).')
    const big = new Uint8Array(5 * 1024 * 1024 + 1)
    big.set(pngBytes())
    expect([413, 422]).toContain((await putPhoto(t, seller, created.json.id, { name: 'big.png', bytes: big })).status)
    expect((await putPhoto(t, seller, created.json.id, null)).status).toBe(400)
    const again = await putPhoto(t, seller, created.json.id)
    expect(again.json.photoId).not.toBe(put.json.photoId)
  })

  it('a client-made id makes a retried create one listing; staff delete as moderation, a neighbour may not', async () => {
    const id = v7()
    const body = { id, companyId: f.main, kind: 'SWAP', title: 'Bøger' }
    expect((await createListing(t, seller, body)).status).toBe(201)
    expect((await createListing(t, seller, body)).json.id).toBe(id)
    expect((await createListing(t, neighbour, { ...body, title: 'Andet' })).status).toBe(409)
    expect((await t.call('DELETE', `/market/${id}`, { token: neighbour })).status).toBe(403)
    expect((await t.call('DELETE', `/market/${id}`, { token: await t.login(demo.boardmember) })).status).toBe(204)
    expect((await t.call('GET', `/market/${id}`, { token: seller })).status).toBe(404)
  })

  it.each([
    ['no title', { title: '' }, 'title', 'Please enter a title', 'Indtast en titel'],
    ['a sale without a price', { kind: 'BUY' }, 'priceOre', 'Please enter a price in kroner', 'Indtast en pris i kroner'],
    ['a sale at 0 kr.', { kind: 'BUY', priceOre: 0 }, 'priceOre', 'Please enter a price in kroner', 'Indtast en pris i kroner'],
    ['a price in fractions of an øre', { kind: 'BUY', priceOre: 10.5 }, 'priceOre', 'Please enter a price in kroner', 'Indtast en pris i kroner'],
    [
      'a price over 1,000,000 kr.',
      { kind: 'BUY', priceOre: 100_000_001 },
      'priceOre',
      'The price can be at most DKK 1,000,000.',
      'Prisen kan højst være 1.000.000 kr.',
    ],
    ['a price on a swap', { priceOre: 100 }, 'priceOre', 'Only a listing for sale has a price', 'Kun en annonce til salg har en pris'],
    ['an unknown kind', { kind: 'RENT' }, 'kind', 'Please choose one of the options', 'Vælg en af mulighederne'],
  ])('refuses %s clearly, in English and Danish', async (_name, extra, path, en, da) => {
    for (const [headers, text] of [
      [EN, en],
      [DA, da],
    ] as const) {
      const res = await t.call('POST', '/market', { token: seller, headers, body: { companyId: f.main, kind: 'SWAP', title: 'Ting', ...extra } })
      expect(res.status).toBe(400)
      expect(issue(res, path)).toBe(text)
    }
  })

  it('refuses a status or price that does not fit, and never answers 500', async () => {
    const swap = await createListing(t, seller, { companyId: f.main, kind: 'SWAP', title: 'Lampe' })
    const priced = await t.call('PATCH', `/market/${swap.json.id}`, { token: seller, headers: EN, body: { priceOre: 100 } })
    expect(priced.status).toBe(422)
    expect(issue(priced, 'priceOre')).toBe('Only a listing for sale has a price')
    expect((await t.call('PATCH', `/market/${swap.json.id}`, { token: seller, body: { status: 'SOLD' } })).status).toBe(400)
    expect((await t.call('GET', `/market?companyId=${f.main}&kind=RENT`, { token: seller })).status).toBe(400)
    expect((await t.call('GET', `/market?companyId=${f.main}&limit=0`, { token: seller })).status).toBe(400)
    expect((await t.call('GET', '/market/not-an-id', { token: seller })).status).toBe(400)
    expect((await t.call('GET', `/market?companyId=${f.main}&cursor=garbage`, { token: seller })).status).toBe(400)
  })

  it('pages newest first', async () => {
    for (let i = 0; i < 5; i++) {
      await createListing(t, seller, { companyId: f.main, kind: 'SWAP', title: `Ting ${i}` })
      t.clock.advance(1000)
    }
    const first = await t.call('GET', `/market?companyId=${f.main}&limit=2`, { token: neighbour })
    expect(first.json.map((l: { title: string }) => l.title)).toEqual(['Ting 4', 'Ting 3'])
    const next = /<([^>]+)>/.exec(first.headers.get('link')!)![1]!.replace(/^.*\/api/, '')
    const second = await t.call('GET', next, { token: neighbour })
    expect(second.json.map((l: { title: string }) => l.title)).toEqual(['Ting 2', 'Ting 1'])
  })
})
