import { useEffect, useRef, useState, type FormEvent } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { Link, useNavigate } from '@tanstack/react-router'
import type { Address } from '../../../shared/contract/companies'
import type { PaymentProvider } from '../../../shared/contract/payment-providers'
import { initialsOf } from '../../../shared/domain/agreement-parts'
import { NotKeptNotice } from '../../components/sync/QueuedNotice'
import { Alert } from '../../components/ui/Alert'
import { Button, buttonClass } from '../../components/ui/Button'
import { Spinner } from '../../components/ui/Spinner'
import { SelectField, TextField } from '../../components/ui/TextField'
import { newId } from '../../lib/ids'
import { usePageTitle } from '../../lib/use-page-title'
import { NotKeptError } from '../../sync/outcomes'
import { useSync, useSyncStatus } from '../../sync/use-sync'
import { useCompanyRows } from '../companies/use-company-rows'
import { AddressPicker } from './AddressPicker'
import { createAgreement } from './agreement-mutations'
import { DEFAULT_PAYMENT_PERIOD, emptyPart, type AgreementAddress, validateCreate, type CreateAgreementForm, type FieldErrors } from './agreement-form'
import { NotAllowed, focusFirstInvalid } from './form-parts'
import { PartsEditor } from './PartsEditor'
import { PaymentPeriodField } from './PaymentPeriodField'
import { pickableMembers } from './agreement-state'
import { useAgreementAdmin } from './use-agreement-admin'
import { useAgreements } from './use-agreements'
import { translateIssueMessage } from '../../lib/form-issues'
import { todayIso, type Locale } from '../../lib/format'
import { useHouseholds, type HouseholdView } from '../households/use-households'
import { chooseHousehold, householdProposal, withPayer } from './household-prefill'
import { HouseholdPicker } from './HouseholdPicker'

/** An agreement for a member of the current company (docs/PRODUCT.md §2 "Agreement create"); queued, so it works offline. */
export function CreateAgreementPage({ household }: { household?: string } = {}) {
  const { t } = useLingui()
  usePageTitle(t`Create agreement`)
  const { companyId, allowed } = useAgreementAdmin()
  return (
    <div className="page agreement-form-page">
      <div className="page-header">
        <Link to="/agreements" className={buttonClass('link')}>
          <Trans>← Back to agreements</Trans>
        </Link>
      </div>
      <h1>
        <Trans>Create agreement</Trans>
      </h1>
      {!allowed ?
        <NotAllowed />
      : !companyId ?
        <Alert variant="info">
          <Trans>Choose a company in your profile before creating an agreement.</Trans>
        </Alert>
      : <CreateForm companyId={companyId} household={household} />}
    </div>
  )
}

const toAgreementAddress = (a: Partial<Address> & { id: string }): AgreementAddress => ({
  id: a.id,
  street: a.street ?? '',
  number: a.number ?? '',
  floor: a.floor ?? null,
  side: a.side ?? null,
  zip: a.zip ?? '',
  city: a.city ?? '',
  country: a.country ?? '',
})

function CreateForm({ companyId, household }: { companyId: string; household?: string }) {
  const { t, i18n } = useLingui()
  const navigate = useNavigate()
  const handle = useSync()
  const { online } = useSyncStatus(handle)
  const addressRows = useCompanyRows(handle, 'address', companyId) as (Partial<Address> & { id: string })[] | undefined
  const providerRows = useCompanyRows(handle, 'paymentProvider', companyId) as (Partial<PaymentProvider> & { id: string })[] | undefined
  // The member picker: the association's own people only (staff and members of its agreements).
  const staffRows = useCompanyRows(handle, 'member', companyId) as { name?: string; email?: string }[] | undefined
  const agreementRows = useAgreements(handle, companyId)
  const [form, setForm] = useState<CreateAgreementForm>(() => ({
    memberName: '',
    emailAddress: '',
    addressIds: [],
    paymentProviderId: '',
    startPaymentDate: '',
    paymentPeriod: DEFAULT_PAYMENT_PERIOD,
    parts: [emptyPart(newId(), 'OTHER')],
  }))
  // The household picker (docs/decisions/0090): its address, its payer, and the parts of its last agreement;
  // `?household=` (from a household's page) chooses one at the start.
  const households = useHouseholds(handle, companyId)
  const [householdId, setHouseholdId] = useState<string | undefined>(household)
  const [proposed, setProposed] = useState(false)
  const previous = useRef<HouseholdView | undefined>(undefined)
  const chosen = householdId ? households?.find((h) => h.id === householdId) : undefined
  const today = todayIso()
  const locale = i18n.locale as Locale
  const choose = (h: HouseholdView) => {
    const next = chooseHousehold(form, chosen ?? previous.current, h, agreementRows ?? [], today, locale)
    previous.current = h
    setForm(next.form)
    setProposed(next.proposed)
    setHouseholdId(h.id)
    setErrors(({ linkedAddress: _a, memberName: _n, emailAddress: _e, ...rest }) => rest)
  }
  const prefilled = useRef(false)
  useEffect(() => {
    if (!household || prefilled.current || !chosen || !agreementRows) return
    prefilled.current = true
    const next = chooseHousehold(form, undefined, chosen, agreementRows, today, locale)
    previous.current = chosen
    setForm(next.form)
    setProposed(next.proposed)
  }, [household, chosen, agreementRows, form, today, locale])
  const [errors, setErrors] = useState<FieldErrors>({})
  // true: an error; a NotKeptError: the device could not store the change (it is NOT kept, the form keeps it).
  const [failure, setFailure] = useState<boolean | NotKeptError>(false)
  const [busy, setBusy] = useState(false)
  const formRef = useRef<HTMLFormElement>(null)

  if (!handle || !addressRows || !providerRows) return <Spinner label={t`Loading`} />

  const addresses = addressRows.map(toAgreementAddress)
  const people = pickableMembers(staffRows ?? [], agreementRows ?? [])
  const picked = people.find((p) => p.email.toLowerCase() === form.emailAddress.trim().toLowerCase() && p.name === form.memberName)
  const pick = (email: string) => {
    const person = people.find((p) => p.email === email)
    setForm((f) => ({ ...f, memberName: person?.name ?? '', emailAddress: person?.email ?? '' }))
    setErrors(({ memberName: _n, emailAddress: _e, ...rest }) => rest)
  }
  const providers = providerRows.filter((p) => p.isActive)
  const message = (key: string) => (errors[key] ? translateIssueMessage(errors[key], i18n) : undefined)
  const set = <K extends keyof CreateAgreementForm>(field: K, value: CreateAgreementForm[K], errorKey: string = field) => {
    setForm((f) => ({ ...f, [field]: value }))
    if (errors[errorKey]) setErrors(({ [errorKey]: _, ...rest }) => rest)
  }

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    if (busy) return
    const result = validateCreate(form, { id: newId(), companyId })
    if (!result.ok) {
      setErrors(result.errors)
      focusFirstInvalid(formRef.current)
      return
    }
    setErrors({})
    setFailure(false)
    setBusy(true)
    try {
      const body = result.body
      await createAgreement(handle, body, {
        member: { userId: '', title: initialsOf(body.memberName), fullName: body.memberName, emailAddress: body.emailAddress, isVerified: false },
        addresses: body.linkedAddress.map((id) => addresses.find((a) => a.id === id)).filter((a): a is AgreementAddress => a !== undefined),
      })
      await navigate({ to: '/agreements' })
    } catch (error) {
      setFailure(error instanceof NotKeptError ? error : true)
      setBusy(false)
    }
  }

  const proposal = chosen ? householdProposal(chosen, agreementRows ?? [], today, locale) : null

  return (
    <form ref={formRef} className="form agreement-form" noValidate onSubmit={(e) => void onSubmit(e)} aria-label={t`Create agreement`}>
      {households && households.length > 0 && (
        <section className="card" aria-labelledby="agreement-household-heading">
          <h2 id="agreement-household-heading">
            <Trans>Household</Trans>
          </h2>
          <HouseholdPicker
            households={households}
            chosen={chosen}
            today={today}
            form={form}
            proposal={{ available: proposal !== null, proposed }}
            onChoose={choose}
            onClear={() => {
              setHouseholdId(undefined)
              setProposed(false)
            }}
            onPayer={(residentId) => {
              const resident = chosen?.residents?.find((r) => r.id === residentId)
              if (resident) setForm((f) => withPayer(f, resident, today))
              setErrors(({ memberName: _n, emailAddress: _e, ...rest }) => rest)
            }}
            onUseProposal={() => {
              if (proposal) setForm((f) => ({ ...f, ...proposal }))
              setProposed(true)
            }}
          />
        </section>
      )}
      <section className="card" aria-labelledby="agreement-member-heading">
        <h2 id="agreement-member-heading">
          <Trans>Member</Trans>
        </h2>
        {people.length > 0 && (
          <SelectField
            label={t`Existing member`}
            value={picked?.email ?? ''}
            onChange={(e) => pick(e.target.value)}
            hint={t`Someone of the association: its staff and members of its agreements. For someone new, type the name and e-mail below.`}
            options={[{ value: '', label: t`New member` }, ...people.map((p) => ({ value: p.email, label: `${p.name} (${p.email})` }))]}
          />
        )}
        <div className="form agreement-grid">
          <TextField
            label={t`Full name`}
            value={form.memberName}
            onChange={(e) => set('memberName', e.target.value)}
            error={message('memberName')}
            autoComplete="off"
            required
          />
          <TextField
            label={t`Email`}
            type="email"
            value={form.emailAddress}
            onChange={(e) => set('emailAddress', e.target.value)}
            error={message('emailAddress')}
            autoComplete="off"
            required
          />
        </div>
        <AddressPicker
          addresses={addresses}
          selected={form.addressIds}
          onChange={(ids) => set('addressIds', ids, 'linkedAddress')}
          error={message('linkedAddress')}
        />
      </section>
      <section className="card" aria-labelledby="agreement-payment-heading">
        <h2 id="agreement-payment-heading">
          <Trans>Payment</Trans>
        </h2>
        <div className="form agreement-grid">
          <SelectField
            label={t`Payment provider`}
            value={form.paymentProviderId}
            onChange={(e) => set('paymentProviderId', e.target.value)}
            error={message('paymentProviderId')}
            hint={providers.length === 0 ? t`No active payment provider. Ask the system administrator to add one.` : undefined}
            required
            options={[
              { value: '', label: t`Please choose the payment provider` },
              ...providers.map((p) => {
                const name = p.config?.providerName || p.type || ''
                return { value: p.id, label: p.isTest ? t`${name} (test)` : name }
              }),
            ]}
          />
          <TextField
            label={t`Start payment date`}
            type="date"
            value={form.startPaymentDate}
            onChange={(e) => set('startPaymentDate', e.target.value)}
            error={message('startPaymentDate')}
            required
          />
        </div>
        <PaymentPeriodField value={form.paymentPeriod} onChange={(p) => set('paymentPeriod', p)} error={message('paymentPeriod')} />
      </section>
      <section className="card">
        <PartsEditor parts={form.parts} onChange={(parts) => setForm((f) => ({ ...f, parts }))} errors={errors} onErrors={setErrors} newPartType="OTHER" />
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
          <Trans>You are offline. The agreement will be kept on this device and sent when you are back online.</Trans>
        </Alert>
      )}
      <div className="form-actions">
        <Link to="/agreements" className={buttonClass('secondary')}>
          <Trans>Cancel</Trans>
        </Link>
        <Button type="submit" busy={busy}>
          <Trans>Create agreement</Trans>
        </Button>
      </div>
    </form>
  )
}
