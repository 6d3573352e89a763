import { useState, type FormEvent } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { Link } from '@tanstack/react-router'
import type { Household, MoveSettlement, Resident } from '../../../shared/contract/households'
import type { Company } from '../../../shared/contract/companies'
import { householdTypes, livesThereOn, residentKinds, type HouseholdType, type ResidentKind } from '../../../shared/domain/household'
import { effectiveRole, isCompanyAdminStaff } from '../../../shared/domain/roles'
import { ChangeProblem } from '../../components/sync/ChangeProblem'
import { PendingMarker } from '../../components/sync/PendingMarker'
import { RecordMissing } from '../../components/sync/RecordMissing'
import { Alert } from '../../components/ui/Alert'
import { Badge } from '../../components/ui/Badge'
import { Button, buttonClass } from '../../components/ui/Button'
import { Spinner } from '../../components/ui/Spinner'
import { SelectField, TextField } from '../../components/ui/TextField'
import { useLocale } from '../../i18n/use-locale'
import { errorMessage } from '../../lib/api'
import { formatDate, formatMoney, todayIso } from '../../lib/format'
import { newId } from '../../lib/ids'
import { oreToKronerInput, parseKroner } from '../../lib/kroner-input'
import { usePageTitle } from '../../lib/use-page-title'
import { NotKeptError } from '../../sync/outcomes'
import { useRecord } from '../../sync/use-record'
import { useSync, useSyncStatus, type SyncHandle } from '../../sync/use-sync'
import { useSession } from '../auth/session'
import { agreementStatusLabels } from '../agreements/labels'
import { useAgreements } from '../agreements/use-agreements'
import { addResident, registerMove, updateHousehold } from './household-mutations'
import { householdTypeLabels, residentKindLabels } from './labels'
import './households.css'
import { addressLine, fetchSettlement, useHousehold, type HouseholdView } from './use-households'

/**
 * One household (docs/PRODUCT.md "Households", decision 0090): its figures, its residents over time,
 * its agreements, and for the chairman, administrator and accountant: editing, adding a resident and
 * registering a move with a preview of the leaving payer's final settlement before it is confirmed.
 */
export function HouseholdPage({ id }: { id: string }) {
  const { t } = useLingui()
  const handle = useSync()
  const state = useHousehold(handle, id)
  const user = useSession().user
  usePageTitle(state?.row ? addressLine(state.row) : t`Household`)
  const back = (
    <Link to="/households" className={buttonClass('link')}>
      <Trans>← Back to households</Trans>
    </Link>
  )
  if (!state || !handle) return <Spinner label={t`Loading`} />
  if (!state.row)
    return (
      <div className="page">
        <h1>
          <Trans>Household</Trans>
        </h1>
        <RecordMissing absent={state.absent === 'offline' ? 'offline' : 'notFound'} notFound={<Trans>Household not found</Trans>} />
        {back}
      </div>
    )
  const h = state.row
  const role = user ? effectiveRole(user.userRole, user.companies, h.companyId) : 'USER'
  const admin = role === 'SUPERADMIN' || isCompanyAdminStaff(role)
  return (
    <div className="page household-page">
      <div className="page-header">{back}</div>
      <h1>
        {addressLine(h)} {h._pending && <PendingMarker />}
      </h1>
      {state.problems.map((m) => (
        <ChangeProblem key={m.mutationId} handle={handle} mutation={m} />
      ))}
      <Figures handle={handle} household={h} admin={admin} />
      <Residents household={h} />
      {admin && <AddResident handle={handle} household={h} />}
      <Agreements handle={handle} household={h} admin={admin} />
      {admin && <RegisterMove handle={handle} household={h} />}
    </div>
  )
}

function Figures({ handle, household: h, admin }: { handle: SyncHandle; household: HouseholdView; admin: boolean }) {
  const { t, i18n } = useLingui()
  const locale = useLocale()
  const company = useRecord<Company>(handle, 'company', h.companyId ?? '')?.row
  const coop = company?.unionType === 'COOP'
  const [editing, setEditing] = useState(false)
  const [form, setForm] = useState({
    type: h.type ?? 'APARTMENT',
    area: h.area ?? '',
    allocation: h.allocation ?? '',
    share: '',
    externalId: h.externalId ?? '',
  })
  const [error, setError] = useState<string | null>(null)
  const open = () => {
    setForm({
      type: h.type ?? 'APARTMENT',
      area: h.area ?? '',
      allocation: h.allocation ?? '',
      share: h.share == null ? '' : oreToKronerInput(h.share, locale),
      externalId: h.externalId ?? '',
    })
    setError(null)
    setEditing(true)
  }
  const save = async (event: FormEvent) => {
    event.preventDefault()
    const share = form.share.trim() === '' ? null : parseKroner(form.share)
    if (form.share.trim() !== '' && share === null) return setError(t`Enter the share value in kroner with at most two decimals, e.g. 1234,50`)
    try {
      await updateHousehold(handle, h as HouseholdView & { _version: number }, {
        type: form.type,
        area: form.area.trim(),
        allocation: form.allocation.trim(),
        ...(coop && { share }),
        externalId: form.externalId.trim(),
      })
      setEditing(false)
    } catch (e) {
      setError(e instanceof NotKeptError ? t`The change could not be stored on this device. Please try again.` : t`Failed to save the household`)
    }
  }
  return (
    <section className="card" aria-labelledby="household-figures">
      <h2 id="household-figures">
        <Trans>Household</Trans>
      </h2>
      {editing ?
        <form className="form" onSubmit={(e) => void save(e)} aria-label={t`Edit household`}>
          <SelectField
            label={t`Type`}
            value={form.type}
            onChange={(e) => setForm({ ...form, type: e.target.value as HouseholdType })}
            options={householdTypes.map((k) => ({ value: k, label: i18n._(householdTypeLabels[k]) }))}
          />
          <TextField label={t`Area (m²)`} inputMode="decimal" value={form.area} onChange={(e) => setForm({ ...form, area: e.target.value })} />
          <TextField
            label={t`Allocation figure`}
            hint={t`Fordelingstal, with at most 3 decimals`}
            inputMode="decimal"
            value={form.allocation}
            onChange={(e) => setForm({ ...form, allocation: e.target.value })}
          />
          {coop && (
            <TextField label={t`Share value (kr.)`} inputMode="decimal" value={form.share} onChange={(e) => setForm({ ...form, share: e.target.value })} />
          )}
          <TextField label={t`Previous administrator’s number`} value={form.externalId} onChange={(e) => setForm({ ...form, externalId: e.target.value })} />
          {error && <Alert variant="error">{error}</Alert>}
          <div className="form-actions">
            <Button type="submit">
              <Trans>Save</Trans>
            </Button>
            <Button variant="secondary" onClick={() => setEditing(false)}>
              <Trans>Cancel</Trans>
            </Button>
          </div>
        </form>
      : <>
          <dl className="detail-list">
            <dt>
              <Trans>Type</Trans>
            </dt>
            <dd>{h.type ? i18n._(householdTypeLabels[h.type]) : '—'}</dd>
            <dt>
              <Trans>Area</Trans>
            </dt>
            <dd>{h.area ? `${h.area.replace('.', locale === 'da' ? ',' : '.')} m²` : '—'}</dd>
            <dt>
              <Trans>Allocation figure</Trans>
            </dt>
            <dd>{h.allocation ? h.allocation.replace('.', locale === 'da' ? ',' : '.') : '—'}</dd>
            {coop && (
              <>
                <dt>
                  <Trans>Share value</Trans>
                </dt>
                <dd>{h.share == null ? '—' : formatMoney(h.share, locale)}</dd>
              </>
            )}
            <dt>
              <Trans>Previous administrator’s number</Trans>
            </dt>
            <dd>{h.externalId ?? '—'}</dd>
          </dl>
          {admin && (
            <Button variant="secondary" size="sm" onClick={open}>
              <Trans>Edit</Trans>
            </Button>
          )}
        </>
      }
    </section>
  )
}

function Residents({ household: h }: { household: HouseholdView }) {
  const { t, i18n } = useLingui()
  const locale = useLocale()
  const today = todayIso()
  const residents = [...(h.residents ?? [])].sort((a, b) => (a.moveInDate < b.moveInDate ? 1 : -1))
  return (
    <section className="card" aria-labelledby="household-residents">
      <h2 id="household-residents">
        <Trans>Residents</Trans>
      </h2>
      {residents.length === 0 ?
        <p className="empty">
          <Trans>No residents registered</Trans>
        </p>
      : <ul className="plain-list resident-list" aria-label={t`Residents`}>
          {residents.map((r) => (
            <li key={r.id} className="resident">
              <div className="resident-head">
                <strong>{r.fullName}</strong> <Badge>{i18n._(residentKindLabels[r.kind])}</Badge>{' '}
                {r.isPayer && (
                  <Badge variant="info">
                    <Trans>Payer</Trans>
                  </Badge>
                )}{' '}
                {livesThereOn(r, today) ?
                  <Badge variant="success">
                    <Trans>Lives here</Trans>
                  </Badge>
                : r.moveInDate > today ?
                  <Badge variant="warning">
                    <Trans>Moving in</Trans>
                  </Badge>
                : <Badge>
                    <Trans>Moved out</Trans>
                  </Badge>
                }
              </div>
              {r.emailAddress && <div className="breakable muted">{r.emailAddress}</div>}
              <div className="muted">
                {r.moveOutDate ?
                  <Trans>
                    Moved in {formatDate(r.moveInDate, locale)}, moves out {formatDate(r.moveOutDate, locale)}
                  </Trans>
                : <Trans>Moved in {formatDate(r.moveInDate, locale)}</Trans>}
              </div>
            </li>
          ))}
        </ul>
      }
    </section>
  )
}

function AddResident({ handle, household: h }: { handle: SyncHandle; household: HouseholdView }) {
  const { t, i18n } = useLingui()
  const empty = { fullName: '', emailAddress: '', kind: 'OWNER' as ResidentKind, moveInDate: todayIso(), isPayer: false }
  const [form, setForm] = useState(empty)
  const [error, setError] = useState<string | null>(null)
  const [saved, setSaved] = useState(false)
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const { AddResidentRequest } = await import('../../../shared/contract/households')
    const parsed = AddResidentRequest.safeParse({ ...form, id: newId() })
    if (!parsed.success) return setError(i18n._(parsed.error.issues[0]!.message))
    setError(null)
    try {
      await addResident(handle, h.id, { ...form, id: parsed.data.id! })
      setForm(empty)
      setSaved(true)
    } catch {
      setError(t`Failed to add the resident`)
    }
  }
  return (
    <section className="card" aria-labelledby="household-add-resident">
      <h2 id="household-add-resident">
        <Trans>Add resident</Trans>
      </h2>
      <form className="form" noValidate onSubmit={(e) => void submit(e)} aria-label={t`Add resident`}>
        <TextField label={t`Name`} autoComplete="off" value={form.fullName} onChange={(e) => setForm({ ...form, fullName: e.target.value })} />
        <TextField
          label={t`E-mail`}
          type="email"
          autoComplete="off"
          value={form.emailAddress}
          onChange={(e) => setForm({ ...form, emailAddress: e.target.value })}
        />
        <SelectField
          label={t`Owner or tenant`}
          value={form.kind}
          onChange={(e) => setForm({ ...form, kind: e.target.value as ResidentKind })}
          options={residentKinds.map((k) => ({ value: k, label: i18n._(residentKindLabels[k]) }))}
        />
        <TextField label={t`Move-in date`} type="date" value={form.moveInDate} onChange={(e) => setForm({ ...form, moveInDate: e.target.value })} />
        <label className="checkbox-field">
          <input type="checkbox" checked={form.isPayer} onChange={(e) => setForm({ ...form, isPayer: e.target.checked })} />
          <Trans>Pays for the household</Trans>
        </label>
        {error && <Alert variant="error">{error}</Alert>}
        {saved && !error && (
          <Alert variant="success">
            <Trans>The resident is added.</Trans>
          </Alert>
        )}
        <div className="form-actions">
          <Button type="submit">
            <Trans>Add resident</Trans>
          </Button>
        </div>
      </form>
    </section>
  )
}

function Agreements({ handle, household: h, admin }: { handle: SyncHandle; household: HouseholdView; admin: boolean }) {
  const { t, i18n } = useLingui()
  const locale = useLocale()
  const rows = useAgreements(handle, h.companyId ?? null)
  const own = (rows ?? []).filter((a) => a.addresses?.some((x) => x.id === h.id)).sort((a, b) => ((a.createdAt ?? '') < (b.createdAt ?? '') ? 1 : -1))
  return (
    <section className="card" aria-labelledby="household-agreements">
      <h2 id="household-agreements">
        <Trans>Agreements</Trans>
      </h2>
      {own.length === 0 ?
        <p className="empty">
          <Trans>No agreements for this household</Trans>
        </p>
      : <ul className="plain-list" aria-label={t`Agreements`}>
          {own.map((a) => (
            <li key={a.id}>
              <Link to="/agreements/$id" params={{ id: a.id }}>
                <Trans>
                  Agreement {a.externalId ?? ''}: {a.member?.fullName ?? ''}
                </Trans>
              </Link>{' '}
              <span className="muted">
                {a.status ? i18n._(agreementStatusLabels[a.status]) : ''} · {a.price == null ? '' : formatMoney(a.price, locale)}
                {a.terminationDate ? ` · ${formatDate(a.terminationDate, locale)}` : ''}
              </span>
            </li>
          ))}
        </ul>
      }
      {admin && (
        <Link to="/agreements/create" search={{ household: h.id }} className={buttonClass('secondary', 'sm')}>
          <Trans>Create agreement for the payer</Trans>
        </Link>
      )}
    </section>
  )
}

type Arriving = { fullName: string; emailAddress: string; kind: ResidentKind; isPayer: boolean }

function RegisterMove({ handle, household: h }: { handle: SyncHandle; household: HouseholdView }) {
  const { t, i18n } = useLingui()
  const locale = useLocale()
  const { online } = useSyncStatus(handle)
  const today = todayIso()
  const living = (h.residents ?? []).filter((r) => livesThereOn(r, today))
  const [moveDate, setMoveDate] = useState('')
  const [leaving, setLeaving] = useState<string[]>([])
  const [arriving, setArriving] = useState<Arriving>({ fullName: '', emailAddress: '', kind: 'OWNER', isPayer: true })
  const [preview, setPreview] = useState<MoveSettlement | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [done, setDone] = useState(false)
  const [busy, setBusy] = useState(false)
  const [moveId, setMoveId] = useState(() => newId())
  const someoneArrives = arriving.fullName.trim() !== '' || arriving.emailAddress.trim() !== ''
  const body = () => ({ id: moveId, moveDate, leaving, arriving: someoneArrives ? [arriving] : [] })
  const reset = () => {
    setPreview(null)
    setDone(false)
  }

  const showPreview = async (event: FormEvent) => {
    event.preventDefault()
    const { RegisterMoveRequest } = await import('../../../shared/contract/households')
    const parsed = RegisterMoveRequest.safeParse(body())
    if (!parsed.success) return setError(i18n._(parsed.error.issues[0]!.message))
    setError(null)
    setBusy(true)
    try {
      setPreview(await fetchSettlement(h.id, moveDate))
    } catch (e) {
      setError(errorMessage(e, t`Failed to compute the settlement`))
    } finally {
      setBusy(false)
    }
  }
  const confirm = async () => {
    setBusy(true)
    try {
      await registerMove(handle, h.id, body())
      setDone(true)
      setPreview(null)
      setLeaving([])
      setArriving({ fullName: '', emailAddress: '', kind: 'OWNER', isPayer: true })
      setMoveId(newId())
    } catch {
      setError(t`Failed to register the move`)
    } finally {
      setBusy(false)
    }
  }

  return (
    <section className="card" aria-labelledby="household-move">
      <h2 id="household-move">
        <Trans>Register a move</Trans>
      </h2>
      <p className="muted">
        <Trans>
          Who moves out gets a move-out date; the leaving payer’s agreement ends on the move date with a final settlement. The payer moving in gets a new
          agreement from that date with the household’s parts.
        </Trans>
      </p>
      <form className="form" noValidate onSubmit={(e) => void showPreview(e)} aria-label={t`Register a move`}>
        <TextField
          label={t`Move date`}
          type="date"
          value={moveDate}
          onChange={(e) => {
            setMoveDate(e.target.value)
            reset()
          }}
        />
        {living.length > 0 && (
          <fieldset className="fieldset">
            <legend>
              <Trans>Moving out</Trans>
            </legend>
            {living.map((r: Resident) => (
              <label key={r.id} className="checkbox-field">
                <input
                  type="checkbox"
                  checked={leaving.includes(r.id)}
                  onChange={(e) => {
                    setLeaving((l) => (e.target.checked ? [...l, r.id] : l.filter((x) => x !== r.id)))
                    reset()
                  }}
                />
                {r.fullName}
              </label>
            ))}
          </fieldset>
        )}
        <fieldset className="fieldset">
          <legend>
            <Trans>Moving in</Trans>
          </legend>
          <TextField label={t`Name`} autoComplete="off" value={arriving.fullName} onChange={(e) => setArriving({ ...arriving, fullName: e.target.value })} />
          <TextField
            label={t`E-mail`}
            type="email"
            autoComplete="off"
            value={arriving.emailAddress}
            onChange={(e) => setArriving({ ...arriving, emailAddress: e.target.value })}
          />
          <SelectField
            label={t`Owner or tenant`}
            value={arriving.kind}
            onChange={(e) => setArriving({ ...arriving, kind: e.target.value as ResidentKind })}
            options={residentKinds.map((k) => ({ value: k, label: i18n._(residentKindLabels[k]) }))}
          />
          <label className="checkbox-field">
            <input type="checkbox" checked={arriving.isPayer} onChange={(e) => setArriving({ ...arriving, isPayer: e.target.checked })} />
            <Trans>Pays for the household</Trans>
          </label>
        </fieldset>
        {error && <Alert variant="error">{error}</Alert>}
        {done && (
          <Alert variant="success">
            <Trans>The move is registered.</Trans>
          </Alert>
        )}
        {!online && (
          <Alert variant="info">
            <Trans>The final settlement is computed by the server: connect to the internet to see it before you confirm.</Trans>
          </Alert>
        )}
        <div className="form-actions">
          <Button type="submit" variant="secondary" busy={busy} disabled={!online}>
            <Trans>Show final settlement</Trans>
          </Button>
        </div>
      </form>
      {preview && <SettlementPreview settlement={preview} locale={locale} busy={busy} onConfirm={() => void confirm()} />}
    </section>
  )
}

function SettlementPreview({
  settlement: s,
  locale,
  busy,
  onConfirm,
}: {
  settlement: MoveSettlement
  locale: 'en' | 'da'
  busy: boolean
  onConfirm: () => void
}) {
  const money = (ore: number) => formatMoney(ore, locale)
  return (
    <div className="settlement-preview" role="region" aria-labelledby="settlement-heading">
      <h3 id="settlement-heading">
        <Trans>Final settlement</Trans>
      </h3>
      {s.agreementId === null ?
        <p>
          <Trans>No running agreement ends with this move.</Trans>
        </p>
      : <dl className="detail-list">
          <dt>
            <Trans>Agreement</Trans>
          </dt>
          <dd>
            {s.agreementNumber} · {s.payerName}
          </dd>
          {s.regularToCome > 0 && (
            <>
              <dt>
                <Trans>Regular payments still to come</Trans>
              </dt>
              <dd>{money(s.regularToCome)}</dd>
            </>
          )}
          <dt>
            <Trans>Last payment</Trans>
          </dt>
          <dd>
            {s.lastPayment ?
              <Trans>
                {money(s.lastPayment.amount)} for {formatDate(s.lastPayment.from, locale)}–{formatDate(s.lastPayment.through, locale)}, due{' '}
                {formatDate(s.lastPayment.due, locale)}
              </Trans>
            : '—'}
          </dd>
          {s.paidAhead.map((p) => (
            <FragmentRow key={p.chargeId} label={<Trans>Refund of days paid ahead</Trans>}>
              <Trans>
                {money(p.amount)} for {formatDate(p.from, locale)}–{formatDate(p.through, locale)}
              </Trans>
            </FragmentRow>
          ))}
          <dt>
            <Trans>Open balance</Trans>
          </dt>
          <dd>{money(s.openBalance)}</dd>
          <dt>
            <Trans>Total</Trans>
          </dt>
          <dd>
            <strong>
              {s.total >= 0 ?
                <Trans>{money(s.total)} to pay</Trans>
              : <Trans>{money(-s.total)} back</Trans>}
            </strong>
          </dd>
        </dl>
      }
      {s.lastPayment && !s.lastPaymentPossible && (
        <Alert variant="warning">
          <Trans>The agreement is not active at Vipps MobilePay, so no last payment can be charged; the agreement ends without it.</Trans>
        </Alert>
      )}
      <Button onClick={onConfirm} busy={busy}>
        <Trans>Confirm move</Trans>
      </Button>
    </div>
  )
}

function FragmentRow({ label, children }: { label: React.ReactNode; children: React.ReactNode }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </>
  )
}

export type { Household }
