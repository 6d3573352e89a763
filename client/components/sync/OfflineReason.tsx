import type { ReactNode } from 'react'

/**
 * Why actions that need the server are disabled while offline: shown above them, and pointed to
 * by each disabled control (`offlineDisabled`), so a screen reader reads the reason with it. One
 * pattern for every such action (an agreement's accept and reject, the profile's changes).
 */
export function OfflineReason({ id, children }: { id: string; children: ReactNode }) {
  return (
    <p className="field-hint offline-reason" id={id}>
      {children}
    </p>
  )
}

/** Props for a control that needs the server: disabled offline, described by its `OfflineReason`. */
export const offlineDisabled = (online: boolean, reasonId: string) => ({
  disabled: !online,
  'aria-describedby': online ? undefined : reasonId,
})
