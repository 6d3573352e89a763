import { useRef, useState, type FormEvent } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { Link, useNavigate, useParams } from '@tanstack/react-router'
import type { Agreement } from '../../../shared/contract/agreements'
import { canEdit } from '../../../shared/domain/agreement-status'
import { NotKeptNotice } from '../../components/sync/QueuedNotice'
import { Alert } from '../../components/ui/Alert'
import { Button, buttonClass } from '../../components/ui/Button'
import { Spinner } from '../../components/ui/Spinner'
import { TextField } from '../../components/ui/TextField'
import { useLocale } from '../../i18n/use-locale'
import { usePageTitle } from '../../lib/use-page-title'
import { NotKeptError } from '../../sync/outcomes'
import { useSync, useSyncStatus, type SyncHandle } from '../../sync/use-sync'
import { updateAgreement } from './agreement-mutations'
import { DEFAULT_PAYMENT_PERIOD, partDrafts, validateEdit, type EditAgreementForm, type FieldErrors } from './agreement-form'
import { NotAllowed, focusFirstInvalid } from './form-parts'
import { agreementStatusLabels } from './labels'
import { PartsEditor } from './PartsEditor'
import { PaymentPeriodField } from './PaymentPeriodField'
import { useAgreement, type AgreementView } from './use-agreements'
import { useAgreementAdmin } from './use-agreement-admin'
import { RecordMissing } from '../../components/sync/RecordMissing'
import { translateIssueMessage } from '../../lib/form-issues'

/** Next payment date, payment period and parts of an agreement (docs/PRODUCT.md §2 "Agreement edit"); queued, so it works offline. */
export function EditAgreementPage() {
  const { t } = useLingui()
  usePageTitle(t`Edit agreement`)
  const { id } = useParams({ from: '/_auth/agreements/$id_/edit' })
  const { allowed } = useAgreementAdmin()
  const handle = useSync()
  const record = useAgreement(handle, id)

  const notFound = record?.row === null
  const body = () => {
    if (!allowed) return <NotAllowed />
    if (!handle || !record || (!record.row && record.absent === 'loading')) return <Spinner label={t`Loading agreement`} />
    const row = record.row as AgreementView | null
    if (!row) return <RecordMissing absent={record.absent === 'offline' ? 'offline' : 'notFound'} notFound={<Trans>Agreement not found</Trans>} />
    if (!canEdit({ status: row.status ?? 'CREATED', terminationDate: row.terminationDate ?? null })) return <NotEditable row={row} />
    return <EditForm handle={handle} row={row} />
  }

  return (
    <div className="page agreement-form-page">
      <div className="page-header">
        {notFound ?
          <Link to="/agreements" className={buttonClass('link')}>
            <Trans>← Back to agreements</Trans>
          </Link>
        : <Link to="/agreements/$id" params={{ id }} className={buttonClass('link')}>
            <Trans>← Back to the agreement</Trans>
          </Link>
        }
      </div>
      <h1>
        <Trans>Edit agreement</Trans>
      </h1>
      {body()}
    </div>
  )
}

function NotEditable({ row }: { row: AgreementView }) {
  const { i18n } = useLingui()
  const status = row.status ? i18n._(agreementStatusLabels[row.status]) : ''
  return (
    <Alert variant="info">
      {row.terminationDate ?
        <Trans>This agreement is being terminated, so it can no longer be edited.</Trans>
      : <Trans>This agreement can no longer be edited (status: {status}). Only created and accepted agreements can be changed.</Trans>}
    </Alert>
  )
}

function EditForm({ handle, row }: { handle: SyncHandle; row: AgreementView & { id: string; _version: number } }) {
  const { t, i18n } = useLingui()
  const locale = useLocale()
  const navigate = useNavigate()
  const { online } = useSyncStatus(handle)
  // The form starts from the row as it was when opened; a later sync does not overwrite what is typed.
  // Only what differs from that row is sent, on its version (a later change by someone else is merged, not undone).
  const [opened] = useState(row)
  const [form, setForm] = useState<EditAgreementForm>(() => ({
    nextRegularPaymentDate: row.nextRegularPaymentDate ?? '',
    paymentPeriod: row.paymentPeriod ?? DEFAULT_PAYMENT_PERIOD,
    parts: partDrafts((row.parts ?? []) as Agreement['parts'], locale),
  }))
  const [errors, setErrors] = useState<FieldErrors>({})
  // true: an error; a NotKeptError: the device could not store the change (it is NOT kept, the form keeps it).
  const [failure, setFailure] = useState<boolean | NotKeptError>(false)
  const [busy, setBusy] = useState(false)
  const formRef = useRef<HTMLFormElement>(null)
  const message = (key: string) => (errors[key] ? translateIssueMessage(errors[key], i18n) : undefined)
  const member = row.member?.fullName ?? ''
  const number = row.externalId ?? ''

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    if (busy) return
    const result = validateEdit(form)
    if (!result.ok) {
      setErrors(result.errors)
      focusFirstInvalid(formRef.current)
      return
    }
    setErrors({})
    setFailure(false)
    setBusy(true)
    try {
      await updateAgreement(handle, opened, result.body)
      await navigate({ to: '/agreements/$id', params: { id: row.id } })
    } catch (error) {
      setFailure(error instanceof NotKeptError ? error : true)
      setBusy(false)
    }
  }

  return (
    <form ref={formRef} className="form agreement-form" noValidate onSubmit={(e) => void onSubmit(e)} aria-label={t`Edit agreement`}>
      <p className="lead">
        {number ?
          <Trans>
            Agreement {number} with {member}
          </Trans>
        : <Trans>Agreement with {member}</Trans>}
      </p>
      {row._rejected && <Alert variant="error">{row._rejected}</Alert>}
      <section className="card" aria-labelledby="agreement-payment-heading">
        <h2 id="agreement-payment-heading">
          <Trans>Payment</Trans>
        </h2>
        <div className="form agreement-grid">
          <TextField
            label={t`Next payment date`}
            type="date"
            value={form.nextRegularPaymentDate}
            onChange={(e) => {
              const value = e.target.value
              setForm((f) => ({ ...f, nextRegularPaymentDate: value }))
              if (errors.nextRegularPaymentDate) setErrors(({ nextRegularPaymentDate: _, ...rest }) => rest)
            }}
            error={message('nextRegularPaymentDate')}
            required
          />
        </div>
        <PaymentPeriodField
          value={form.paymentPeriod}
          onChange={(paymentPeriod) => {
            setForm((f) => ({ ...f, paymentPeriod }))
            if (errors.paymentPeriod) setErrors(({ paymentPeriod: _, ...rest }) => rest)
          }}
          error={message('paymentPeriod')}
        />
      </section>
      <section className="card">
        <PartsEditor parts={form.parts} onChange={(parts) => setForm((f) => ({ ...f, parts }))} errors={errors} onErrors={setErrors} newPartType="FEE" />
      </section>
      {failure instanceof NotKeptError ?
        <NotKeptNotice error={failure} />
      : failure && (
          <Alert variant="error">
            <Trans>An error occured while processing your request</Trans>
          </Alert>
        )
      }
      {!online && (
        <Alert variant="info">
          <Trans>You are offline. The change will be kept on this device and sent when you are back online.</Trans>
        </Alert>
      )}
      <div className="form-actions">
        <Link to="/agreements/$id" params={{ id: row.id }} className={buttonClass('secondary')}>
          <Trans>Cancel</Trans>
        </Link>
        <Button type="submit" busy={busy}>
          <Trans>Save changes</Trans>
        </Button>
      </div>
    </form>
  )
}
