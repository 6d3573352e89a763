import { useState } from 'react'
import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import type { AuthMethod } from '../../../shared/contract/account'
import { Badge } from '../../components/ui/Badge'
import { Button } from '../../components/ui/Button'
import { ConfirmDialog } from '../../components/ui/ConfirmDialog'
import { TextField } from '../../components/ui/TextField'
import { Table, ActionsHeader } from '../../components/ui/Table'
import { OfflineReason, offlineDisabled } from '../../components/sync/OfflineReason'
import { useLocale } from '../../i18n/use-locale'
import { ApiError, createActionKey, errorMessage } from '../../lib/api'
import { formatDate } from '../../lib/format'
import { AddAuthMethodModal } from './AddAuthMethodModal'
import { authMethodTypeLabels } from './labels'
import type { Notice } from './ProfilePage'
import { deleteAuthMethod, startVippsLink } from './profile-mutations'

const deleteFailed = msg`Failed to delete authentication method. Please try again.`
const deleted = msg`Authentication method deleted`
const linkFailed = msg`Linking Vipps MobilePay could not start. Please try again.`

/** A password the user can confirm security changes with: a proven e-mail or phone sign-in. */
export const hasPasswordMethod = (methods: readonly AuthMethod[]) =>
  methods.some((m) => (m.type === 'EMAIL_PASSWORD' || m.type === 'PHONE_PASSWORD') && m.verified)

/**
 * The user's sign-in methods with add and delete (docs/PRODUCT.md §2 "User profile", §5). An added e-mail
 * sign-in waits for the link mailed to it ("Waiting for confirmation"); without a Vipps MobilePay
 * sign-in, "Link Vipps MobilePay" sends the browser to Vipps, which returns it to /user?vipps=….
 */
export function AuthMethodsSection({
  methods,
  known = true,
  connected = true,
  onChange,
  setNotice,
}: {
  methods: readonly AuthMethod[]
  /** False when this device has never had the list from the server (offline, Profile never opened online). */
  known?: boolean
  /** False offline: adding, removing and linking need the server (they are disabled, with the reason). */
  connected?: boolean
  onChange: (methods: AuthMethod[]) => void
  setNotice: (notice: Notice | null) => void
}) {
  const { t, i18n } = useLingui()
  const locale = useLocale()
  const [adding, setAdding] = useState(false)
  const [toDelete, setToDelete] = useState<AuthMethod | null>(null)
  const [deleting, setDeleting] = useState(false)
  const [confirmingLink, setConfirmingLink] = useState(false)
  const [linking, setLinking] = useState(false)
  const [action] = useState(createActionKey)
  const [linkAction] = useState(createActionKey)
  // Removing a sign-in method and linking Vipps confirm the owner with the current password.
  const [password, setPassword] = useState('')
  const [passwordError, setPasswordError] = useState<string | undefined>()
  const hasVipps = methods.some((m) => m.type === 'MOBILEPAY')
  const hasPassword = hasPasswordMethod(methods)
  const currentPassword = hasPassword ? password : undefined
  const offline = offlineDisabled(connected, 'auth-methods-offline')

  /** The server's word on the current password goes under its field; true when it was about the password. */
  const passwordProblem = (e: unknown): boolean => {
    const text = e instanceof ApiError ? (e.issues.find((i) => i.path === 'currentPassword')?.message ?? (e.status === 429 ? e.message : undefined)) : undefined
    setPasswordError(text)
    return text !== undefined
  }

  const closeDialogs = () => {
    setToDelete(null)
    setConfirmingLink(false)
    setPassword('')
    setPasswordError(undefined)
  }

  const linkVipps = async () => {
    setLinking(true)
    try {
      window.location.assign(await startVippsLink(currentPassword, linkAction))
    } catch (e) {
      if (!passwordProblem(e)) {
        closeDialogs()
        setNotice({ variant: 'error', text: errorMessage(e, i18n._(linkFailed)) })
      }
      setLinking(false)
    }
  }

  const confirmDelete = async () => {
    if (!toDelete) return
    setDeleting(true)
    try {
      await deleteAuthMethod(toDelete.id, currentPassword, action)
      onChange(methods.filter((m) => m.id !== toDelete.id))
      setNotice({ variant: 'success', text: deleted })
      closeDialogs()
    } catch (e) {
      // The server explains refusals, e.g. that the last sign-in method cannot be removed.
      if (!passwordProblem(e)) {
        setNotice({ variant: 'error', text: errorMessage(e, i18n._(deleteFailed)) })
        closeDialogs()
      }
    } finally {
      setDeleting(false)
    }
  }

  const passwordField =
    hasPassword ?
      <TextField
        label={t`Current password`}
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={passwordError}
      />
    : <p className="field-hint">
        <Trans>You have no password: a Vipps MobilePay sign-in from the last 10 minutes confirms that it is you.</Trans>
      </p>

  return (
    <section className="card" aria-labelledby="auth-methods-title">
      <div className="section-header">
        <h2 id="auth-methods-title">
          <Trans>Authentication Methods</Trans>
        </h2>
        <div className="form-actions">
          {!hasVipps && (
            <Button size="sm" variant="secondary" {...offline} onClick={() => setConfirmingLink(true)}>
              <Trans>Link Vipps MobilePay</Trans>
            </Button>
          )}
          <Button size="sm" {...offline} onClick={() => setAdding(true)}>
            <Trans>Add authentication method</Trans>
          </Button>
        </div>
      </div>
      {!connected && (
        <OfflineReason id="auth-methods-offline">
          <Trans>You are offline. Adding, removing or linking a sign-in method needs a connection to the server.</Trans>
        </OfflineReason>
      )}
      {!known ?
        <p className="empty">
          <Trans>Your sign-in methods show here once you have opened Profile while online.</Trans>
        </p>
      : methods.length === 0 ?
        <p className="empty">
          <Trans>No authentication methods configured</Trans>
        </p>
      : <Table caption={t`Authentication Methods`} captionHidden>
          <thead>
            <tr>
              {/* On a phone the type shows under the identifier instead, so the table fits. */}
              <th scope="col" className="hide-phone">
                <Trans>Type</Trans>
              </th>
              <th scope="col">
                <Trans>Identifier</Trans>
              </th>
              <th scope="col" className="hide-phone">
                <Trans>Created</Trans>
              </th>
              <ActionsHeader />
            </tr>
          </thead>
          <tbody>
            {methods.map((m) => {
              const type = i18n._(authMethodTypeLabels[m.type])
              const identifier = m.identifier
              return (
                <tr key={m.id}>
                  <td className="hide-phone">{type}</td>
                  <td className="cell-wrap">
                    <span className="show-phone field-hint">{type}</span>
                    {m.identifier}
                    {!m.verified && (
                      <>
                        {' '}
                        <Badge variant="warning">
                          <Trans>Waiting for confirmation</Trans>
                        </Badge>
                      </>
                    )}
                  </td>
                  <td className="hide-phone">{formatDate(m.createdAt, locale)}</td>
                  <td className="cell-actions">
                    {/* A MobilePay sign-in is tied to the Vipps account and cannot be removed. */}
                    {m.type !== 'MOBILEPAY' && (
                      <Button variant="danger" size="sm" {...offline} onClick={() => setToDelete(m)}>
                        <Trans>
                          Delete{' '}
                          <span className="sr-only">
                            {type} {identifier}
                          </span>
                        </Trans>
                      </Button>
                    )}
                  </td>
                </tr>
              )
            })}
          </tbody>
        </Table>
      }

      <AddAuthMethodModal
        open={adding}
        hasPassword={hasPasswordMethod(methods)}
        onClose={() => setAdding(false)}
        onAdded={(method) => {
          // Adding an address again replaces its earlier unconfirmed claim.
          onChange([...methods.filter((m) => m.id !== method.id && !(m.type === method.type && m.identifier === method.identifier)), method])
          const address = method.identifier
          setNotice(
            method.verified ?
              { variant: 'success', text: msg`Authentication method added` }
            : {
                variant: 'success',
                text: msg`We sent a confirmation link to ${address}. You can sign in with this address only after you click the link in that e-mail.`,
              },
          )
        }}
      />

      <ConfirmDialog
        open={toDelete !== null}
        title={<Trans>Delete authentication method</Trans>}
        confirmLabel={<Trans>Delete</Trans>}
        busy={deleting}
        onConfirm={() => void confirmDelete()}
        onCancel={closeDialogs}
      >
        {toDelete && <DeleteQuestion type={i18n._(authMethodTypeLabels[toDelete.type])} identifier={toDelete.identifier} />}
        {passwordField}
      </ConfirmDialog>

      <ConfirmDialog
        open={confirmingLink}
        title={<Trans>Link Vipps MobilePay</Trans>}
        confirmLabel={<Trans>Continue to Vipps MobilePay</Trans>}
        tone="primary"
        busy={linking}
        onConfirm={() => void linkVipps()}
        onCancel={closeDialogs}
      >
        <p>
          <Trans>You can then sign in with Vipps MobilePay, and the mobile number Vipps confirms counts as yours. We e-mail your account about it.</Trans>
        </p>
        {passwordField}
      </ConfirmDialog>
    </section>
  )
}

function DeleteQuestion({ type, identifier }: { type: string; identifier: string }) {
  return (
    <p>
      <Trans>
        Do you really want to delete the sign-in method {type} ({identifier})? You can no longer sign in with it.
      </Trans>
    </p>
  )
}
