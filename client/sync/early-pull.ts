/**
 * The first pull of a tab, started by the app's first module (client/main.tsx) before the rest of
 * the app has loaded. On a fresh tab the sync engine starts only once React, the router and the
 * session are up (~0.7 s in on a slow machine), and a pull into an empty store is bound by
 * IndexedDB writing one row at a time; started here, the rows are being stored while the app
 * loads (docs/OFFLINE.md "Pull", decision 0053).
 *
 * It reads the session the app will start with from localStorage (the token and user id, and the
 * locale for Accept-Language) and pulls with the ordinary `pullAll` into the user's local
 * database. The sync session then adopts that database (`adoptEarlyPull`) and its engine waits
 * for this pull before it sends the queue or pulls, so a tab never runs two pulls at once. A pull whose
 * session the app does not take up (another user signed in meanwhile) closes its database once
 * it has ended. A refused token ends this pull ('unauthorized') and changes nothing: the engine
 * meets the same answer and pauses the queue as always.
 *
 * This module and what it imports load before anything else: keep them free of the app's
 * libraries (zod, React, the router); Dexie is the one it needs.
 */
import { storedLocale } from '../i18n/stored-locale'
import { SESSION_KEY } from '../lib/storage-keys'
import { LocalDb } from './local-db'
import { pullAll, type PullResult } from './pull'

export interface EarlyPull {
  userId: string
  token: string
  db: LocalDb
  /** Settles when the pull has ended; undefined when it failed (the engine's pull tries again). */
  pulled: Promise<PullResult | undefined>
}

let early: EarlyPull | undefined

/**
 * Starts the pull for the session stored in `storage`; does nothing without one. Never throws:
 * whatever fails here, the engine pulls later as it always has.
 */
export function startEarlyPull(given?: Pick<Storage, 'getItem'>, fetchFn: typeof fetch = (...args) => fetch(...args)): void {
  try {
    // Read inside the try: with the site's data blocked, the `localStorage` getter itself throws,
    // and a throw here would keep main.tsx from ever loading the app.
    const storage = given ?? localStorage
    const session = JSON.parse(storage.getItem(SESSION_KEY) ?? 'null') as { token?: unknown; user?: { id?: unknown } } | null
    const token = session?.token
    const userId = session?.user?.id
    if (typeof token !== 'string' || typeof userId !== 'string') return
    const locale = storedLocale(storage)
    const db = new LocalDb(userId)
    // Another tab deleting this database while the pull runs (its user signed out there) ends the
    // pull: Dexie would reopen it on the next write and store the pages still arriving in a new
    // database that nobody deletes. Once the pull has ended, the database behaves as any other.
    const deleted = (event: IDBVersionChangeEvent) => {
      if (event.newVersion) return
      db.close()
      // Dexie's own handler (run after this one unless stopped) would close it with reopening on.
      return false
    }
    db.on('versionchange', deleted)
    const pulled = pullAll(db, { getToken: () => token, getLocale: () => locale, fetch: fetchFn })
      .catch(() => undefined)
      .finally(() => db.on('versionchange').unsubscribe(deleted))
    early = { userId, token, db, pulled }
  } catch {
    early = undefined
  }
}

/**
 * The early pull, once, when it was started for `userId`: its database (to open the user's
 * session on) and the pull to wait for. Any other user's early pull is dropped: its database is
 * closed once its pull has ended.
 */
export function adoptEarlyPull(userId: string): Pick<EarlyPull, 'db' | 'pulled'> | undefined {
  const pull = early
  early = undefined
  if (!pull) return undefined
  if (pull.userId === userId) return { db: pull.db, pulled: pull.pulled }
  void pull.pulled.then(() => pull.db.close())
  return undefined
}
