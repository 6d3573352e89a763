import { useEffect, useState } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { ErasureDate, ErasureReason, type ErasureReason as Reason } from '../../../shared/contract/personal-data'
import { messages } from '../../../shared/i18n-messages'
import { Alert } from '../../components/ui/Alert'
import { Button } from '../../components/ui/Button'
import { ConfirmDialog } from '../../components/ui/ConfirmDialog'
import { SelectField, TextField } from '../../components/ui/TextField'
import { OfflineReason, offlineDisabled } from '../../components/sync/OfflineReason'
import { createActionKey, errorMessage } from '../../lib/api'
import { translateIssue } from '../../lib/form-issues'
import { useSharedQuery } from '../../sync/shared-query'
import type { Row } from '../../sync/local-db'
import { useSyncStatus, type SyncHandle } from '../../sync/use-sync'
import { useSession } from '../auth/session'
import { companyAgreementsQuery, copenhagenToday, erasablePeople, type Person } from './erasable-people'
import { eraseMember } from './personal-data-api'
import './personal-data.css'

/**
 * "Erase personal data…" on the company's Users tab (decision 0069): the chairman,
 * the administrator or the super admin chooses a member (staff, or a member of an agreement),
 * reads what goes and what is kept, and confirms. The server refuses while something is open
 * and says what to do first. Needs a connection.
 */
/** Whether the signed-in user handles erase requests for the company: its chairman or administrator, or the super admin. */
export function useMayErase(companyId: string): boolean {
  const user = useSession().user
  return !!(user?.userRole === 'SUPERADMIN' || user?.companies.some((c) => c.id === companyId && (c.role === 'CHAIRMAN' || c.role === 'ADMINISTRATOR')))
}

/** A row's "Erase personal data…" button asked for this person (`at` tells two clicks on one row apart). */
export interface EraseRequest {
  userId: string
  at: number
}

export function EraseMemberSection({
  handle,
  companyId,
  members,
  request,
}: {
  handle: SyncHandle
  companyId: string
  members: readonly Row[]
  /** Opens the dialog for a person chosen on their row of the members table. */
  request?: EraseRequest | null
}) {
  const { t, i18n } = useLingui()
  const user = useSession().user
  const online = useSyncStatus(handle).online
  const agreements = useSharedQuery(handle.db, companyAgreementsQuery(companyId))
  const [chosen, setChosen] = useState('')
  const [open, setOpen] = useState(false)
  const [reason, setReason] = useState<Reason>('MEMBER_REQUEST')
  const [requestedOn, setRequestedOn] = useState(copenhagenToday)
  const [dateError, setDateError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)
  const [done, setDone] = useState<string | null>(null)
  const [action] = useState(createActionKey)

  const erasedName = i18n._(messages.erasedMember)
  const mayErase = useMayErase(companyId)
  useEffect(() => {
    if (!request) return
    setChosen(request.userId)
    setDone(null)
    setProblem(null)
    setDateError(null)
    setRequestedOn(copenhagenToday())
    setOpen(true)
  }, [request])
  if (!mayErase) return null
  const people = erasablePeople(members, agreements ?? [], user?.id)
  const person: Person | undefined = people.find((p) => p.userId === chosen)
  const reasonId = 'erase-offline'

  const confirm = async () => {
    if (!person) return
    const date = ErasureDate.safeParse(requestedOn)
    if (!date.success || requestedOn > copenhagenToday()) {
      setDateError(date.success ? i18n._(messages.erasureDateInvalid) : translateIssue(date.error.issues[0]!, i18n))
      return
    }
    setBusy(true)
    setProblem(null)
    try {
      await eraseMember(companyId, person.userId, { reason: ErasureReason.parse(reason), requestedOn }, action)
      setOpen(false)
      setChosen('')
      setDone(person.name)
      void handle.engine.syncNow()
    } catch (e) {
      setProblem(errorMessage(e, t`Erasing did not succeed. Please try again.`))
    } finally {
      setBusy(false)
    }
  }

  return (
    <section className="card erase-member" aria-labelledby="erase-member-title">
      <h2 id="erase-member-title">
        <Trans>Erase personal data</Trans>
      </h2>
      <p>
        <Trans>When a member asks to be forgotten, erase their personal data here. Invoices and credit notes are kept, as the Bookkeeping Act requires.</Trans>
      </p>
      {done && (
        <Alert variant="success">
          <Trans>
            The personal data of {done} was erased. The member now shows as “{erasedName}”.
          </Trans>
        </Alert>
      )}
      {!online && (
        <OfflineReason id={reasonId}>
          <Trans>You are offline. Erasing personal data needs a connection.</Trans>
        </OfflineReason>
      )}
      <SelectField
        label={t`Member`}
        value={chosen}
        onChange={(e) => {
          setChosen(e.target.value)
          setDone(null)
        }}
        options={[{ value: '', label: t`Choose a member` }, ...people.map((p) => ({ value: p.userId, label: p.email ? `${p.name} (${p.email})` : p.name }))]}
      />
      <div className="button-row">
        <Button
          variant="danger"
          onClick={() => {
            setProblem(null)
            setDateError(null)
            setRequestedOn(copenhagenToday())
            setOpen(true)
          }}
          {...offlineDisabled(online, reasonId)}
          disabled={!person || !online}
        >
          <Trans>Erase personal data…</Trans>
        </Button>
      </div>
      <ConfirmDialog
        open={open && !!person}
        title={<Trans>Erase the personal data of {person?.name ?? ''}?</Trans>}
        // Short: a long Danish word in the button would widen the dialog past a phone's screen.
        confirmLabel={<Trans>Erase</Trans>}
        busy={busy}
        onConfirm={() => void confirm()}
        onCancel={() => setOpen(false)}
      >
        <p>
          <Trans>This cannot be undone.</Trans>
        </p>
        <p>
          <strong>
            <Trans>What goes:</Trans>
          </strong>{' '}
          <Trans>
            name, e-mail address, mobile number and the Vipps MobilePay link on the account, which can no longer sign in; sessions, notifications, market
            listings and things lent that were never borrowed; their name on messages, forum posts, loans and proposals.
          </Trans>
        </p>
        <p>
          <strong>
            <Trans>What is kept:</Trans>
          </strong>{' '}
          <Trans>
            invoices and credit notes keep the name and address on the voucher for 5 years, as the Bookkeeping Act requires; their e-mail address and phone
            number are removed.
          </Trans>
        </p>
        <div className="erase-dialog-fields">
          {problem && <Alert variant="error">{problem}</Alert>}
          <SelectField
            label={t`Reason`}
            value={reason}
            onChange={(e) => setReason(e.target.value as Reason)}
            options={[
              { value: 'MEMBER_REQUEST', label: t`The member asked to be forgotten` },
              { value: 'NO_LONGER_NEEDED', label: t`The data is no longer needed` },
            ]}
          />
          <TextField
            label={t`Date of the request`}
            type="date"
            value={requestedOn}
            max={copenhagenToday()}
            error={dateError}
            onChange={(e) => {
              setRequestedOn(e.target.value)
              setDateError(null)
            }}
          />
        </div>
      </ConfirmDialog>
    </section>
  )
}
