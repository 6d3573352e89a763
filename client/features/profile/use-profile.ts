import { useCallback, useEffect, useState } from 'react'
import type { Profile } from '../../../shared/contract/account'
import { loadProfile } from './profile-mutations'

export type ProfileState = { status: 'loading' } | { status: 'error' } | { status: 'ready'; profile: Profile }

/** The signed-in user's profile from the server, with a setter for the answers of later writes. */
export function useProfile() {
  const [state, setState] = useState<ProfileState>({ status: 'loading' })
  useEffect(() => {
    const controller = new AbortController()
    loadProfile(controller.signal).then(
      (profile) => setState({ status: 'ready', profile }),
      (error: unknown) => {
        if (!controller.signal.aborted) setState({ status: 'error' })
        return error
      },
    )
    return () => controller.abort()
  }, [])
  const update = useCallback((change: (p: Profile) => Profile) => {
    setState((s) => (s.status === 'ready' ? { status: 'ready', profile: change(s.profile) } : s))
  }, [])
  return { state, update }
}
