import { useCallback, useEffect, useState } from 'react'
import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import type { PushDevice, PushPreferences } from '../../../shared/contract/push'
import { pushGroups, type PushGroup } from '../../../shared/domain/push'
import { Alert } from '../../components/ui/Alert'
import { Button } from '../../components/ui/Button'
import { OfflineReason, offlineDisabled } from '../../components/sync/OfflineReason'
import { ApiError, errorMessage } from '../../lib/api'
import { formatRecent } from '../../lib/format'
import { useLocale } from '../../i18n/use-locale'
import { currentSubscription, disablePush, enablePush, pushDevices, pushPreferences, pushSupported, removePushDevice, savePushPreferences } from './push-api'

/** Each group's name on the profile (the kinds in each: shared/domain/push.ts). */
const groupLabels: Record<PushGroup, MessageDescriptor> = {
  money: msg`Payments, invoices and agreements`,
  messages: msg`Messages from the association and about your listings`,
  forum: msg`Replies and reports in the forum`,
  lending: msg`Loans of things you borrow or lend`,
  assembly: msg`General assemblies and meter readings`,
}

const EMPTY: PushPreferences = { groups: [], quietFrom: null, quietTo: null }

/**
 * "Notifications on this device" (docs/PRODUCT.md "Profile", docs/decisions/0088): turns push
 * notifications on or off for this browser, chooses which kinds are pushed to every device of the
 * user and the quiet hours in which they wait, and lists the devices signed up. Needs a
 * connection; offline the controls say so.
 */
export function PushSection({ online }: { online: boolean }) {
  const { t, i18n } = useLingui()
  const locale = useLocale()
  const supported = pushSupported()
  const [enabled, setEnabled] = useState<boolean | null>(null)
  const [prefs, setPrefs] = useState<PushPreferences>(EMPTY)
  const [quiet, setQuiet] = useState(false)
  const [devices, setDevices] = useState<PushDevice[]>([])
  const [busy, setBusy] = useState<'toggle' | 'save' | string | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const [issues, setIssues] = useState<Record<string, string>>({})
  const [saved, setSaved] = useState(false)
  const reason = 'push-offline'

  /** Whether this device has a subscription: the browser's own state, known offline too. */
  const readDevice = useCallback(async () => {
    if (!supported) return
    const sub = await currentSubscription().catch(() => null)
    setEnabled(sub !== null && Notification.permission === 'granted')
  }, [supported])

  const load = useCallback(async () => {
    const [p, d] = await Promise.all([pushPreferences(), pushDevices(), readDevice()])
    setPrefs(p)
    setQuiet(p.quietFrom !== null)
    setDevices(d)
  }, [readDevice])

  useEffect(() => {
    void readDevice()
  }, [readDevice])

  useEffect(() => {
    if (!online) return
    load().catch((e: unknown) => setProblem(errorMessage(e, t`Your notification settings could not be loaded. Please try again.`)))
  }, [online, load, t])

  const toggle = async () => {
    setBusy('toggle')
    setProblem(null)
    try {
      if (enabled) await disablePush()
      else if ((await enablePush()) === 'denied')
        setProblem(t`Notifications are blocked for Boligkasse in this browser. Allow them in the browser's site settings, then try again.`)
      await load()
    } catch (e) {
      setProblem(errorMessage(e, t`Notifications could not be turned on or off on this device. Please try again.`))
    } finally {
      setBusy(null)
    }
  }

  const save = async () => {
    setBusy('save')
    setProblem(null)
    setIssues({})
    setSaved(false)
    try {
      const body = quiet ? prefs : { ...prefs, quietFrom: null, quietTo: null }
      const next = await savePushPreferences({ ...body, quietFrom: body.quietFrom || null, quietTo: body.quietTo || null })
      setPrefs(next)
      setSaved(true)
    } catch (e) {
      if (e instanceof ApiError && e.issues.length) setIssues(Object.fromEntries(e.issues.map((i) => [i.path, i.message])))
      else setProblem(errorMessage(e, t`Failed to save changes`))
    } finally {
      setBusy(null)
    }
  }

  const remove = async (id: string) => {
    setBusy(id)
    setProblem(null)
    try {
      await removePushDevice(id)
      await load()
    } catch (e) {
      setProblem(errorMessage(e, t`The device could not be removed. Please try again.`))
    } finally {
      setBusy(null)
    }
  }

  const setGroup = (group: PushGroup, on: boolean) =>
    setPrefs((p) => ({ ...p, groups: on ? pushGroups.filter((g) => g === group || p.groups.includes(g)) : p.groups.filter((g) => g !== group) }))

  return (
    <section className="card" aria-labelledby="push-title">
      <h2 id="push-title">
        <Trans>Notifications on this device</Trans>
      </h2>
      <p>
        <Trans>
          Get a notification on this phone or computer when something happens in Boligkasse. The notification only says what kind of news it is; open Boligkasse
          to read it.
        </Trans>
      </p>
      {!online && (
        <OfflineReason id={reason}>
          <Trans>You are offline. Changing notifications needs a connection.</Trans>
        </OfflineReason>
      )}
      {problem && <Alert variant="error">{problem}</Alert>}
      {!supported ?
        <p>
          <Trans>This browser cannot show notifications from Boligkasse. On an iPhone, add Boligkasse to the home screen first.</Trans>
        </p>
      : <div className="button-row">
          <p aria-live="polite">
            {enabled === null ?
              null
            : enabled ?
              <Trans>Notifications are on for this device.</Trans>
            : <Trans>Notifications are off for this device.</Trans>}
          </p>
          <Button variant={enabled ? 'secondary' : 'primary'} busy={busy === 'toggle'} onClick={() => void toggle()} {...offlineDisabled(online, reason)}>
            {enabled ? t`Turn off on this device` : t`Turn on for this device`}
          </Button>
        </div>
      }

      <form
        className="form"
        onSubmit={(e) => {
          e.preventDefault()
          void save()
        }}
      >
        <fieldset>
          <legend>
            <Trans>What to notify about (on all your devices)</Trans>
          </legend>
          {pushGroups.map((group) => (
            <label key={group} className="checkbox-field">
              <input type="checkbox" name={`push-${group}`} checked={prefs.groups.includes(group)} onChange={(e) => setGroup(group, e.target.checked)} />
              {i18n._(groupLabels[group])}
            </label>
          ))}
          {issues.groups && <p className="field-error">{issues.groups}</p>}
        </fieldset>
        <fieldset>
          <legend>
            <Trans>Quiet hours</Trans>
          </legend>
          <label className="checkbox-field">
            <input type="checkbox" checked={quiet} onChange={(e) => setQuiet(e.target.checked)} aria-describedby="push-quiet-hint" />
            <Trans>Hold notifications during quiet hours</Trans>
          </label>
          <p id="push-quiet-hint" className="field-hint">
            <Trans>Danish time. Notifications that come in quiet hours arrive when they end.</Trans>
          </p>
          {quiet && (
            <div className="push-quiet-times">
              <QuietTime
                id="push-quiet-from"
                label={t`From`}
                value={prefs.quietFrom ?? ''}
                error={issues.quietFrom}
                onChange={(v) => setPrefs((p) => ({ ...p, quietFrom: v || null }))}
              />
              <QuietTime
                id="push-quiet-to"
                label={t`To`}
                value={prefs.quietTo ?? ''}
                error={issues.quietTo}
                onChange={(v) => setPrefs((p) => ({ ...p, quietTo: v || null }))}
              />
            </div>
          )}
        </fieldset>
        {saved && (
          <p role="status" className="field-hint">
            <Trans>Notification settings saved.</Trans>
          </p>
        )}
        <div className="button-row">
          <Button type="submit" variant="secondary" busy={busy === 'save'} {...offlineDisabled(online, reason)}>
            <Trans>Save notification settings</Trans>
          </Button>
        </div>
      </form>

      {devices.length > 0 && (
        <>
          <h3>
            <Trans>Devices that get notifications</Trans>
          </h3>
          <ul className="push-devices">
            {devices.map(({ id, label, lastSuccessAt }) => {
              const when = lastSuccessAt ? formatRecent(lastSuccessAt, locale) : null
              return (
                <li key={id}>
                  <span>
                    {label}
                    {' · '}
                    {when ?
                      <Trans>last notified {when}</Trans>
                    : <Trans>not notified yet</Trans>}
                  </span>{' '}
                  <Button
                    variant="secondary"
                    size="sm"
                    busy={busy === id}
                    onClick={() => void remove(id)}
                    aria-label={t`Remove ${label}`}
                    {...offlineDisabled(online, reason)}
                  >
                    <Trans>Remove</Trans>
                  </Button>
                </li>
              )
            })}
          </ul>
        </>
      )}
    </section>
  )
}

function QuietTime({ id, label, value, error, onChange }: { id: string; label: string; value: string; error?: string; onChange: (v: string) => void }) {
  return (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      <input
        id={id}
        type="time"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </div>
  )
}
