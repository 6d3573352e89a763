import { useCallback, useEffect, useState } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import type { MyErasureRequests } from '../../../shared/contract/personal-data'
import { Alert } from '../../components/ui/Alert'
import { Badge } from '../../components/ui/Badge'
import { Button } from '../../components/ui/Button'
import { ConfirmDialog } from '../../components/ui/ConfirmDialog'
import { SelectField } from '../../components/ui/TextField'
import { OfflineReason, offlineDisabled } from '../../components/sync/OfflineReason'
import { useLocale } from '../../i18n/use-locale'
import { createActionKey, errorMessage } from '../../lib/api'
import { formatDate } from '../../lib/format'
import { ErasureTerms } from './ErasureTerms'
import { statusBadge, statusLabels } from './labels'
import { fileErasureRequest, myErasureRequests, withdrawErasureRequest } from './personal-data-api'
import './personal-data.css'

/**
 * The profile's "Erase my data" (decision 0080, docs/PRIVACY.md): the member asks one of their
 * associations to erase their personal data. Nothing is erased until another of its staff approves
 * the request; until then the member may withdraw it. Needs a connection.
 */
export function ErasureRequestSection({ online }: { online: boolean }) {
  const { t, i18n } = useLingui()
  const locale = useLocale()
  const [data, setData] = useState<MyErasureRequests | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const [chosen, setChosen] = useState('')
  const [asking, setAsking] = useState(false)
  const [busy, setBusy] = useState<string | null>(null)
  const [sent, setSent] = useState(false)
  const [action] = useState(createActionKey)
  const reason = 'erasure-request-offline'

  const load = useCallback(async () => {
    try {
      setData(await myErasureRequests())
    } catch (e) {
      setProblem(errorMessage(e, t`Your erasure requests could not be loaded. Please try again.`))
    }
  }, [t])
  useEffect(() => {
    if (online) void load()
  }, [online, load])

  const waiting = new Set(data?.requests.filter((r) => r.status === 'PENDING').map((r) => r.companyId))
  const open = data?.companies.filter((c) => !waiting.has(c.id)) ?? []
  const company = open.find((c) => c.id === chosen) ?? (open.length === 1 ? open[0] : undefined)

  const run = async (key: string, step: () => Promise<unknown>, failed: string) => {
    setBusy(key)
    setProblem(null)
    try {
      await step()
      await load()
      return true
    } catch (e) {
      setProblem(errorMessage(e, failed))
      return false
    } finally {
      setBusy(null)
    }
  }
  const send = async () => {
    if (!company) return
    const ok = await run('file', () => fileErasureRequest(company.id, action), t`The request could not be sent. Please try again.`)
    setAsking(false)
    setSent(ok)
  }

  return (
    <section className="card erasure-request" aria-labelledby="erasure-request-title">
      <h2 id="erasure-request-title">
        <Trans>Erase my data</Trans>
      </h2>
      <p>
        <Trans>
          You can ask your association to erase your personal data. Another member of its staff approves the request before anything is erased; until then you
          can withdraw it.
        </Trans>
      </p>
      {!online && (
        <OfflineReason id={reason}>
          <Trans>You are offline. Requesting erasure needs a connection.</Trans>
        </OfflineReason>
      )}
      {sent && (
        <Alert variant="success">
          <Trans>Your request was sent. Staff will look at it; you can see its state here.</Trans>
        </Alert>
      )}
      {problem && <Alert variant="error">{problem}</Alert>}
      {!!data?.requests.length && (
        <ul className="erasure-request-list">
          {data.requests.map((r) => (
            <li key={r.id} className="erasure-request-item">
              <span className="erasure-request-head">
                <strong>{r.companyName}</strong> <Badge variant={statusBadge[r.status]}>{i18n._(statusLabels[r.status])}</Badge>
              </span>
              <span className="muted">
                <Trans>Asked on {formatDate(r.requestedOn, locale)}</Trans>
                {r.decisionNote && (
                  <>
                    {' · '}
                    <Trans>Reason: {r.decisionNote}</Trans>
                  </>
                )}
              </span>
              {r.status === 'PENDING' && (
                <Button
                  variant="secondary"
                  size="sm"
                  busy={busy === r.id}
                  onClick={() => void run(r.id, () => withdrawErasureRequest(r.id, createActionKey()), t`Withdrawing did not succeed. Please try again.`)}
                  {...offlineDisabled(online, reason)}
                >
                  <Trans>
                    Withdraw <span className="sr-only">the request to {r.companyName}</span>
                  </Trans>
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      {open.length > 1 && (
        <SelectField
          label={t`Association`}
          value={chosen}
          onChange={(e) => setChosen(e.target.value)}
          options={[{ value: '', label: t`Choose an association` }, ...open.map((c) => ({ value: c.id, label: c.name }))]}
        />
      )}
      {data && open.length > 0 && (
        <div className="button-row">
          <Button variant="danger" onClick={() => setAsking(true)} {...offlineDisabled(online, reason)} disabled={!online || !company}>
            <Trans>Request erasure of my data…</Trans>
          </Button>
        </div>
      )}
      <ConfirmDialog
        open={asking && !!company}
        title={<Trans>Ask {company?.name ?? ''} to erase your personal data?</Trans>}
        // Short: a long Danish word in the button would widen the dialog past a phone's screen.
        confirmLabel={<Trans>Send the request</Trans>}
        busy={busy === 'file'}
        onConfirm={() => void send()}
        onCancel={() => setAsking(false)}
      >
        <p>
          <Trans>
            The request goes to the association’s staff. Another member of staff approves it before anything is erased, and you can withdraw it until then. Once
            erased, it cannot be undone and you can no longer sign in.
          </Trans>
        </p>
        <ErasureTerms />
        <p className="muted">
          <Trans>
            Staff cannot approve it while you have an active agreement, unpaid invoices or a loan in progress, or hold a role on an association’s staff.
          </Trans>
        </p>
      </ConfirmDialog>
    </section>
  )
}
