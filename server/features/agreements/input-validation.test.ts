/**
 * Input the server must refuse (docs/decisions/0034-input-the-server-refuses.md): agreement dates
 * (no catch-up billing for a backdated start) and, for agreements and charges, text (names, control characters), prices and
 * amounts, zod's own limits translated). Every answer is checked in English and in Danish. The
 * test clock starts at 2026-11-23 09:00 UTC (10:00 in Copenhagen).
 */
import { describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { demo, testApp } from '../../test/harness'
import { agreements, charges } from '../../db/schema/agreements'
import { messages } from '../../../shared/i18n-messages'
import { newId } from '../../lib/ids'
import { agreementFixtures, createAgreement, createPayload } from './test-helpers'

const DA = { 'Accept-Language': 'da' }
const issue = (res: { json: any }, path: string): string | undefined => res.json?.issues?.find((i: { path: string }) => i.path === path)?.message

async function setup() {
  const t = await testApp()
  const f = await agreementFixtures(t)
  const admin = await t.login(demo.admin)
  const create = (extra: Record<string, unknown>, headers: Record<string, string> = {}) =>
    t.call('POST', '/agreement', { token: admin, body: createPayload(f, extra), headers })
  return { t, f, admin, create }
}

describe('agreement dates', () => {
  it('refuses a start payment date before today, in English and Danish; today is accepted', async () => {
    const { create } = await setup()
    const en = await create({ startPaymentDate: '2026-11-22' })
    expect(en.status).toBe(400)
    expect(en.json.code).toBe('VALIDATION_FAILED')
    expect(issue(en, 'startPaymentDate')).toBe('The start payment date must be today or later')
    const da = await create({ startPaymentDate: '2026-01-01' }, DA)
    expect(issue(da, 'startPaymentDate')).toBe('Startdatoen for betaling skal være i dag eller senere')
    const today = await create({ startPaymentDate: '2026-11-23' })
    expect(today.status).toBe(201)
    expect(today.json).toMatchObject({ startPaymentDate: '2026-11-23', nextRegularPaymentDate: '2026-11-23' })
  })

  it('takes "today" from the clock in the Copenhagen calendar: at 00:30 in Copenhagen (still yesterday in UTC) yesterday is refused', async () => {
    const { t, create } = await setup()
    t.clock.set('2026-11-23T23:30:00.000Z') // 24 November 00:30 in Copenhagen
    expect(issue(await create({ startPaymentDate: '2026-11-23' }), 'startPaymentDate')).toBe(messages.startPaymentDateInPast.id)
    expect((await create({ startPaymentDate: '2026-11-24' })).status).toBe(201)
  })

  it('refuses a start payment date more than 5 years ahead', async () => {
    const { create } = await setup()
    const far = await create({ startPaymentDate: '2031-11-24' })
    expect(far.status).toBe(400)
    expect(issue(far, 'startPaymentDate')).toBe('The date can be at most 5 years from today')
    expect(issue(await create({ startPaymentDate: '2062-01-01' }, DA), 'startPaymentDate')).toBe('Datoen kan højst ligge 5 år fra i dag')
    expect((await create({ startPaymentDate: '2031-11-23' })).status).toBe(201)
  })

  it('refuses moving the next payment date into the past or beyond 5 years; an unchanged date is kept', async () => {
    const { t, create, admin } = await setup()
    const a = (await create({})).json
    const patch = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
      t.call('PATCH', `/agreement/${a.id}`, { token: admin, body, headers })
    const past = await patch({ nextRegularPaymentDate: '2026-11-01' })
    expect(past.status).toBe(400)
    expect(issue(past, 'nextRegularPaymentDate')).toBe('The next payment date must be today or later')
    expect(issue(await patch({ nextRegularPaymentDate: '2026-11-01' }, DA), 'nextRegularPaymentDate')).toBe('Næste betalingsdato skal være i dag eller senere')
    expect(issue(await patch({ nextRegularPaymentDate: '2032-01-01' }), 'nextRegularPaymentDate')).toBe(messages.dateTooFarAhead.id)
    // A form that sends the stored date back unchanged is not refused, even once that date has passed.
    t.clock.set('2026-12-05T09:00:00.000Z')
    const same = await patch({ nextRegularPaymentDate: '2026-12-01', paymentPeriod: 'MONTHLY' })
    expect(same.status, JSON.stringify(same.json)).toBe(200)
  })

  it('refuses a termination date more than 5 years ahead, in English and Danish', async () => {
    const { t, create, admin } = await setup()
    const a = (await create({})).json
    const cancel = (terminationDate: string, headers: Record<string, string> = {}) =>
      t.call('POST', `/agreement/${a.id}/cancel`, { token: admin, body: { terminationDate, finalPaymentRequired: false }, headers })
    const far = await cancel('2031-11-24')
    expect(far.status).toBe(400)
    expect(issue(far, 'terminationDate')).toBe('The date can be at most 5 years from today')
    expect(issue(await cancel('9999-12-31', DA), 'terminationDate')).toBe('Datoen kan højst ligge 5 år fra i dag')
    expect((await t.db.select().from(agreements).where(eq(agreements.id, a.id)).get())!.terminationDate).toBeNull()
    expect((await cancel('2031-11-23')).status).toBe(200)
  })

  it('bills a backdated agreement imported straight into the database from its first period on or after the import, without catching up', async () => {
    const { t, f, admin } = await setup()
    // As an import from an earlier system would write it: ACCEPTED at Vipps, started in January 2025, nothing billed here yet.
    const template = (await createAgreement(t, {}, admin)) as { id: string }
    const row = (await t.db.select().from(agreements).where(eq(agreements.id, template.id)).get())!
    const imported = newId()
    await t.db
      .insert(agreements)
      .values({
        ...row,
        id: imported,
        externalSeq: 5001,
        status: 'ACCEPTED',
        vippsAgreementId: 'agr_imported01',
        startPaymentDate: '2025-01-15',
        nextRegularPaymentDate: '2025-01-15',
        createdAt: t.clock.now().toISOString(),
        updatedAt: t.clock.now().toISOString(),
      })
      .run()
    await t.db.update(agreements).set({ status: 'REJECTED' }).where(eq(agreements.id, template.id)).run()
    // A billing run on the import day bills none of the 23 months before it.
    await t.services.billing.run()
    expect(await t.db.select().from(charges).where(eq(charges.agreementId, imported)).all()).toEqual([])
    expect((await t.db.select().from(agreements).where(eq(agreements.id, imported)).get())!.nextRegularPaymentDate).toBe('2026-12-15')
    // It then bills its periods as they come, and after downtime catches up only periods since the import.
    t.clock.set('2027-02-20T09:00:00.000Z')
    await t.services.billing.run()
    const listed = await t.call('GET', `/agreement/${imported}/charges`, { token: await t.login(demo.admin) })
    expect(listed.status).toBe(200)
    expect(listed.json.map((c: { due: string }) => c.due).sort()).toEqual(['2026-12-15', '2027-01-15', '2027-02-15'])
    expect(f.main).toBe(row.companyId)
  })
})

describe('names, text and prices of agreements and charges', () => {
  it('a 201-character member name names the limit in English and Danish; 200 characters are accepted', async () => {
    const { create } = await setup()
    const en = await create({ memberName: 'A'.repeat(201) })
    expect(en.status).toBe(400)
    expect(issue(en, 'memberName')).toBe('Full name must be at most 200 characters')
    expect(issue(await create({ memberName: 'A'.repeat(201) }, DA), 'memberName')).toBe('Fulde navn må højst være 200 tegn')
    expect((await create({ memberName: 'A'.repeat(200) })).status).toBe(201)
  })

  it.each([
    ['NUL', 'Sofie\u0000Jensen'],
    ['a line break', 'Sofie\nJensen'],
    ['CR LF', 'Sofie\r\nJensen'],
    ['a tab', 'Sofie\tJensen'],
    ['a right-to-left override', 'Sofie \u202Enesnej'],
    ['a bidi isolate', 'Sofie \u2066Jensen\u2069'],
  ])('refuses %s in a member name and a part description (EN and DA)', async (_, text) => {
    const { create } = await setup()
    const res = await create({ memberName: text, parts: [{ type: 'FEE', description: text, price: 1_000 }] })
    expect(res.status).toBe(400)
    expect(issue(res, 'memberName')).toBe('Please remove line breaks and control characters')
    expect(issue(res, 'parts.0.description')).toBe('Please remove line breaks and control characters')
    const da = await create({ memberName: text }, DA)
    expect(issue(da, 'memberName')).toBe('Fjern linjeskift og kontroltegn')
  })

  it('trims surrounding whitespace and line breaks and keeps letters of any language', async () => {
    const { create } = await setup()
    const res = await create({ memberName: '  Søren Ærø-Åberg \n', parts: [{ type: 'FEE', description: ' Vaskeri – מכונה ', price: 1_000 }] })
    expect(res.status, JSON.stringify(res.json)).toBe(201)
    expect(res.json.parts[0].description).toBe('Vaskeri – מכונה')
  })

  it('a price above the maximum and a price with a fraction of an øre each get their own message, not "greater than 0"', async () => {
    const { create } = await setup()
    const parts = [
      { type: 'FEE', description: 'For meget', price: 100_000_001 },
      { type: 'FEE', description: 'Brøk', price: 1_234.5 },
      { type: 'FEE', description: 'Enormt', price: 1e20 },
      { type: 'FEE', description: 'Nul', price: 0 },
    ]
    const en = await create({ parts })
    expect(en.status).toBe(400)
    expect(issue(en, 'parts.0.price')).toBe('The price can be at most DKK 1,000,000.')
    expect(issue(en, 'parts.1.price')).toBe('The price must be in whole øre (at most two decimals)')
    // A number too large for anything answers only that it is too large.
    expect(en.json.issues.filter((i: { path: string }) => i.path === 'parts.2.price').map((i: { message: string }) => i.message)).toEqual([
      'The price can be at most DKK 1,000,000.',
    ])
    expect(issue(en, 'parts.3.price')).toBe('The price must be greater than 0')
    const da = await create({ parts }, DA)
    expect(issue(da, 'parts.0.price')).toBe('Prisen kan højst være 1.000.000 kr.')
    expect(issue(da, 'parts.1.price')).toBe('Prisen skal være i hele øre (højst to decimaler)')
    expect((await create({ parts: [{ type: 'FEE', description: 'Max', price: 100_000_000 }] })).status).toBe(201)
  })

  it('a one-time charge amount above the maximum or with a fraction of an øre, and a description with a line break, get their own messages', async () => {
    const { t, create, admin } = await setup()
    const a = (await create({})).json
    await t.db.update(agreements).set({ status: 'ACCEPTED', vippsAgreementId: 'agr_onetime0001' }).where(eq(agreements.id, a.id)).run()
    const charge = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
      t.call('POST', `/agreement/${a.id}/requestOneTimeCharge`, { token: admin, body, headers })
    expect(issue(await charge({ amount: 100_000_001, description: 'Nøgle' }), 'amount')).toBe('The amount can be at most DKK 1,000,000.')
    expect(issue(await charge({ amount: 100_000_001, description: 'Nøgle' }, DA), 'amount')).toBe('Beløbet kan højst være 1.000.000 kr.')
    expect(issue(await charge({ amount: 250.5, description: 'Nøgle' }), 'amount')).toBe('The amount must be in whole øre (at most two decimals)')
    expect(issue(await charge({ amount: 250.5, description: 'Nøgle' }, DA), 'amount')).toBe('Beløbet skal være i hele øre (højst to decimaler)')
    expect(issue(await charge({ amount: 25_000, description: 'Ny\nnøgle' }), 'description')).toBe('Please remove line breaks and control characters')
  })

  it("translates zod's own limits and codes (no message in the schema) with the limit, in English and Danish", async () => {
    const { t, create, admin } = await setup()
    const longId = await create({ parts: [{ id: 'x'.repeat(65), type: 'FEE', description: 'Gebyr', price: 100 }] })
    expect(issue(longId, 'parts.0.id')).toBe('At most 64 characters')
    expect(issue(await create({ parts: [{ id: 'x'.repeat(65), type: 'FEE', description: 'Gebyr', price: 100 }] }, DA), 'parts.0.id')).toBe('Højst 64 tegn')
    // 51 parts used to answer "Please add at least one part" (the array's own message).
    const manyParts = Array.from({ length: 51 }, () => ({ type: 'FEE', description: 'Gebyr', price: 100 }))
    expect(issue(await create({ parts: manyParts }), 'parts')).toBe('Parts can have at most 50 items')
    expect(issue(await create({ parts: manyParts }, DA), 'parts')).toBe('Dele må højst have 50 elementer')
    const status = await t.call('GET', '/agreement?status=NOPE', { token: admin })
    expect(status.status).toBe(400)
    expect(issue(status, 'status')).toBe('Please choose one of the options')
    const daStatus = await t.call('GET', '/agreement?status=NOPE', { token: admin, headers: DA })
    expect(issue(daStatus, 'status')).toBe('Vælg en af mulighederne')
    // Nothing answers zod's English wording.
    for (const res of [longId, status]) for (const i of res.json.issues) expect(i.message).not.toMatch(/Too big|Too small|Invalid input|Invalid option/)
  })
})
