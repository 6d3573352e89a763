import { useState, type FormEvent } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { MAX_STORAGE_QUOTA_BYTES, type StorageUsage } from '../../../shared/contract/storage'
import { formatBytes } from '../../../shared/domain/storage'
import { Alert } from '../../components/ui/Alert'
import { Button } from '../../components/ui/Button'
import { TextField } from '../../components/ui/TextField'
import { useLocale } from '../../i18n/use-locale'
import { createActionKey, errorMessage } from '../../lib/api'
import { useSync, useSyncStatus } from '../../sync/use-sync'
import { StorageMeter } from '../documents/StorageMeter'
import { setStorageQuota } from '../documents/storage-api'
import { useStorageUsage } from '../documents/use-storage'

const MB = 1024 ** 2
const MAX_MB = MAX_STORAGE_QUOTA_BYTES / MB

/**
 * The quota typed in whole megabytes (1 GB = 1024 MB, as the meter counts): the bytes to store, or
 * null when it is not a whole number from 1 MB to 1 TB.
 */
export function quotaBytesFrom(text: string): number | null {
  const digits = text.trim()
  if (!/^\d{1,7}$/.test(digits)) return null
  const mb = Number(digits)
  return mb >= 1 && mb <= MAX_MB ? mb * MB : null
}

/**
 * The association's storage on its Overview (docs/PRODUCT.md "Storage", docs/decisions/0082): what
 * its files take of its quota, for its staff and the super admin; the super admin sets the
 * association's own quota or gives it the default again. Read and changed online only.
 */
export function StorageSection({ companyId, superAdmin }: { companyId: string; superAdmin: boolean }) {
  const { t } = useLingui()
  const online = useSyncStatus(useSync()).online
  const read = useStorageUsage(companyId, online)
  const [changed, setChanged] = useState<StorageUsage | null>(null)
  const usage = changed ?? read
  return (
    <section className="card storage-section" aria-labelledby="storage-heading">
      <h2 id="storage-heading">
        <Trans>Storage</Trans>
      </h2>
      {!online ?
        <p className="muted">
          <Trans>The storage in use is shown when you are online.</Trans>
        </p>
      : usage ?
        <>
          <StorageMeter usage={usage} />
          {superAdmin && <QuotaForm usage={usage} onChanged={setChanged} />}
        </>
      : <p className="muted">{t`Loading storage`}</p>}
    </section>
  )
}

/** Shown only online (the section hides it offline): the answer is the server's. */
function QuotaForm({ usage, onChanged }: { usage: StorageUsage; onChanged: (usage: StorageUsage) => void }) {
  const { t } = useLingui()
  const locale = useLocale()
  const [text, setText] = useState(() => String(Math.round(usage.quotaBytes / MB)))
  const [error, setError] = useState<string | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const [done, setDone] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  // One key per change: a retry of the same change replays, the next change is a new one.
  const [action, setAction] = useState(createActionKey)

  const send = async (quotaBytes: number | null) => {
    setBusy(true)
    setProblem(null)
    setDone(null)
    try {
      const answer = await setStorageQuota(usage.companyId, quotaBytes, action)
      onChanged(answer)
      setAction(createActionKey())
      setText(String(Math.round(answer.quotaBytes / MB)))
      const quota = formatBytes(answer.quotaBytes, locale)
      setDone(answer.ownQuota ? t`The association’s storage quota is now ${quota}.` : t`The association has the default storage quota again: ${quota}.`)
    } catch (e) {
      setProblem(errorMessage(e, t`The quota was not changed. Please try again.`))
    } finally {
      setBusy(false)
    }
  }
  const submit = (e: FormEvent) => {
    e.preventDefault()
    const quotaBytes = quotaBytesFrom(text)
    if (quotaBytes === null) return setError(t`Enter a whole number of MB from 1 to ${MAX_MB.toLocaleString(locale)}.`)
    void send(quotaBytes)
  }

  return (
    <form className="storage-quota" onSubmit={submit} noValidate>
      {done && <Alert variant="success">{done}</Alert>}
      {problem && <Alert variant="error">{problem}</Alert>}
      <p className="field-hint">
        {usage.ownQuota ?
          <Trans>This association has its own quota.</Trans>
        : <Trans>This association has the default quota.</Trans>}
      </p>
      <TextField
        label={t`Quota (MB)`}
        hint={t`1 GB is 1024 MB.`}
        inputMode="numeric"
        value={text}
        error={error}
        onChange={(e) => {
          setText(e.target.value)
          setError(null)
        }}
      />
      <div className="form-actions">
        <Button type="submit" busy={busy}>
          <Trans>Save quota</Trans>
        </Button>
        {usage.ownQuota && (
          <Button variant="secondary" disabled={busy} onClick={() => void send(null)}>
            <Trans>Use the default</Trans>
          </Button>
        )}
      </div>
    </form>
  )
}
