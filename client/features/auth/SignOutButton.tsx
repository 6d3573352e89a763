import { useState } from 'react'
import { useNavigate } from '@tanstack/react-router'
import { Plural, Trans, useLingui } from '@lingui/react/macro'
import { Button, type ButtonVariant } from '../../components/ui/Button'
import { ConfirmDialog } from '../../components/ui/ConfirmDialog'
import { useOutbox, useSync } from '../../sync/use-sync'
import { signOut } from './auth-mutations'

/**
 * Sign out. Signing out deletes this device's copy of the user's data, queue included (another
 * person may use the device next), so it asks first when changes have not reached the server.
 */
export function SignOutButton({ variant = 'secondary', className }: { variant?: ButtonVariant; className?: string }) {
  const { t } = useLingui()
  const navigate = useNavigate()
  const sync = useSync()
  const unsynced = useOutbox(sync)?.length ?? 0
  const [asking, setAsking] = useState(false)
  const [busy, setBusy] = useState(false)

  const leave = async () => {
    setBusy(true)
    try {
      await signOut()
      await navigate({ to: '/' })
    } finally {
      setBusy(false)
      setAsking(false)
    }
  }

  return (
    <>
      <Button variant={variant} className={className} busy={busy && !asking} onClick={() => (unsynced > 0 ? setAsking(true) : void leave())}>
        <Trans>Sign out</Trans>
      </Button>
      <ConfirmDialog
        open={asking}
        title={t`Sign out?`}
        confirmLabel={<Trans>Sign out and discard</Trans>}
        busy={busy}
        onConfirm={() => void leave()}
        onCancel={() => setAsking(false)}
      >
        <p>
          <Plural
            value={unsynced}
            one="You have # change that is not synced yet. Signing out discards it."
            other="You have # changes that are not synced yet. Signing out discards them."
          />
        </p>
      </ConfirmDialog>
    </>
  )
}
