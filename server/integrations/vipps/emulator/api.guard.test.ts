import { describe, expect, it } from 'vitest'
import { MSN, problemOf, setup } from './emulator.test-support'

const agreements = '/recurring/v3/agreements'

describe('Vipps emulator: Idempotency-Key', () => {
  it('requires an Idempotency-Key of 1–40 characters on every write', async () => {
    const t = setup()
    const missing = await t.call('POST', agreements, { body: t.draft(), key: null })
    expect(missing.status).toBe(400)
    expect(await problemOf(missing)).toMatchObject({ type: expect.stringMatching(/#idempotency-key-header$/), extraDetails: [{ name: 'Idempotency-Key' }] })
    expect((await t.call('POST', agreements, { body: t.draft(), key: 'k'.repeat(41) })).status).toBe(400)
    expect((await t.call('POST', agreements, { body: t.draft(), key: 'k'.repeat(40) })).status).toBe(201)
    const id = await t.activeAgreement()
    expect((await t.call('PATCH', `${agreements}/${id}`, { body: { productName: 'x' }, key: null })).status).toBe(400)
    expect((await t.call('GET', agreements, { key: null })).status).toBe(200)
  })

  it('replays the first answer for the same key and body, with no second effect', async () => {
    const t = setup()
    const id = await t.activeAgreement()
    const send = () => t.call('POST', `${agreements}/${id}/charges`, { body: t.charge(), key: 'charge-once' })
    const first = await send()
    const second = await send()
    expect(first.status).toBe(201)
    expect(second.status).toBe(201)
    expect(second.headers.get('Idempotent-Replayed')).toBe('true')
    expect(await second.json()).toEqual(await first.json())
    expect(await t.getJson<unknown[]>(`${agreements}/${id}/charges`)).toHaveLength(1)
  })

  it('treats the same JSON with other whitespace or key order as the same body', async () => {
    const t = setup()
    const id = await t.activeAgreement()
    const token = await t.token()
    const headers = {
      Authorization: `Bearer ${token}`,
      'Ocp-Apim-Subscription-Key': 'k',
      'Merchant-Serial-Number': MSN,
      'Idempotency-Key': 'same',
      'Content-Type': 'application/json',
    }
    const charge = t.charge()
    const reordered = Object.fromEntries(Object.entries(charge).reverse())
    const first = await t.app.request(`${agreements}/${id}/charges`, { method: 'POST', headers, body: JSON.stringify(charge) })
    const second = await t.app.request(`${agreements}/${id}/charges`, { method: 'POST', headers, body: JSON.stringify(reordered, null, 2) })
    expect(second.status).toBe(first.status)
    expect(await t.getJson<unknown[]>(`${agreements}/${id}/charges`)).toHaveLength(1)
  })

  it('answers 409 for the same key with another body or another path', async () => {
    const t = setup()
    const id = await t.activeAgreement()
    await t.call('POST', `${agreements}/${id}/charges`, { body: t.charge(), key: 'reused' })
    const otherBody = await t.call('POST', `${agreements}/${id}/charges`, { body: t.charge({ amount: 100 }), key: 'reused' })
    expect(otherBody.status).toBe(409)
    expect((await problemOf(otherBody)).type).toMatch(/#idempotency-conflict$/)
    expect((await t.call('POST', agreements, { body: t.draft(), key: 'reused' })).status).toBe(409)
    expect(await t.getJson<unknown[]>(`${agreements}/${id}/charges`)).toHaveLength(1)
  })

  it('replays a refusal too (a 4xx is kept against the key)', async () => {
    const t = setup()
    const id = await t.activeAgreement()
    const body = t.charge({ amount: 0 })
    expect((await t.call('POST', `${agreements}/${id}/charges`, { body, key: 'bad' })).status).toBe(400)
    const again = await t.call('POST', `${agreements}/${id}/charges`, { body, key: 'bad' })
    expect(again.status).toBe(400)
    expect(again.headers.get('Idempotent-Replayed')).toBe('true')
  })

  it('keeps keys per merchant', async () => {
    const t = setup()
    expect((await t.call('POST', agreements, { body: t.draft(), key: 'shared', msn: MSN })).status).toBe(201)
    expect((await t.call('POST', agreements, { body: t.draft(), key: 'shared', msn: '654321' })).status).toBe(201)
    expect(await t.getJson<unknown[]>(agreements)).toHaveLength(1)
  })
})

describe('Vipps emulator: injected call failures', () => {
  it('answers the next N API calls with a 500 problem, then works; a retry with the same key is not replayed', async () => {
    const t = setup()
    await t.token()
    expect((await t.control('fail-next-calls', { count: 2, mode: '500' })).status).toBe(200)
    const first = await t.call('POST', agreements, { body: t.draft(), key: 'retry-me' })
    expect(first.status).toBe(500)
    expect(first.headers.get('Content-Type')).toBe('application/problem+json')
    expect((await t.call('POST', agreements, { body: t.draft(), key: 'retry-me' })).status).toBe(500)
    expect((await t.call('POST', agreements, { body: t.draft(), key: 'retry-me' })).status).toBe(201)
    expect(await t.getJson<unknown[]>(agreements)).toHaveLength(1)
  })

  it('leaves the token endpoint alone unless includeToken is set', async () => {
    const t = setup()
    await t.control('fail-next-calls', { count: 1, includeToken: true })
    const res = await t.app.request('/accesstoken/get', {
      method: 'POST',
      headers: { client_id: 'a', client_secret: 'b', 'Ocp-Apim-Subscription-Key': 'c', 'Merchant-Serial-Number': MSN },
    })
    expect(res.status).toBe(500)
    expect((await t.call('GET', agreements)).status).toBe(200)
  })

  it('hangs a call until the caller gives up (timeout), without doing its work', async () => {
    // The hang's own end is far past the test's timeout: only the caller giving up ends the call.
    const t = setup({ hangMs: 600_000 })
    await t.token()
    await t.control('fail-next-calls', { count: 1, mode: 'timeout' })
    const res = await t.call('POST', agreements, { body: t.draft(), signal: AbortSignal.timeout(100) }).catch((err: unknown) => err)
    if (res instanceof Response) expect(res.status).toBe(504)
    expect(await t.getJson<unknown[]>(agreements)).toHaveLength(0)
  })

  it('ends a hang on stop()', async () => {
    const t = setup({ hangMs: 60_000 })
    await t.token()
    await t.control('fail-next-calls', { count: 1, mode: 'timeout' })
    const pending = t.call('GET', agreements)
    // The injected fault is taken as the call starts to hang: then stop.
    await expect.poll(() => t.emulator.state.data.faults.failNextCalls.count).toBe(0)
    t.emulator.stop()
    expect((await pending).status).toBe(504)
  })

  it('does the work but loses the answer (timeout-after-effect); the retry with the same key gets the stored answer', async () => {
    const t = setup({ hangMs: 50 })
    await t.token()
    await t.control('fail-next-calls', { count: 1, mode: 'timeout-after-effect' })
    const lost = await t.call('POST', agreements, { body: t.draft(), key: 'lost-answer' })
    const retry = await t.call('POST', agreements, { body: t.draft(), key: 'lost-answer' })
    expect(retry.status).toBe(201)
    expect(retry.headers.get('Idempotent-Replayed')).toBe('true')
    expect(await retry.json()).toEqual(await lost.json())
    expect(await t.getJson<unknown[]>(agreements)).toHaveLength(1)
  })
})
