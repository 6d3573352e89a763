import { Fragment, useCallback, useEffect, useState, type FormEvent } from 'react'
import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { RegisterWebhookRequest, vippsWebhookEvents, Webhook } from '../../../shared/contract/webhooks'
import { Alert } from '../../components/ui/Alert'
import { Button } from '../../components/ui/Button'
import { ConfirmDialog } from '../../components/ui/ConfirmDialog'
import { Table, ActionsHeader } from '../../components/ui/Table'
import { TextField } from '../../components/ui/TextField'
import { createActionKey, errorMessage } from '../../lib/api'
import { requestSync } from '../../sync/use-sync'
import { translateIssue, type Notice } from '../../lib/form-issues'
import type { ProviderView } from './ProviderPage'
import { listWebhooks, registerWebhook, removeWebhook } from './provider-actions'

const addFailed = msg`Failed to add webhook. Please try again.`
const removeFailed = msg`Failed to remove webhook. Please try again.`

/**
 * The provider's webhooks at Vipps MobilePay (docs/PRODUCT.md §2 "Payment provider edit", §5 Webhook). Read
 * from the server when online (the synced copy otherwise); adding and removing call Vipps, so they
 * need the network, and are disabled while the provider is inactive.
 */
export function WebhooksSection({ provider, canManage }: { provider: ProviderView & { companyId: string }; canManage: boolean }) {
  const { t, i18n } = useLingui()
  const [hooks, setHooks] = useState<Webhook[]>(provider.hooks ?? [])
  const [notice, setNotice] = useState<Notice | null>(null)
  const [toRemove, setToRemove] = useState<Webhook | null>(null)
  const [removing, setRemoving] = useState(false)
  const [removeAction] = useState(createActionKey)
  const active = provider.isActive === true
  const editable = canManage && active

  const reload = useCallback(() => {
    if (!canManage) return
    listWebhooks(provider.id).then(setHooks, () => {
      // Offline or refused: keep showing the synced copy.
    })
  }, [canManage, provider.id])
  useEffect(reload, [reload])

  const remove = async () => {
    if (!toRemove) return
    setRemoving(true)
    try {
      await removeWebhook(provider.id, toRemove.id, removeAction)
      setHooks((list) => list.filter((h) => h.id !== toRemove.id))
      setNotice({ variant: 'success', text: t`Webhook removed successfully!` })
      requestSync()
    } catch (e) {
      setNotice({ variant: 'error', text: errorMessage(e, i18n._(removeFailed)) })
    } finally {
      setRemoving(false)
      setToRemove(null)
    }
  }

  return (
    <section className="card" aria-labelledby="webhooks-title">
      <div className="section-header">
        <h2 id="webhooks-title">
          <Trans>Webhooks</Trans>
        </h2>
      </div>
      {notice && (
        <Alert key={notice.text} variant={notice.variant}>
          {notice.text}
        </Alert>
      )}
      {canManage && !active && (
        <Alert variant="info">
          <Trans>The provider is inactive: activate it to add or remove webhooks.</Trans>
        </Alert>
      )}
      {hooks.length === 0 ?
        <p className="empty">
          <Trans>No webhooks configured</Trans>
        </p>
      : <Table caption={t`Webhooks`} captionHidden className="table-webhooks">
          <thead>
            <tr>
              <th scope="col">
                <Trans>URL</Trans>
              </th>
              <th scope="col">
                <Trans>Events</Trans>
              </th>
              {canManage && <ActionsHeader />}
            </tr>
          </thead>
          <tbody>
            {hooks.map((h) => (
              <tr key={h.id}>
                <th scope="row" className="cell-wrap">
                  <UrlText url={h.url} />
                </th>
                <td>
                  {/* Lines break between events, never inside one. */}
                  {h.events.map((e, i) => (
                    <Fragment key={e}>
                      <code className="event-name">{e}</code>
                      {i < h.events.length - 1 ? ', ' : ''}
                    </Fragment>
                  ))}
                </td>
                {canManage && (
                  <td className="cell-actions">
                    <Button variant="ghost" size="sm" disabled={!editable} onClick={() => setToRemove(h)}>
                      <Trans>
                        Remove <span className="sr-only">{h.url}</span>
                      </Trans>
                    </Button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </Table>
      }
      {canManage && (
        <AddWebhookForm
          providerId={provider.id}
          disabled={!editable}
          onAdded={(hook) => {
            setHooks((list) => [...list, hook])
            setNotice({ variant: 'success', text: t`Webhook added successfully!` })
            requestSync()
          }}
          onFailed={(text) => setNotice({ variant: 'error', text })}
        />
      )}
      <ConfirmDialog
        open={toRemove !== null}
        title={<Trans>Remove webhook</Trans>}
        confirmLabel={<Trans>Remove</Trans>}
        busy={removing}
        onConfirm={() => void remove()}
        onCancel={() => setToRemove(null)}
      >
        {toRemove && <RemoveQuestion url={toRemove.url} />}
      </ConfirmDialog>
    </section>
  )
}

/** A URL that may wrap after its slashes rather than anywhere. */
function UrlText({ url }: { url: string }) {
  const parts = url.split(/(?<=\/)/)
  return (
    <>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {part}
          {i < parts.length - 1 && <wbr />}
        </Fragment>
      ))}
    </>
  )
}

function RemoveQuestion({ url }: { url: string }) {
  return (
    <p>
      <Trans>Do you really want to remove the webhook {url}? Vipps MobilePay stops sending events to it.</Trans>
    </p>
  )
}

/** URL and at least one event (docs/PRODUCT.md §5 Webhook); registered at Vipps MobilePay by the server. */
function AddWebhookForm({
  providerId,
  disabled,
  onAdded,
  onFailed,
}: {
  providerId: string
  disabled: boolean
  onAdded: (hook: Webhook) => void
  onFailed: (text: string) => void
}) {
  const { t, i18n } = useLingui()
  const [url, setUrl] = useState('')
  const [events, setEvents] = useState<string[]>([...vippsWebhookEvents])
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [action] = useState(createActionKey)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const parsed = RegisterWebhookRequest.safeParse({ webhookUrl: url, events })
    if (!parsed.success) return setError(parsed.error.issues[0] ? translateIssue(parsed.error.issues[0], i18n) : '')
    setError(null)
    setBusy(true)
    try {
      onAdded(await registerWebhook(providerId, parsed.data, action))
      setUrl('')
    } catch (e) {
      onFailed(errorMessage(e, i18n._(addFailed)))
    } finally {
      setBusy(false)
    }
  }

  const toggle = (name: string, on: boolean) => setEvents((list) => (on ? [...list, name] : list.filter((e) => e !== name)))
  return (
    <form className="form webhook-form" noValidate onSubmit={(e) => void submit(e)} aria-label={t`Add webhook`}>
      <h3>
        <Trans>Add webhook</Trans>
      </h3>
      <TextField
        label={t`Webhook URL`}
        type="url"
        value={url}
        onChange={(e) => setUrl(e.target.value)}
        error={error}
        hint={t`Both a URL and at least one event are required.`}
        disabled={disabled}
        placeholder="https://"
      />
      <fieldset className="event-list" disabled={disabled}>
        <legend className="field-label">
          <Trans>Events</Trans>
        </legend>
        {vippsWebhookEvents.map((name) => (
          <label key={name}>
            <input type="checkbox" checked={events.includes(name)} onChange={(e) => toggle(name, e.target.checked)} />
            <code className="event-name">{name}</code>
          </label>
        ))}
      </fieldset>
      <div className="form-actions">
        <Button type="submit" busy={busy} disabled={disabled}>
          <Trans>Add webhook</Trans>
        </Button>
      </div>
    </form>
  )
}
