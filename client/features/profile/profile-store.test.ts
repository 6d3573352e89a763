import Dexie from 'dexie'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Profile } from '../../../shared/contract/account'
import { ApiError } from '../../lib/api'
import { LocalDb, deleteLocalDb, localDbName } from '../../sync/local-db'

const updateProfileField = vi.fn()
vi.mock('./profile-mutations', () => ({ updateProfileField: (...args: unknown[]) => updateProfileField(...args) }))
const activateLocale = vi.fn(async () => undefined)
vi.mock('../../i18n/i18n', () => ({ activateLocale: (...args: unknown[]) => activateLocale(...(args as [])) }))

const { chooseLanguageOffline, pendingLanguage, readProfile, saveProfile, sendPendingLanguage } = await import('./profile-store')

const profile: Profile = {
  id: crypto.randomUUID(),
  fullName: 'Bo Beboer',
  emailAddress: 'bo@example.dk',
  mobileNumber: '+4512345678',
  userRole: 'USER',
  language: 'EN',
  companies: [{ id: crypto.randomUUID(), name: 'Solgården', role: 'BOARDMEMBER' }],
  currentCompany: null,
  version: 3,
  authMethods: [{ id: crypto.randomUUID(), type: 'EMAIL_PASSWORD', identifier: 'bo@example.dk', verified: true, createdAt: '2026-01-01T00:00:00.000Z' }],
  pendingEmailAddress: null,
  mobileVerified: false,
}

let userId: string
let db: LocalDb
beforeEach(() => {
  userId = crypto.randomUUID()
  db = new LocalDb(userId)
  updateProfileField.mockReset()
  activateLocale.mockClear()
})
afterEach(async () => {
  db.close()
  await deleteLocalDb(userId)
})

describe('the profile kept on this device', () => {
  it('keeps the last server answer, sign-in methods and companies included, for offline', async () => {
    expect(await readProfile(db)).toBeNull()
    await saveProfile(db, profile, 1000)
    expect(await readProfile(db)).toEqual({ profile, savedAt: 1000 })
  })

  it('a language chosen offline shows at once and is sent once the server answers', async () => {
    await saveProfile(db, profile)
    await chooseLanguageOffline(db, 'DA')
    expect(activateLocale).toHaveBeenCalledWith('da')
    expect((await readProfile(db))?.profile.language).toBe('DA')

    // Still unreachable: kept for next time.
    updateProfileField.mockRejectedValueOnce(new ApiError(0, 'NETWORK', 'offline'))
    await sendPendingLanguage(db)
    expect(await pendingLanguage(db)).toBe('DA')

    updateProfileField.mockResolvedValueOnce({ ...profile, language: 'DA', version: 4 })
    await sendPendingLanguage(db)
    expect(updateProfileField).toHaveBeenLastCalledWith('language', 'DA')
    expect(await pendingLanguage(db)).toBeNull()
    expect((await readProfile(db))?.profile).toMatchObject({ language: 'DA', version: 4 })
  })

  it('a language the server refuses is dropped (the account keeps its own)', async () => {
    await chooseLanguageOffline(db, 'DA')
    updateProfileField.mockRejectedValueOnce(new ApiError(400, 'VALIDATION_ERROR', 'no'))
    await sendPendingLanguage(db)
    expect(await pendingLanguage(db)).toBeNull()
  })

  it('a database of the previous schema (version 2) opens with its rows and the new table', async () => {
    const name = localDbName(userId)
    db.close()
    await Dexie.delete(name)
    const old = new Dexie(name)
    old.version(1).stores({ agreements: 'id, companyId, status', outbox: '++seq, &mutationId, status, entity, entityId', meta: 'key' })
    old.version(2).stores({ messages: 'id, companyId, status' })
    await old.table('agreements').put({ id: 'a1', _version: 1 })
    old.close()
    db = new LocalDb(userId)
    expect(await db.agreements.get('a1')).toMatchObject({ id: 'a1' })
    await saveProfile(db, profile)
    expect((await readProfile(db))?.profile.fullName).toBe('Bo Beboer')
  })
})
