import { describe, expect, it } from 'vitest'
import { missingSetup } from './CompanySetup'

describe('what a company needs before it can collect payments', () => {
  const ready = { status: 'ACTIVE' as const, providers: [{ isActive: true }], addresses: [{}], members: [{ role: 'ADMINISTRATOR' as const }] }

  it('nothing once it has an active provider, an address, a manager and is active', () => {
    expect(missingSetup(ready)).toEqual([])
    expect(missingSetup({ ...ready, members: [{ role: 'CHAIRMAN' }] })).toEqual([])
  })

  it('names each missing part of a new company, activation last', () => {
    expect(missingSetup({ status: 'NEW', providers: [], addresses: [], members: [] })).toEqual(['provider', 'address', 'administrator', 'activate'])
    expect(missingSetup({ ...ready, providers: [{ isActive: false }] })).toEqual(['provider'])
    expect(missingSetup({ ...ready, members: [{ role: 'ACCOUNTANT' }, { role: 'BOARDMEMBER' }] })).toEqual(['administrator'])
    expect(missingSetup({ ...ready, status: 'NEW' })).toEqual(['activate'])
  })
})
