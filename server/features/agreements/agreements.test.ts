import { describe, expect, it } from 'vitest'
import { demo, testApp } from '../../test/harness'
import { agreementFixtures, createAgreement, createPayload } from './test-helpers'

describe('POST /api/agreement', () => {
  it('creates an agreement in CREATED with price = sum of parts and externalId 1001', async () => {
    const t = await testApp()
    const a = await createAgreement(t)
    expect(a).toMatchObject({ status: 'CREATED', price: 515_050, externalId: '1001', version: 1 })
  })
})
