import { describe, expect, it } from 'vitest'
import { AgreementResponseV3, ChargeResponseV3, CreateChargeResponse, DraftAgreementResponseV3, Problem } from '../vipps.schemas'
import { BASE_URL, MSN, problemOf, setup } from './emulator.test-support'

const agreements = '/recurring/v3/agreements'

describe('Vipps emulator: access token', () => {
  it('issues a Bearer token for any non-empty credentials', async () => {
    const { app } = setup()
    const res = await app.request('/accesstoken/get', {
      method: 'POST',
      headers: { client_id: 'a', client_secret: 'b', 'Ocp-Apim-Subscription-Key': 'c', 'Merchant-Serial-Number': MSN },
    })
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ token_type: 'Bearer', expires_in: 3600, access_token: expect.any(String) })
  })

  it('refuses a token request with a missing header (401 problem naming it)', async () => {
    const { app } = setup()
    const res = await app.request('/accesstoken/get', {
      method: 'POST',
      headers: { client_id: 'a', 'Ocp-Apim-Subscription-Key': 'c', 'Merchant-Serial-Number': MSN },
    })
    expect(res.status).toBe(401)
    expect(res.headers.get('Content-Type')).toBe('application/problem+json')
    expect((await problemOf(res)).extraDetails).toEqual([{ name: 'client_secret', reason: 'Required' }])
  })

  it('requires the token, the subscription key and the merchant serial number on API calls', async () => {
    const t = setup()
    const token = await t.token()
    const base = { Authorization: `Bearer ${token}`, 'Ocp-Apim-Subscription-Key': 'k', 'Merchant-Serial-Number': MSN }
    expect((await t.app.request(agreements, { headers: base })).status).toBe(200)
    expect((await t.app.request(agreements, { headers: { ...base, Authorization: 'Bearer nope' } })).status).toBe(401)
    expect((await t.app.request(agreements, { headers: { ...base, Authorization: '' } })).status).toBe(401)
    expect((await t.app.request(agreements, { headers: { ...base, 'Ocp-Apim-Subscription-Key': '' } })).status).toBe(401)
    expect((await t.app.request(agreements, { headers: { ...base, 'Merchant-Serial-Number': '' } })).status).toBe(400)
    expect((await t.app.request(agreements, { headers: { ...base, 'Merchant-Serial-Number': '999999' } })).status).toBe(401)
  })

  it('refuses a token after its hour is up', async () => {
    const t = setup()
    await t.token()
    t.clock.advance(3600 * 1000)
    const res = await t.call('GET', agreements)
    expect(res.status).toBe(401)
    expect((await problemOf(res)).detail).toMatch(/expired/)
  })
})

describe('Vipps emulator: agreements', () => {
  it('creates a PENDING agreement with a confirmation URL under the base URL', async () => {
    const t = setup()
    const res = await t.call('POST', agreements, { body: t.draft() })
    expect(res.status).toBe(201)
    const created = DraftAgreementResponseV3.parse(await res.json())
    expect(created.agreementId).toMatch(/^agr_[A-Za-z0-9]{7}$/)
    expect(created.vippsConfirmationUrl).toBe(`${BASE_URL}/confirm/${created.agreementId}`)
    const agreement = AgreementResponseV3.parse(await t.getJson(`${agreements}/${created.agreementId}`))
    expect(agreement).toMatchObject({
      status: 'PENDING',
      pricing: { type: 'LEGACY', currency: 'DKK', amount: 45000 },
      interval: { unit: 'MONTH', count: 1 },
      start: null,
    })
  })

  it.each([
    ['LEGACY without amount', { pricing: { type: 'LEGACY', currency: 'DKK' } }, 'pricing.amount'],
    ['LEGACY with amount 0', { pricing: { type: 'LEGACY', currency: 'DKK', amount: 0 } }, 'pricing.amount'],
    ['an unknown currency', { pricing: { currency: 'SEK', amount: 100 } }, 'pricing.currency'],
    ['no interval', { interval: undefined }, 'interval'],
    ['a product name over 45 characters', { productName: 'x'.repeat(46) }, 'productName'],
    ['no merchantRedirectUrl', { merchantRedirectUrl: undefined }, 'merchantRedirectUrl'],
    ['a relative merchantRedirectUrl', { merchantRedirectUrl: '/back' }, 'merchantRedirectUrl'],
  ])('refuses an agreement with %s', async (_label, over, field) => {
    const t = setup()
    const res = await t.call('POST', agreements, { body: t.draft(over) })
    expect(res.status).toBe(400)
    const problem = Problem.parse(await problemOf(res))
    expect(problem.type).toContain('vipps-recurring-api-problems#validation-error')
    expect(problem.extraDetails?.map((d) => d.name)).toContain(field)
  })

  it('answers invalid JSON with an invalid-json problem', async () => {
    const t = setup()
    const token = await t.token()
    const res = await t.app.request(agreements, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${token}`,
        'Ocp-Apim-Subscription-Key': 'k',
        'Merchant-Serial-Number': MSN,
        'Idempotency-Key': 'k1',
        'Content-Type': 'application/json',
      },
      body: '{nope',
    })
    expect(res.status).toBe(400)
    expect((await problemOf(res)).type).toMatch(/#invalid-json$/)
  })

  it('expires a PENDING agreement after 10 minutes and emits agreement-expired', async () => {
    const t = setup()
    const id = await t.createAgreement()
    t.clock.advance(10 * 60 * 1000 - 1)
    expect((await t.getJson(`${agreements}/${id}`)).status).toBe('PENDING')
    t.clock.advance(1)
    expect((await t.getJson(`${agreements}/${id}`)).status).toBe('EXPIRED')
    expect(t.emulator.state.eventsOfType('recurring.agreement-expired.v1').map((e) => e.payload)).toEqual([
      expect.objectContaining({ agreementId: id, msn: MSN, occurred: '2026-11-23T09:10:00.000Z' }),
    ])
  })

  it('keeps each merchant to its own agreements (404 for another MSN)', async () => {
    const t = setup()
    const id = await t.createAgreement()
    expect((await t.call('GET', `${agreements}/${id}`, { msn: '654321' })).status).toBe(404)
    expect(await (await t.call('GET', agreements, { msn: '654321' })).json()).toEqual([])
  })

  it('lists agreements, filtered by status', async () => {
    const t = setup()
    const pending = await t.createAgreement()
    const active = await t.activeAgreement()
    const all = await t.getJson<{ id: string }[]>(agreements)
    expect(all.map((a) => a.id)).toEqual([pending, active])
    const onlyActive = await t.getJson<{ id: string }[]>(`${agreements}?status=ACTIVE`)
    expect(onlyActive.map((a) => a.id)).toEqual([active])
    expect((await t.call('GET', `${agreements}?status=SLEEPING`)).status).toBe(400)
  })

  it('changes price and product name with PATCH (204)', async () => {
    const t = setup()
    const id = await t.activeAgreement()
    const res = await t.call('PATCH', `${agreements}/${id}`, { body: { productName: 'Ny pris', pricing: { amount: 47000 } } })
    expect(res.status).toBe(204)
    expect(await t.getJson(`${agreements}/${id}`)).toMatchObject({ productName: 'Ny pris', pricing: { amount: 47000 } })
  })

  it('stops an ACTIVE agreement with PATCH status STOPPED, cancelling its open charges', async () => {
    const t = setup()
    const id = await t.activeAgreement()
    const chargeId = await t.createCharge(id)
    expect((await t.call('PATCH', `${agreements}/${id}`, { body: { status: 'STOPPED' } })).status).toBe(204)
    expect(await t.getJson(`${agreements}/${id}`)).toMatchObject({ status: 'STOPPED', stop: '2026-11-23T09:00:00.000Z' })
    expect(await t.getJson(`${agreements}/${id}/charges/${chargeId}`)).toMatchObject({ status: 'CANCELLED', summary: { cancelled: 45000 } })
    expect(t.emulator.state.data.events.map((e) => e.payload.eventType)).toEqual([
      'recurring.agreement-activated.v1',
      'recurring.agreement-stopped.v1',
      'recurring.charge-canceled.v1',
    ])
  })

  it('stops a PENDING agreement too', async () => {
    const t = setup()
    const id = await t.createAgreement()
    expect((await t.call('PATCH', `${agreements}/${id}`, { body: { status: 'STOPPED' } })).status).toBe(204)
    expect((await t.getJson(`${agreements}/${id}`)).status).toBe('STOPPED')
  })

  it('refuses to patch a STOPPED or EXPIRED agreement (illegal-agreement-update)', async () => {
    const t = setup()
    const stopped = await t.activeAgreement()
    await t.call('PATCH', `${agreements}/${stopped}`, { body: { status: 'STOPPED' } })
    const expired = await t.createAgreement()
    t.clock.advance(11 * 60 * 1000)
    for (const id of [stopped, expired]) {
      const res = await t.call('PATCH', `${agreements}/${id}`, { body: { productName: 'x' } })
      expect(res.status).toBe(400)
      expect((await problemOf(res)).type).toMatch(/#illegal-agreement-update$/)
    }
  })

  it('accepts through the test API force accept (PATCH …/accept)', async () => {
    const t = setup()
    const id = await t.createAgreement()
    expect((await t.call('PATCH', `${agreements}/${id}/accept`, { body: { phoneNumber: '4587654321' } })).status).toBe(204)
    expect((await t.getJson(`${agreements}/${id}`)).status).toBe('ACTIVE')
  })
})

describe('Vipps emulator: charge rules', () => {
  it('creates a charge (201 {chargeId}) that is DUE with a CREATE history event', async () => {
    const t = setup()
    const id = await t.activeAgreement()
    const res = await t.call('POST', `${agreements}/${id}/charges`, { body: t.charge(), key: 'create-1' })
    expect(res.status).toBe(201)
    const { chargeId } = CreateChargeResponse.parse(await res.json())
    expect(chargeId).toMatch(/^chr-[A-Za-z0-9]{7}$/)
    const charge = ChargeResponseV3.parse(await t.getJson(`${agreements}/${id}/charges/${chargeId}`))
    expect(charge).toMatchObject({
      status: 'DUE',
      amount: 45000,
      currency: 'DKK',
      due: '2026-12-01',
      retryDays: 2,
      type: 'RECURRING',
      summary: { captured: 0, refunded: 0, cancelled: 0 },
    })
    expect(charge.history).toEqual([{ occurred: '2026-11-23T09:00:00.000Z', event: 'CREATE', amount: 45000, idempotencyKey: 'create-1', success: true }])
  })

  it('uses orderId as the chargeId and refuses it twice for the same merchant (409)', async () => {
    const t = setup()
    const id = await t.activeAgreement()
    expect(await t.createCharge(id, { orderId: 'bk-2026-12-0001' })).toBe('bk-2026-12-0001')
    const again = await t.call('POST', `${agreements}/${id}/charges`, { body: t.charge({ orderId: 'bk-2026-12-0001' }) })
    expect(again.status).toBe(409)
  })

  it.each([
    ['an amount of 0 øre', { amount: 0 }, 'amount', 'validation-error'],
    ['a negative amount', { amount: -100 }, 'amount', 'validation-error'],
    ['an empty description', { description: '' }, 'description', 'validation-error'],
    ['a description over 45 characters', { description: 'x'.repeat(46) }, 'description', 'validation-error'],
    ['a due date today', { due: '2026-11-23' }, 'due', 'charge-due-too-soon'],
    ['a due date in the past', { due: '2026-11-01' }, 'due', 'charge-due-too-soon'],
    ['a due date 3 years ahead', { due: '2029-11-23' }, 'due', 'charge-due-in-too-long'],
    ['a due date one day past 2 years', { due: '2028-11-24' }, 'due', 'charge-due-in-too-long'],
    ['no due date on a RECURRING charge', { due: undefined }, 'due', 'validation-error'],
    ['an impossible date', { due: '2026-02-30' }, 'due', 'validation-error'],
    ['retryDays 15', { retryDays: 15 }, 'retryDays', 'validation-error'],
    ['retryDays -1', { retryDays: -1 }, 'retryDays', 'validation-error'],
    ['no retryDays on a RECURRING charge', { retryDays: undefined }, 'retryDays', 'validation-error'],
    ['more than 5 times the LEGACY price', { amount: 5 * 45000 + 1 }, 'amount', 'charge-amount-too-high'],
  ])('refuses a charge with %s', async (_label, over, field, problemId) => {
    const t = setup()
    const id = await t.activeAgreement()
    const res = await t.call('POST', `${agreements}/${id}/charges`, { body: t.charge(over) })
    expect(res.status).toBe(400)
    const problem = await problemOf(res)
    expect(problem.type).toMatch(new RegExp(`#${problemId}$`))
    expect(problem.extraDetails.map((d) => d.name)).toContain(field)
    expect(problem.instance).toBe(`${agreements}/${id}/charges`)
  })

  it('accepts the edges: due tomorrow, due exactly 2 years ahead, retryDays 0 and 14, exactly 5 times the price', async () => {
    const t = setup()
    const id = await t.activeAgreement()
    for (const over of [{ due: '2026-11-24' }, { due: '2028-11-23' }, { retryDays: 0 }, { retryDays: 14 }, { amount: 5 * 45000 }]) {
      const res = await t.call('POST', `${agreements}/${id}/charges`, { body: t.charge(over) })
      expect(res.status, JSON.stringify(over)).toBe(201)
    }
  })

  it('uses the Copenhagen date for "today": at 23:30 UTC it is already tomorrow', async () => {
    const t = setup()
    const id = await t.activeAgreement()
    await t.control('clock', { set: '2026-11-23T23:30:00.000Z' }) // 00:30 on 24 November in Copenhagen
    const res = await t.call('POST', `${agreements}/${id}/charges`, { body: t.charge({ due: '2026-11-24' }) })
    expect(res.status).toBe(400)
    expect((await problemOf(res)).type).toMatch(/#charge-due-too-soon$/)
  })

  it('refuses a charge on a PENDING agreement', async () => {
    const t = setup()
    const id = await t.createAgreement()
    const res = await t.call('POST', `${agreements}/${id}/charges`, { body: t.charge() })
    expect(res.status).toBe(400)
    expect((await problemOf(res)).extraDetails).toEqual([{ name: 'agreementId', reason: expect.stringContaining('PENDING') }])
  })

  it('gives an UNSCHEDULED charge no retries and tomorrow as due, and processes it at the next run', async () => {
    const t = setup()
    const id = await t.activeAgreement()
    const chargeId = await t.createCharge(id, { type: 'UNSCHEDULED', due: undefined, retryDays: undefined, amount: 10000 })
    expect(await t.getJson(`${agreements}/${id}/charges/${chargeId}`)).toMatchObject({ due: '2026-11-24', retryDays: 0, type: 'UNSCHEDULED', status: 'DUE' })
    await t.emulator.processDue()
    expect((await t.getJson(`${agreements}/${id}/charges/${chargeId}`)).status).toBe('CHARGED')
  })

  it('keeps a charge due more than 30 days ahead PENDING until it comes within 30 days', async () => {
    const t = setup()
    const id = await t.activeAgreement()
    const chargeId = await t.createCharge(id, { due: '2027-01-15' })
    expect((await t.getJson(`${agreements}/${id}/charges/${chargeId}`)).status).toBe('PENDING')
    await t.advanceDays(23) // 16 December: 30 days before
    await t.emulator.processDue()
    expect((await t.getJson(`${agreements}/${id}/charges/${chargeId}`)).status).toBe('DUE')
  })
})

describe('Vipps emulator: charge life cycle', () => {
  it('charges a DUE charge on its due date: DUE → PROCESSING → CHARGED with RESERVE and CAPTURE events', async () => {
    const t = setup()
    const id = await t.activeAgreement()
    const chargeId = await t.createCharge(id)
    await t.emulator.processDue()
    expect((await t.getJson(`${agreements}/${id}/charges/${chargeId}`)).status).toBe('DUE')
    await t.advanceDays(8) // 1 December
    await t.emulator.processDue({ hold: true })
    expect((await t.getJson(`${agreements}/${id}/charges/${chargeId}`)).status).toBe('PROCESSING')
    await t.emulator.processDue()
    const charge = ChargeResponseV3.parse(await t.getJson(`${agreements}/${id}/charges/${chargeId}`))
    expect(charge).toMatchObject({ status: 'CHARGED', summary: { captured: 45000, refunded: 0, cancelled: 0 } })
    expect(charge.history.map((h) => [h.event, h.amount, h.success])).toEqual([
      ['CREATE', 45000, true],
      ['RESERVE', 45000, true],
      ['CAPTURE', 45000, true],
    ])
    expect(t.emulator.state.eventsOfType('recurring.charge-captured.v1').map((e) => e.payload)).toEqual([
      expect.objectContaining({ agreementId: id, chargeId, amount: 45000, currency: 'DKK', msn: MSN }),
    ])
  })

  it('fails the next N charges with user_action_required (fail-next-charges)', async () => {
    const t = setup()
    const id = await t.activeAgreement()
    const first = await t.createCharge(id)
    const second = await t.createCharge(id)
    const third = await t.createCharge(id)
    expect((await t.control('fail-next-charges', { count: 2 })).status).toBe(200)
    await t.advanceDays(8)
    await t.emulator.processDue()
    const statuses = await Promise.all([first, second, third].map((c) => t.getJson(`${agreements}/${id}/charges/${c}`)))
    expect(statuses.map((c) => [c.status, c.failureReason])).toEqual([
      ['FAILED', 'user_action_required'],
      ['FAILED', 'user_action_required'],
      ['CHARGED', null],
    ])
    expect(t.emulator.state.eventsOfType('recurring.charge-failed.v1').map((e) => [e.payload.chargeId, e.payload.failureReason])).toEqual([
      [first, 'user_action_required'],
      [second, 'user_action_required'],
    ])
  })

  it('keeps a failing charge DUE through its retry days when asked to (exhaustRetries)', async () => {
    const t = setup()
    const id = await t.activeAgreement()
    const chargeId = await t.createCharge(id, { retryDays: 2 })
    await t.control('fail-next-charges', { count: 1, exhaustRetries: true })
    await t.advanceDays(8) // due date
    await t.emulator.processDue()
    await t.advanceDays(1)
    await t.emulator.processDue()
    expect((await t.getJson(`${agreements}/${id}/charges/${chargeId}`)).status).toBe('DUE')
    await t.advanceDays(1)
    await t.emulator.processDue()
    expect((await t.getJson(`${agreements}/${id}/charges/${chargeId}`)).status).toBe('FAILED')
  })

  it('reserves a RESERVE_CAPTURE charge on its due date, then captures partly and fully', async () => {
    const t = setup()
    const id = await t.activeAgreement()
    const chargeId = await t.createCharge(id, { transactionType: 'RESERVE_CAPTURE' })
    await t.advanceDays(8)
    await t.emulator.processDue()
    const path = `${agreements}/${id}/charges/${chargeId}`
    expect((await t.getJson(path)).status).toBe('RESERVED')
    expect((await t.call('POST', `${path}/capture`, { body: { amount: 45001 } })).status).toBe(400)
    expect((await t.call('POST', `${path}/capture`, { body: { amount: 0 } })).status).toBe(400)
    expect((await t.call('POST', `${path}/capture`, { body: { amount: 20000 } })).status).toBe(204)
    expect(await t.getJson(path)).toMatchObject({ status: 'PARTIALLY_CAPTURED', summary: { captured: 20000 } })
    expect((await t.call('POST', `${path}/capture`, { body: { amount: 25000 } })).status).toBe(204)
    expect(await t.getJson(path)).toMatchObject({ status: 'CHARGED', summary: { captured: 45000 } })
    expect(t.emulator.state.eventsOfType('recurring.charge-reserved.v1')).toHaveLength(1)
    expect(t.emulator.state.eventsOfType('recurring.charge-captured.v1').map((e) => e.payload.amount)).toEqual([20000, 25000])
  })

  it('refuses to capture a charge that is not reserved', async () => {
    const t = setup()
    const id = await t.activeAgreement()
    const chargeId = await t.createCharge(id)
    const res = await t.call('POST', `${agreements}/${id}/charges/${chargeId}/capture`, { body: { amount: 100 } })
    expect(res.status).toBe(400)
    expect((await problemOf(res)).type).toMatch(/#charge-capture-failed$/)
  })

  it('refunds partly then fully, and refuses a refund above the captured amount', async () => {
    const t = setup()
    const id = await t.activeAgreement()
    const chargeId = await t.createCharge(id)
    const path = `${agreements}/${id}/charges/${chargeId}`
    const early = await t.call('POST', `${path}/refund`, { body: { amount: 100, description: 'Too early' } })
    expect(early.status).toBe(400)
    await t.advanceDays(8)
    await t.emulator.processDue()
    expect((await t.call('POST', `${path}/refund`, { body: { amount: 45001, description: 'Too much' } })).status).toBe(400)
    expect((await t.call('POST', `${path}/refund`, { body: { amount: 10000, description: 'Kredit' } })).status).toBe(204)
    expect(await t.getJson(path)).toMatchObject({ status: 'PARTIALLY_REFUNDED', summary: { captured: 45000, refunded: 10000 } })
    const above = await t.call('POST', `${path}/refund`, { body: { amount: 35001, description: 'Rest plus one' } })
    expect(above.status).toBe(400)
    expect((await problemOf(above)).extraDetails).toEqual([{ name: 'amount', reason: expect.stringContaining('35000 left') }])
    expect((await t.call('POST', `${path}/refund`, { body: { amount: 35000, description: 'Rest' } })).status).toBe(204)
    const charge = ChargeResponseV3.parse(await t.getJson(path))
    expect(charge).toMatchObject({ status: 'REFUNDED', summary: { captured: 45000, refunded: 45000 } })
    expect(charge.history.filter((h) => h.event === 'REFUND').map((h) => h.amount)).toEqual([10000, 35000])
    expect((await t.call('POST', `${path}/refund`, { body: { amount: 1, description: 'More' } })).status).toBe(400)
    expect(t.emulator.state.eventsOfType('recurring.charge-refunded.v1').map((e) => e.payload.amount)).toEqual([10000, 35000])
  })

  it('cancels DUE and RESERVED charges, and refuses to cancel a CHARGED one', async () => {
    const t = setup()
    const id = await t.activeAgreement()
    const due = await t.createCharge(id)
    const reserved = await t.createCharge(id, { transactionType: 'RESERVE_CAPTURE' })
    const charged = await t.createCharge(id, { due: '2026-11-24' })
    expect((await t.call('DELETE', `${agreements}/${id}/charges/${due}`)).status).toBe(204)
    expect(await t.getJson(`${agreements}/${id}/charges/${due}`)).toMatchObject({ status: 'CANCELLED', summary: { cancelled: 45000 } })
    await t.advanceDays(8)
    await t.emulator.processDue()
    expect((await t.call('DELETE', `${agreements}/${id}/charges/${reserved}`)).status).toBe(204)
    expect((await t.getJson(`${agreements}/${id}/charges/${reserved}`)).status).toBe('CANCELLED')
    const refused = await t.call('DELETE', `${agreements}/${id}/charges/${charged}`)
    expect(refused.status).toBe(400)
    expect((await problemOf(refused)).type).toMatch(/#cancel-charge-failed$/)
    expect(t.emulator.state.eventsOfType('recurring.charge-canceled.v1').map((e) => e.payload.chargeId)).toEqual([due, reserved])
  })

  it('lists the charges of an agreement, filtered by status', async () => {
    const t = setup()
    const id = await t.activeAgreement()
    const a = await t.createCharge(id)
    const b = await t.createCharge(id)
    await t.call('DELETE', `${agreements}/${id}/charges/${b}`)
    expect((await t.getJson<{ id: string }[]>(`${agreements}/${id}/charges`)).map((c) => c.id)).toEqual([a, b])
    expect((await t.getJson<{ id: string }[]>(`${agreements}/${id}/charges?status=CANCELLED`)).map((c) => c.id)).toEqual([b])
  })

  it('answers 404 for a charge of another agreement', async () => {
    const t = setup()
    const one = await t.activeAgreement()
    const other = await t.activeAgreement()
    const chargeId = await t.createCharge(one)
    expect((await t.call('GET', `${agreements}/${other}/charges/${chargeId}`)).status).toBe(404)
    expect((await t.call('GET', `/recurring/v3/charges/${chargeId}`)).status).toBe(200)
  })
})
