import { describe, expect, it } from 'vitest'
import { setup } from './emulator.test-support'

/** The page text with non-breaking spaces (Intl puts them in amounts) as plain spaces. */
const textOf = async (res: Response) => (await res.text()).replace(/\u00a0/g, ' ')

const form = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
})

describe('Vipps emulator: confirmation page', () => {
  it('shows the product, the price per interval and the prefilled phone number, in English by default', async () => {
    const t = setup()
    const id = await t.createAgreement({ productName: 'Boligafgift <A&B>', pricing: { type: 'LEGACY', currency: 'DKK', amount: 123450 } })
    const res = await t.app.request(`/confirm/${id}`)
    expect(res.status).toBe(200)
    const html = await textOf(res)
    expect(html).toContain('<html lang="en">')
    expect(html).toContain('Boligafgift &lt;A&amp;B&gt;')
    expect(html).toContain('DKK 1,234.50 per month')
    expect(html).toContain('value="4512345678"')
    expect(html).toMatch(/<button[^>]*value="approve"[^>]*>Approve<\/button>/)
    expect(html).toMatch(/<button[^>]*value="reject"[^>]*>Reject<\/button>/)
    expect(html).toContain(`<form method="post" action="${id}">`)
    expect(html).not.toContain('<script')
  })

  it('speaks Danish for Accept-Language da or ?lang=da', async () => {
    const t = setup()
    const id = await t.createAgreement({ interval: { unit: 'MONTH', count: 3 } })
    const byHeader = await textOf(await t.app.request(`/confirm/${id}`, { headers: { 'Accept-Language': 'da-DK,da;q=0.9,en;q=0.8' } }))
    expect(byHeader).toContain('<html lang="da">')
    expect(byHeader).toContain('450,00 kr. hver 3. måned')
    expect(byHeader).toMatch(/>Godkend<\/button>/)
    expect(byHeader).toMatch(/>Afvis<\/button>/)
    const byQuery = await (await t.app.request(`/confirm/${id}?lang=da`, { headers: { 'Accept-Language': 'en' } })).text()
    expect(byQuery).toContain('Godkend aftale')
    expect(byQuery).toContain('href="?lang=en"')
  })

  it('approves from the page form: ACTIVE, started, activated event, 303 back to merchantRedirectUrl', async () => {
    const t = setup()
    const id = await t.createAgreement()
    const res = await t.app.request(`/confirm/${id}`, form({ action: 'approve', phoneNumber: '+45 87 65 43 21', lang: 'en' }))
    expect(res.status).toBe(303)
    expect(res.headers.get('Location')).toBe('http://localhost:3000/agreements/return')
    expect(await t.getJson(`/recurring/v3/agreements/${id}`)).toMatchObject({ status: 'ACTIVE', start: '2026-11-23T09:00:00.000Z' })
    expect(t.emulator.state.data.agreements[id]?.approvedBy).toBe('4587654321')
    expect(t.emulator.state.eventsOfType('recurring.agreement-activated.v1')).toHaveLength(1)
  })

  it('rejects from the page form: STOPPED, rejected event, 303 back', async () => {
    const t = setup()
    const id = await t.createAgreement()
    const res = await t.app.request(`/confirm/${id}`, form({ action: 'reject' }))
    expect(res.status).toBe(303)
    expect(res.headers.get('Location')).toBe('http://localhost:3000/agreements/return')
    expect((await t.getJson(`/recurring/v3/agreements/${id}`)).status).toBe('STOPPED')
    expect(t.emulator.state.eventsOfType('recurring.agreement-rejected.v1').map((e) => e.payload.agreementId)).toEqual([id])
  })

  it('sets the subject when the merchant asked for profile data (scope)', async () => {
    const t = setup({ loginUsers: [{ phoneNumber: '4512345678', name: 'Mette Hansen', sub: 'sub-mette' }] })
    const id = await t.createAgreement({ scope: 'name phoneNumber' })
    await t.app.request(`/confirm/${id}`, form({ action: 'approve', phoneNumber: '4512345678' }))
    expect((await t.getJson(`/recurring/v3/agreements/${id}`)).sub).toBe('sub-mette')
  })

  it('shows the page again with an error for a malformed phone number, changing nothing', async () => {
    const t = setup()
    const id = await t.createAgreement()
    const res = await t.app.request(`/confirm/${id}`, form({ action: 'approve', phoneNumber: '12ab', lang: 'da' }))
    expect(res.status).toBe(400)
    expect(await res.text()).toContain('Indtast et mobilnummer med landekode')
    expect((await t.getJson(`/recurring/v3/agreements/${id}`)).status).toBe('PENDING')
  })

  it('explains an unknown, an expired and an already approved agreement', async () => {
    const t = setup()
    const unknown = await t.app.request('/confirm/agr_nothere')
    expect(unknown.status).toBe(404)
    expect(await unknown.text()).toContain('Agreement not found')

    const expired = await t.createAgreement()
    t.clock.advance(10 * 60 * 1000)
    const page = await t.app.request(`/confirm/${expired}`, { headers: { 'Accept-Language': 'da' } })
    expect(page.status).toBe(410)
    expect(await page.text()).toContain('Aftalen er udløbet')
    const late = await t.app.request(`/confirm/${expired}`, form({ action: 'approve' }))
    expect(late.status).toBe(410)

    const approved = await t.activeAgreement()
    const again = await t.app.request(`/confirm/${approved}`)
    expect(again.status).toBe(409)
    expect(await again.text()).toContain('already approved')
  })
})
