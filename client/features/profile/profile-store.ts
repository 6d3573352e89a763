/**
 * The Profile screen offline (docs/OFFLINE.md "Local store" and "What is online only"). The profile is not a synced entity: the server's
 * last answer (name, e-mail, phone, language, sign-in methods, companies) is kept in the user's
 * local database (`snapshots`, local-db.ts) each time it is read or changed online, and shown from
 * there when the server cannot be reached.
 *
 * The language is a preference of the person, so choosing it offline works at once on this device
 * (the interface switches, like the language switcher on the sign-in page) and is remembered as
 * pending; the account's language is a server field too (e-mails and server messages follow it),
 * so it is sent the next time the server can be reached (`sendPendingLanguage`, run by the shell
 * whenever the app is online). The latest choice on this device wins: someone who picked Danish
 * offline expects Danish afterwards, even if another device set English meanwhile. The other
 * fields need the server's checks (a unique phone number, a confirmation link for an e-mail), so
 * they are not changed offline.
 */
import type { AccountInfo, Profile } from '../../../shared/contract/account'
import { isLanguage, localeOf, type Language } from '../../../shared/contract/values'
import { activateLocale } from '../../i18n/i18n'
import { ApiError } from '../../lib/api'
import { loadSchemas } from '../../lib/schemas'
import type { LocalDb } from '../../sync/local-db'
import { patchUser, whenSessionReady } from '../auth/session'
import { updateProfileField } from './profile-mutations'

export interface StoredProfile {
  profile: Profile
  savedAt: number
}

/** Keeps the server's answer for offline use (best effort: a full quota only loses the offline copy). */
export async function saveProfile(db: LocalDb, profile: Profile, now = Date.now()): Promise<void> {
  await db.snapshots.put({ key: 'profile', value: profile, savedAt: now }).catch(() => undefined)
}

/** The last profile the server gave, with a language chosen offline applied; null if there is none. */
export async function readProfile(db: LocalDb): Promise<StoredProfile | null> {
  const [stored, pending, schemas] = await Promise.all([db.snapshots.get('profile'), db.snapshots.get('pendingLanguage'), loadSchemas()])
  const parsed = schemas.Profile.safeParse(stored?.value)
  if (!stored || !parsed.success) return null
  const language = pending?.value
  return { profile: isLanguage(language) ? { ...parsed.data, language } : parsed.data, savedAt: stored.savedAt }
}

/**
 * The profile as far as the signed-in user stored with the session knows it, for a device that
 * never opened Profile online: sign-in methods are unknown then (`authMethods` empty).
 */
export const profileFromSession = (user: AccountInfo): Profile => {
  // The session's copy carries the newest notifications, which the profile does not show.
  const { notifications: _notifications, ...account } = user
  return { ...account, authMethods: [], pendingEmailAddress: null, mobileVerified: false }
}

/** Offline: the interface switches now, the account follows when the server can be reached. */
export async function chooseLanguageOffline(db: LocalDb, language: Language): Promise<void> {
  await db.snapshots.put({ key: 'pendingLanguage', value: language, savedAt: Date.now() })
  patchUser({ language })
  await activateLocale(localeOf(language))
}

export async function pendingLanguage(db: LocalDb): Promise<Language | null> {
  const language = (await db.snapshots.get('pendingLanguage'))?.value
  return isLanguage(language) ? language : null
}

const sending = new WeakMap<LocalDb, Promise<void>>()

/**
 * Sends a language chosen offline, once the session is checked (its answer would otherwise put the
 * old language back). Kept while the server cannot be reached; dropped when the server refuses it
 * (the account's language stays) or has it.
 */
export function sendPendingLanguage(db: LocalDb): Promise<void> {
  const running = sending.get(db)
  if (running) return running
  const run = (async () => {
    await whenSessionReady()
    const stored = await db.snapshots.get('pendingLanguage')
    if (!stored) return
    const language = stored.value
    if (!isLanguage(language)) return void (await db.snapshots.delete('pendingLanguage'))
    try {
      const profile = await updateProfileField('language', language)
      await saveProfile(db, profile)
    } catch (e) {
      const later = !(e instanceof ApiError) || e.status === 0 || e.status === 401 || e.status === 408 || e.status === 429 || e.status >= 500
      if (later) return
    }
    // A newer choice made meanwhile is sent next time.
    await db.transaction('rw', db.snapshots, async () => {
      if ((await db.snapshots.get('pendingLanguage'))?.savedAt === stored.savedAt) await db.snapshots.delete('pendingLanguage')
    })
  })()
    .catch(() => undefined)
    .finally(() => sending.delete(db))
  sending.set(db, run)
  return run
}
