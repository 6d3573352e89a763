/**
 * Ties the offline store and its sync engine to the signed-in user: while someone is signed in
 * (also after an offline start, where the stored user is kept) their database is open and the
 * engine runs; signing out or switching user stops it. Only an explicit sign-out deletes data
 * (`discardLocalData`): an expired token keeps the database and the queue for the next sign-in.
 */
import { createStore, type Store } from '../lib/store'
import { adoptEarlyPull } from './early-pull'
import { SyncEngine } from './engine'
import { LocalDb, deleteLocalDb } from './local-db'

export interface SyncHandle {
  userId: string
  db: LocalDb
  engine: SyncEngine
}

export interface SignedIn {
  userId: string
  token: string
}

export interface SyncSessionDeps {
  /** The signed-in user and token now, or null. */
  current: () => SignedIn | null
  /** Called whenever `current` may have changed. */
  subscribe: (listener: () => void) => () => void
  getLocale: () => string
  /** The server refused `token` while syncing: the user must sign in again (the queue waits). */
  onAuthPaused: (token: string) => void
  fetch?: typeof fetch
}

export interface SyncSession {
  store: Store<SyncHandle | null>
  /** Sign-out: stops the engine and deletes the user's local database (kept closed until the session ends). */
  discardLocalData: (userId: string) => Promise<void>
  /** Pull soon, e.g. after a call that the server answers by notifying the user. */
  requestSync: () => void
  dispose: () => void
}

/** How long sign-out waits for a request in flight before deleting the database anyway. */
const STOP_WAIT_MS = 3000

export function createSyncSession(deps: SyncSessionDeps): SyncSession {
  const store = createStore<SyncHandle | null>(null)
  let token: string | null = null
  /** A user whose data sign-out is deleting: not reopened before the session has ended. */
  let discarded: string | null = null

  function open({ userId, token: t }: SignedIn): void {
    token = t
    // The pull the first module started for this user (early-pull.ts): its database, and the
    // engine's first run waits for it.
    const early = adoptEarlyPull(userId)
    const db = early?.db ?? new LocalDb(userId)
    const engine = new SyncEngine(
      db,
      { getToken: () => token, getLocale: deps.getLocale, fetch: (input, init) => (deps.fetch ?? fetch)(input, init) },
      { onAuthPaused: () => token && deps.onAuthPaused(token), pullBefore: early?.pulled },
    )
    const handle = { userId, db, engine }
    store.set(handle)
    // A session starting here holds a token the server has not refused yet (a refused one ends
    // the session), so a queue paused for sign-in may go on.
    void db.meta
      .delete('authPaused')
      .catch(() => undefined)
      .then(() => {
        if (store.get() === handle) engine.start()
      })
    // Ask the browser not to evict the queue under storage pressure (best effort, may be refused).
    void globalThis.navigator?.storage?.persist?.().catch(() => false)
  }

  async function close(handle: SyncHandle): Promise<void> {
    if (store.get() === handle) store.set(null)
    // Screens drop their live queries on the next render (the store is null now) before the
    // database closes under them.
    await Promise.all([Promise.race([handle.engine.stop(), new Promise((r) => setTimeout(r, STOP_WAIT_MS))]), new Promise((r) => setTimeout(r, 0))])
    handle.db.close()
  }

  function follow(): void {
    const next = deps.current()
    const handle = store.get()
    if (handle && handle.userId !== next?.userId) void close(handle)
    if (!next) {
      token = null
      discarded = null
      return
    }
    if (next.userId === discarded) return
    if (!store.get()) return open(next)
    if (next.token !== token) {
      // The same user signed in again (e.g. after the token expired): the paused queue goes on.
      token = next.token
      void store.get()!.engine.resume()
    }
  }

  const unsubscribe = deps.subscribe(follow)
  follow()

  return {
    store,
    async discardLocalData(userId) {
      discarded = userId
      const handle = store.get()
      if (handle?.userId === userId) await close(handle)
      await deleteLocalDb(userId)
    },
    requestSync() {
      void store.get()?.engine.kick()
    },
    dispose() {
      unsubscribe()
      const handle = store.get()
      if (handle) void close(handle)
    },
  }
}
