import { describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { v7 } from 'uuid'
import { demo, testApp } from '../../test/harness'
import { agreements, charges } from '../../db/schema/agreements'
import { invoices } from '../../db/schema/invoices'
import { acceptedWithCollectedCharge, createAgreement } from '../agreements/test-helpers'
import { addResident, householdFixtures, registerMove } from './test-helpers'
import { householdResidents } from '../../db/schema/households'
import { ERASED_NAME } from '../../../shared/contract/personal-data'
import { eraseOnRequest, newMember, zq } from '../personal-data/test-helpers'

describe('households (docs/PRODUCT.md "Households")', () => {
  it('keeps type, area, allocation figure and external number exactly, and refuses bad figures in the reader’s language', async () => {
    const t = await testApp()
    const f = await householdFixtures(t)
    const before = await t.call('GET', `/households/${f.household}`, { token: f.admin })
    expect(before.status).toBe(200)
    expect(before.json).toMatchObject({ type: 'APARTMENT', area: null, allocation: null, externalId: null, residents: [], version: 1 })
    const ok = await t.call('PATCH', `/households/${f.household}`, {
      token: f.admin,
      body: { type: 'HOUSE', area: '74,55', allocation: '1.250', externalId: 'A-17' },
      headers: { 'If-Match': '"1"' },
    })
    expect(ok.status, JSON.stringify(ok.json)).toBe(200)
    expect(ok.json).toMatchObject({ type: 'HOUSE', area: '74.55', allocation: '1.25', externalId: 'A-17', version: 2 })
    const stale = await t.call('PATCH', `/households/${f.household}`, { token: f.admin, body: { area: '80' }, headers: { 'If-Match': '"1"' } })
    expect(stale.status).toBe(412)
    const bad = await t.call('PATCH', `/households/${f.household}`, {
      token: f.admin,
      body: { area: '74.555', allocation: 'x' },
      headers: { 'Accept-Language': 'da' },
    })
    expect(bad.status).toBe(400)
    expect(bad.json.issues).toEqual([
      { path: 'area', message: 'Angiv arealet i m² med højst 2 decimaler' },
      { path: 'allocation', message: 'Angiv fordelingstallet med højst 3 decimaler' },
    ])
    const taken = await t.call('PATCH', `/households/${f.addressIds[1]}`, { token: f.admin, body: { externalId: 'A-17' } })
    expect(taken.status).toBe(400)
    // Solgården is a co-op or a condo; a share value only for a co-op.
    const company = await t.call('GET', `/company/${f.main}`, { token: f.admin })
    const share = await t.call('PATCH', `/households/${f.household}`, { token: f.admin, body: { share: 12_500_000 } })
    expect(share.status).toBe(company.json.unionType === 'COOP' ? 200 : 400)
  })

  it('lists and searches the association’s households; a board member reads, may not change', async () => {
    const t = await testApp()
    const f = await householdFixtures(t)
    await addResident(t, f.admin, f.household, {
      fullName: 'Karen Blixen',
      emailAddress: 'karen@example.dk',
      kind: 'OWNER',
      moveInDate: '2020-01-01',
      isPayer: true,
    })
    const all = await t.call('GET', `/households?companyId=${f.main}&limit=2`, { token: f.admin })
    expect(all.status).toBe(200)
    expect(all.json).toHaveLength(2)
    expect(all.headers.get('Link')).toContain('cursor=')
    const found = await t.call('GET', `/households?companyId=${f.main}&search=blixen`, { token: f.admin })
    expect(found.json.map((h: { id: string }) => h.id)).toEqual([f.household])
    const board = await t.login(demo.boardmember)
    expect((await t.call('GET', `/households/${f.household}`, { token: board })).status).toBe(200)
    expect((await t.call('PATCH', `/households/${f.household}`, { token: board, body: { area: '70' } })).status).toBe(403)
  })

  it('a resident reads the household they live in, with its current residents only, and counts as a member of the association', async () => {
    const t = await testApp()
    const f = await householdFixtures(t)
    await addResident(t, f.admin, f.household, {
      fullName: 'Tidligere Ejer',
      emailAddress: 'tidligere@example.dk',
      kind: 'OWNER',
      moveInDate: '2010-01-01',
      moveOutDate: '2020-01-01',
    })
    const added = await addResident(t, f.admin, f.household, {
      fullName: 'Sofie Jensen',
      emailAddress: demo.resident,
      kind: 'OWNER',
      moveInDate: '2020-01-01',
      isPayer: true,
    })
    expect(added.status, JSON.stringify(added.json)).toBe(201)
    expect(added.json.residents).toHaveLength(2)
    const resident = await t.login(demo.resident)
    const own = await t.call('GET', `/households/${f.household}`, { token: resident })
    expect(own.status).toBe(200)
    expect(own.json.residents.map((r: { fullName: string; emailAddress: string | null }) => [r.fullName, r.emailAddress])).toEqual([['Sofie Jensen', null]])
    expect((await t.call('GET', `/households/${f.addressIds[1]}`, { token: resident })).status).toBe(404)
    // No agreement, yet a resident: a message to all members reaches them (residency.service.ts).
    const members = await t.services.residency.members(f.main)
    expect(members.map((m) => m.emailAddress)).toContain(demo.resident)
    expect(members.map((m) => m.emailAddress)).not.toContain('tidligere@example.dk')
    // A message to the address reaches who lives there now.
    expect((await t.services.residency.residentsAt(f.household)).map((m) => m.emailAddress)).toEqual([demo.resident])
    expect(await t.services.residency.isResident(own.json.residents[0].userId, f.main)).toBe(true)
    const sync = await t.call('GET', '/sync', { token: resident })
    expect(sync.json.changes.filter((c: { entity: string }) => c.entity === 'household').map((c: { id: string }) => c.id)).toEqual([f.household])
  })

  it('refuses a move-out before the move-in and a resident without a person', async () => {
    const t = await testApp()
    const f = await householdFixtures(t)
    const backwards = await addResident(t, f.admin, f.household, {
      fullName: 'A',
      emailAddress: 'a@example.dk',
      kind: 'TENANT',
      moveInDate: '2020-01-01',
      moveOutDate: '2019-01-01',
    })
    expect(backwards.status).toBe(400)
    const nobody = await addResident(t, f.admin, f.household, { kind: 'TENANT', moveInDate: '2020-01-01' })
    expect(nobody.status).toBe(400)
  })
})

describe('moves (docs/DOMAIN.md "Moves and the final settlement")', () => {
  async function occupied() {
    const t = await testApp()
    const f = await householdFixtures(t)
    const agreement = await createAgreement(t, {}, f.admin)
    const chargeId = await acceptedWithCollectedCharge(t, agreement.id)
    // Its invoice follows the collected charge (as the Vipps observer makes it).
    await t.db.update(invoices).set({ status: 'EXECUTED' }).where(eq(invoices.chargeId, chargeId)).run()
    const added = await addResident(t, f.admin, f.household, {
      fullName: 'Sofie Jensen',
      emailAddress: demo.resident,
      kind: 'OWNER',
      moveInDate: '2020-01-01',
      isPayer: true,
    })
    return { t, f, agreement, chargeId, leaving: added.json.residents[0].id as string }
  }

  it('ends the leaving payer’s agreement with a last payment for the days up to the move and starts the arriving payer’s', async () => {
    const { t, f, agreement, leaving } = await occupied()
    // The collected charge paid November; December is not charged yet. A move on 11 December: 10 of its 31 days.
    const preview = await t.call('GET', `/households/${f.household}/settlement?date=2026-12-11`, { token: f.admin })
    expect(preview.status, JSON.stringify(preview.json)).toBe(200)
    expect(preview.json).toMatchObject({ agreementId: agreement.id, lastPaymentPossible: true, regularToCome: 0, paidAhead: [], openBalance: 0 })
    expect(preview.json.lastPayment).toEqual({ from: '2026-12-01', through: '2026-12-10', due: '2026-12-08', amount: 166_145 })
    expect(preview.json.total).toBe(166_145)

    const id = v7()
    const body = {
      id,
      moveDate: '2026-12-11',
      leaving: [leaving],
      arriving: [{ fullName: 'Ny Ejer', emailAddress: 'ny.ejer@example.dk', kind: 'OWNER', isPayer: true }],
    }
    const moved = await registerMove(t, f.admin, f.household, body)
    expect(moved.status, JSON.stringify(moved.json)).toBe(201)
    expect(moved.json.settlement.total).toBe(166_145)
    expect(moved.json.household.residents.map((r: { fullName: string; moveOutDate: string | null; isPayer: boolean }) => [r.fullName, r.moveOutDate])).toEqual([
      ['Sofie Jensen', '2026-12-11'],
      ['Ny Ejer', null],
    ])
    const ended = (await t.db.select().from(agreements).where(eq(agreements.id, agreement.id)).get())!
    expect(ended).toMatchObject({ terminationDate: '2026-12-11', finalPaymentRequired: true })
    const final = (await t.db.select().from(charges).where(eq(charges.agreementId, agreement.id)).all()).find((c) => c.kind === 'FINAL')!
    expect(final).toMatchObject({ amountOre: 166_145, due: '2026-12-08' })
    expect((await t.db.select().from(invoices).where(eq(invoices.chargeId, final.id)).all()).map((i) => i.totalOre)).toEqual([166_145])
    const next = (await t.db.select().from(agreements).where(eq(agreements.id, moved.json.newAgreementId)).get())!
    expect(next).toMatchObject({ startPaymentDate: '2026-12-11', priceOre: 515_050, paymentPeriod: 'MONTHLY', status: 'CREATED' })
    // Invited like a new member.
    expect((await t.mails()).some((m) => m.to === 'ny.ejer@example.dk')).toBe(true)

    // The same move again (a double click, a retry with a new key): the one move, one new agreement.
    const again = await registerMove(t, f.admin, f.household, body)
    expect(again.status).toBe(201)
    expect(again.json.newAgreementId).toBe(moved.json.newAgreementId)
    const other = await registerMove(t, f.admin, f.household, { ...body, moveDate: '2026-12-12' })
    expect(other.status).toBe(409)
    // The leaving member keeps reading their own agreement and invoices.
    const resident = await t.login(demo.resident)
    expect((await t.call('GET', `/agreement/${agreement.id}`, { token: resident })).status).toBe(200)
  })

  it('refunds the days paid ahead when the move falls in a collected period, exact to the øre', async () => {
    const { t, f, agreement, chargeId, leaving } = await occupied()
    // The collected charge (due 1 November, 515,050 øre) paid November; moving out on 25 November keeps 24 of its 30 days.
    const moved = await registerMove(t, f.admin, f.household, { moveDate: '2026-11-25', leaving: [leaving], arriving: [] })
    expect(moved.status, JSON.stringify(moved.json)).toBe(201)
    // 515050 × 24 / 30 = 412040 kept; 103010 back.
    expect(moved.json.settlement.paidAhead).toEqual([{ chargeId, from: '2026-11-25', through: '2026-11-30', amount: 103_010 }])
    expect(moved.json.settlement.total).toBe(-103_010)
    expect((await t.db.select().from(agreements).where(eq(agreements.id, agreement.id)).get())!).toMatchObject({
      status: 'CANCELED',
      terminationDate: '2026-11-25',
    })
    const notes = (await t.db.select().from(invoices).where(eq(invoices.agreementId, agreement.id)).all()).filter((i) => i.kind === 'CREDIT_NOTE')
    expect(notes.map((n) => n.totalOre)).toEqual([103_010])
  })

  it('ends an agreement not yet accepted without a last payment, and refuses a settlement date that is no date', async () => {
    const t = await testApp()
    const f = await householdFixtures(t)
    const agreement = await createAgreement(t, {}, f.admin)
    const added = await addResident(t, f.admin, f.household, {
      fullName: 'Sofie Jensen',
      emailAddress: demo.resident,
      kind: 'OWNER',
      moveInDate: '2020-01-01',
      isPayer: true,
    })
    expect((await t.call('GET', `/households/${f.household}/settlement?date=11-12-2026`, { token: f.admin })).status).toBe(400)
    const preview = await t.call('GET', `/households/${f.household}/settlement?date=2026-12-11`, { token: f.admin })
    expect(preview.json).toMatchObject({ agreementId: agreement.id, lastPaymentPossible: false })
    const moved = await registerMove(t, f.admin, f.household, { moveDate: '2026-12-11', leaving: [added.json.residents[0].id] })
    expect(moved.status, JSON.stringify(moved.json)).toBe(201)
    expect((await t.db.select().from(agreements).where(eq(agreements.id, agreement.id)).get())!).toMatchObject({
      status: 'CANCELED',
      terminationDate: '2026-12-11',
      finalPaymentRequired: false,
    })
    expect((await t.db.select().from(charges).where(eq(charges.agreementId, agreement.id)).all()).filter((c) => c.kind === 'FINAL')).toEqual([])
  })

  it('refuses a move in the past, a resident of another household and a move with nobody', async () => {
    const { t, f, leaving } = await occupied()
    expect((await registerMove(t, f.admin, f.household, { moveDate: '2026-11-01', leaving: [leaving] })).status).toBe(400)
    expect((await registerMove(t, f.admin, f.addressIds[1]!, { moveDate: '2026-12-11', leaving: [leaving] })).status).toBe(400)
    expect((await registerMove(t, f.admin, f.household, { moveDate: '2026-12-11' })).status).toBe(400)
  })
})

describe('erasure (docs/decisions/0069, 0090)', () => {
  it('keeps where an erased member lived, under the erased name', async () => {
    const t = await testApp()
    const m = await newMember(t)
    const f = await householdFixtures(t)
    // The name as the staff typed it, not the account's: the identifier sweep would not find it.
    await addResident(t, f.admin, f.household, {
      fullName: 'Zeb Q.',
      emailAddress: zq.email,
      kind: 'TENANT',
      moveInDate: '2020-01-01',
      moveOutDate: '2024-01-01',
    })
    await t.db.update(agreements).set({ status: 'CLOSED' }).where(eq(agreements.id, m.agreementId)).run()
    const erased = await eraseOnRequest(t, demo.chairman, m.main, m.userId)
    expect(erased.status, JSON.stringify(erased.json)).toBe(200)
    const stays = await t.db.select().from(householdResidents).where(eq(householdResidents.userId, m.userId)).all()
    expect(stays.map((r) => [r.fullName, r.moveInDate, r.moveOutDate])).toEqual([[ERASED_NAME, '2020-01-01', '2024-01-01']])
  })
})

describe('addresses and households', () => {
  it('an address whose household had residents cannot be deleted (its history stays)', async () => {
    const t = await testApp()
    const f = await householdFixtures(t)
    await addResident(t, f.admin, f.household, { fullName: 'A', emailAddress: 'a@example.dk', kind: 'TENANT', moveInDate: '2020-01-01' })
    const res = await t.call('DELETE', `/company/${f.main}/addresses/${f.household}`, { token: f.admin, headers: { 'Idempotency-Key': v7() } })
    expect(res.status, JSON.stringify(res.json)).toBe(409)
  })
})
