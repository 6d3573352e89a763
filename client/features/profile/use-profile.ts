import { useCallback, useEffect, useRef, useState } from 'react'
import type { Profile } from '../../../shared/contract/account'
import { ApiError } from '../../lib/api'
import { useSync, useSyncStatus } from '../../sync/use-sync'
import { useSession } from '../auth/session'
import { loadProfile } from './profile-mutations'
import { pendingLanguage, profileFromSession, readProfile, saveProfile } from './profile-store'

/**
 * `server`: just read from the server. `device`: the copy kept on this device when the server
 * could not be reached, saved at `savedAt`. `session`: the signed-in user only (this device never
 * opened Profile online), so the sign-in methods are unknown.
 */
export type ProfileSource = { kind: 'server' } | { kind: 'device'; savedAt: number } | { kind: 'session' }

/** How long the screen waits for the server before it shows the device's copy (docs/OFFLINE.md "What is online only"). */
const SERVER_WAIT_MS = 2000

export type ProfileState = { status: 'loading' } | { status: 'error' } | { status: 'ready'; profile: Profile; source: ProfileSource }

/**
 * The signed-in user's profile from the server, with a setter for the answers of later writes.
 * Offline it is the copy kept on this device at once, and online too when the server does not
 * answer within `SERVER_WAIT_MS` (docs/OFFLINE.md "What is online only"), so the screen never
 * waits on a spinner for a connection that is gone; it is read from the server again as soon as
 * the app is back online.
 */
export function useProfile() {
  const handle = useSync()
  const { online, lastSyncedAt } = useSyncStatus(handle)
  const user = useSession().user
  const [state, setState] = useState<ProfileState>({ status: 'loading' })
  const db = handle?.db
  // Read when the screen opens, and again when the connection comes back to a copy from the device.
  const fromServer = state.status === 'ready' && state.source.kind === 'server'
  const userRef = useRef(user)
  userRef.current = user

  useEffect(() => {
    if (fromServer) return
    const controller = new AbortController()
    let answered = false
    // The device's copy, better than the session's; a copy from the server already shown stays.
    const showKept = async () => {
      const stored = db ? await readProfile(db).catch(() => null) : null
      if (controller.signal.aborted || answered) return
      const sessionUser = userRef.current
      setState((s) =>
        s.status === 'ready' && s.source.kind === 'server' ? s
        : stored ? { status: 'ready', profile: stored.profile, source: { kind: 'device', savedAt: stored.savedAt } }
        : s.status === 'ready' ? s
        : sessionUser ? { status: 'ready', profile: profileFromSession(sessionUser), source: { kind: 'session' } }
        : s,
      )
    }
    // Offline the screen shows what this device kept at once, without waiting for the request to
    // fail; online too once the server has not answered in a moment (a connection that hangs).
    const waitForServer = setTimeout(() => void showKept(), online ? SERVER_WAIT_MS : 0)
    loadProfile(controller.signal).then(
      async (answer) => {
        if (controller.signal.aborted) return
        answered = true
        clearTimeout(waitForServer)
        if (db) void saveProfile(db, answer)
        // A language chosen offline and not sent yet is what this device shows until it is.
        const language = db ? await pendingLanguage(db).catch(() => null) : null
        if (controller.signal.aborted) return
        setState({ status: 'ready', profile: language ? { ...answer, language } : answer, source: { kind: 'server' } })
      },
      async (error: unknown) => {
        if (controller.signal.aborted) return
        clearTimeout(waitForServer)
        if (error instanceof ApiError && error.status === 0) return showKept()
        // The server answered with an error: a copy already shown stays.
        setState((s) => (s.status === 'ready' ? s : { status: 'error' }))
      },
    )
    return () => {
      controller.abort()
      clearTimeout(waitForServer)
    }
    // `online` and `lastSyncedAt` are dependencies on purpose: coming back online, or a sync that
    // reached the server (the browser may not have reported being offline at all), reads it again.
  }, [db, online, lastSyncedAt, fromServer])

  const update = useCallback(
    (change: (p: Profile) => Profile) => {
      setState((s) => {
        if (s.status !== 'ready') return s
        const profile = change(s.profile)
        // Only a server answer is kept as the device's copy.
        if (db && s.source.kind === 'server') void saveProfile(db, profile)
        return { ...s, profile }
      })
    },
    [db],
  )
  return { state, update }
}
