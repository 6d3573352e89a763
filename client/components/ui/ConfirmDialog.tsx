import type { ReactNode } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { Button } from './Button'
import { Modal } from './Modal'

/**
 * Asks before something that cannot be undone (docs/PRODUCT.md §5: removing a sign-in method or a webhook;
 * signing out with unsynced changes): Cancel, or the named dangerous action.
 */
export function ConfirmDialog({
  open,
  title,
  confirmLabel,
  busy = false,
  tone = 'danger',
  onConfirm,
  onCancel,
  children,
}: {
  open: boolean
  title: ReactNode
  confirmLabel: ReactNode
  busy?: boolean
  /** `danger` for removing something (the default); `primary` for an ordinary next step. */
  tone?: 'danger' | 'primary'
  onConfirm: () => void
  onCancel: () => void
  children: ReactNode
}) {
  const { t } = useLingui()
  return (
    <Modal
      open={open}
      title={title}
      closeLabel={t`Close`}
      onClose={onCancel}
      footer={
        <>
          <Button variant="secondary" onClick={onCancel} disabled={busy}>
            <Trans>Cancel</Trans>
          </Button>
          <Button variant={tone} onClick={onConfirm} busy={busy}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      {children}
    </Modal>
  )
}
