import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { SyncEngine } from '../../sync/engine'
import { LocalDb, deleteLocalDb } from '../../sync/local-db'
import { applyOutbox } from '../../sync/optimistic'
import { applyChanges } from '../../sync/pull'
import type { SyncHandle } from '../../sync/use-sync'
import { addAddress, deleteAddress, removeMember } from './company-child-mutations'
import { editCompanyField, fieldOfMutation } from './company-mutations'

const id = '11111111-1111-4111-8111-111111111111'
const company = {
  entity: 'company' as const,
  id,
  op: 'upsert' as const,
  version: 3,
  data: {
    id,
    name: 'Andel A',
    acronym: 'AA',
    cvr: '12345674',
    unionType: 'COOP',
    heatingWaterPeriodStartDate: null,
    heatingWaterPeriodEndDate: null,
    version: 3,
  },
}

let handle: SyncHandle
let userId: string
beforeEach(async () => {
  userId = crypto.randomUUID()
  const db = new LocalDb(userId)
  // A transport that never answers keeps every change pending (the app offline).
  const engine = new SyncEngine(db, { getToken: () => 't', getLocale: () => 'en', fetch: () => Promise.reject(new TypeError('offline')) })
  handle = { userId, db, engine }
  await applyChanges(db, [company], 'c', false, 0)
})
afterEach(async () => {
  await handle.engine.stop()
  handle.db.close()
  await deleteLocalDb(userId)
})

const view = async () => applyOutbox(await handle.db.companies.toArray(), await handle.db.outbox.orderBy('seq').toArray(), 'company')

describe('company field edits', () => {
  it('queue the documented call with the row version', async () => {
    const m = await editCompanyField(handle, { id, _version: 3 }, 'heatingWaterPeriodStartDate', '15.03')
    expect(m).toMatchObject({ method: 'PATCH', path: `/company/${id}/field/heatingWaterPeriodStartDate`, body: { value: '15.03' }, baseVersion: 3 })
    expect(fieldOfMutation(m!)).toBe('heatingWaterPeriodStartDate')
  })

  it('are made on the value and version the field had when it went into edit mode, not on a later pull', async () => {
    const [opened] = await view()
    // While the field is open, a pull brings another device's name and acronym (version 4).
    await applyChanges(handle.db, [{ ...company, version: 4, data: { ...company.data, name: 'Andel Nord', acronym: 'AN', version: 4 } }], 'c2', false, 0)
    const m = await editCompanyField(handle, opened!, 'name', 'Andel A/S')
    expect(m).toMatchObject({ body: { value: 'Andel A/S' }, baseVersion: 3, base: { name: 'Andel A' } })
    // Saving the value the field opened with queues nothing: the other device's acronym stands.
    expect(await editCompanyField(handle, opened!, 'acronym', 'AA')).toBeNull()
    expect(await handle.db.outbox.count()).toBe(1)
  })

  it('show at once offline, later edits on top of earlier ones', async () => {
    await editCompanyField(handle, { id }, 'name', 'Andel B')
    await editCompanyField(handle, { id }, 'heatingWaterPeriodEndDate', '01.05')
    await editCompanyField(handle, { id }, 'name', 'Andel C')
    const [row] = await view()
    expect(row).toMatchObject({ name: 'Andel C', acronym: 'AA', heatingWaterPeriodEndDate: '01.05', _pending: true })
  })

  it('clear a date with null', async () => {
    await editCompanyField(handle, { id }, 'heatingWaterPeriodStartDate', '15.03')
    await editCompanyField(handle, { id }, 'heatingWaterPeriodStartDate', null)
    const [row] = await view()
    expect(row?.heatingWaterPeriodStartDate).toBeNull()
  })
})

describe('removing an address or a member', () => {
  it('hides the row at once and queues the documented call', async () => {
    const addressId = '22222222-2222-4222-8222-222222222222'
    await applyChanges(
      handle.db,
      [
        {
          entity: 'address',
          id: addressId,
          op: 'upsert',
          version: 1,
          data: { id: addressId, companyId: id, street: 'Vej', number: '1', zip: '1000', city: 'København' },
        },
      ],
      'c2',
      false,
      0,
    )
    const m = await deleteAddress(handle, id, addressId)
    expect(m).toMatchObject({ method: 'DELETE', path: `/company/${id}/addresses/${addressId}` })
    expect(applyOutbox(await handle.db.addresses.toArray(), await handle.db.outbox.toArray(), 'address')).toEqual([])
    expect(await removeMember(handle, id, addressId)).toMatchObject({ method: 'DELETE', path: `/company/${id}/member/${addressId}` })
  })
})

describe('adding an address', () => {
  it('shows the new row in the company at once', async () => {
    const addressId = '33333333-3333-4333-8333-333333333333'
    await addAddress(handle, id, { id: addressId, referenceId: null, street: 'Vej', number: '2', floor: null, side: null, zip: '2100', city: 'København Ø' })
    const rows = applyOutbox(await handle.db.addresses.toArray(), await handle.db.outbox.toArray(), 'address')
    expect(rows).toEqual([expect.objectContaining({ id: addressId, companyId: id, street: 'Vej', country: 'Denmark', _pending: true })])
  })
})
