import { Trans } from '@lingui/react/macro'
import { Alert } from '../../components/ui/Alert'

/** For users who may not create or edit agreements (docs/PRODUCT.md §6: admin only). */
export function NotAllowed() {
  return (
    <Alert variant="info">
      <Trans>Only the association's staff can create and edit agreements. Ask an administrator if something needs to change.</Trans>
    </Alert>
  )
}

/** After a refused submit: the first field with a message gets the focus (its message is read out with it). */
export function focusFirstInvalid(form: HTMLFormElement | null) {
  requestAnimationFrame(() => form?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus())
}
