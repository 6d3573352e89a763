import { useState } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { Alert } from '../../components/ui/Alert'
import { Button } from '../../components/ui/Button'
import { OfflineReason, offlineDisabled } from '../../components/sync/OfflineReason'
import { errorMessage } from '../../lib/api'
import { downloadPersonalData, type DownloadKind } from './personal-data-api'

/**
 * The profile's "Your data" (docs/PRIVACY.md): everything Boligkasse holds about the
 * member, as JSON for other programs and as a printable page. Both come from the server, so they
 * need a connection; offline the buttons say so.
 */
export function PersonalDataSection({ online }: { online: boolean }) {
  const { t } = useLingui()
  const [busy, setBusy] = useState<DownloadKind | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const reason = 'personal-data-offline'

  const download = async (kind: DownloadKind) => {
    setBusy(kind)
    setProblem(null)
    try {
      await downloadPersonalData(kind)
    } catch (e) {
      setProblem(errorMessage(e, t`The download did not succeed. Please try again.`))
    } finally {
      setBusy(null)
    }
  }

  return (
    <section className="card" aria-labelledby="personal-data-title">
      <h2 id="personal-data-title">
        <Trans>Your data</Trans>
      </h2>
      <p>
        <Trans>
          Download everything Boligkasse holds about you: your account, agreements, invoices, payments, messages, forum posts, listings, loans and more.
          Passwords and other secrets are never included.
        </Trans>
      </p>
      {!online && (
        <OfflineReason id={reason}>
          <Trans>You are offline. Downloading your data needs a connection.</Trans>
        </OfflineReason>
      )}
      {problem && <Alert variant="error">{problem}</Alert>}
      <div className="button-row">
        <Button variant="secondary" busy={busy === 'html'} onClick={() => void download('html')} {...offlineDisabled(online, reason)}>
          <Trans>Download as a readable page</Trans>
        </Button>
        <Button variant="secondary" busy={busy === 'json'} onClick={() => void download('json')} {...offlineDisabled(online, reason)}>
          <Trans>Download as JSON</Trans>
        </Button>
      </div>
    </section>
  )
}
