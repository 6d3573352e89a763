import { useRef } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { useParams } from '@tanstack/react-router'
import { companyFieldSchemas, type CompanyField } from '../../../shared/contract/companies'
import { isWritable } from '../../../shared/domain/company-status'
import { isValidDayMonth } from '../../../shared/domain/day-month'
import { isCompanyAdminStaff } from '../../../shared/domain/roles'
import { messages } from '../../../shared/i18n-messages'
import { ChangeProblem } from '../../components/sync/ChangeProblem'
import { Alert } from '../../components/ui/Alert'
import { Spinner } from '../../components/ui/Spinner'
import { usePageTitle } from '../../lib/use-page-title'
import { useSync, type SyncHandle } from '../../sync/use-sync'
import { useSession } from '../auth/session'
import { EditableField, type EditableFieldProps } from '../profile/EditableField'
import { CompanyLifecycle, CompanyStatusBadge } from './CompanyLifecycle'
import { CompanySetup } from './CompanySetup'
import { StorageSection } from './StorageSection'
import { CompanyTabs } from './CompanyTabs'
import { editCompanyField } from './company-mutations'
import { autoFormatDayMonth, normalizeDayMonth } from './day-month-input'
import { useCompany, type CompanyView } from './use-company'
import { translateIssue } from '../../lib/form-issues'
import { RecordMissing } from '../../components/sync/RecordMissing'

/**
 * A company (docs/PRODUCT.md §2 "Company view"), read from the local copy so it shows offline. Edits are
 * queued through the outbox and show at once.
 */
export function CompanyPage() {
  const { t } = useLingui()
  const { id } = useParams({ from: '/_auth/company/$id' })
  const sync = useSync()
  const state = useCompany(sync, id)
  const user = useSession().user
  const superAdmin = user?.userRole === 'SUPERADMIN'
  const canManage = superAdmin || user?.companies.some((c) => c.id === id && isCompanyAdminStaff(c.role)) === true
  usePageTitle(state?.row?.name ?? t`Company`)

  if (!sync || !state || (!state.row && state.absent === 'loading')) return <Spinner label={t`Loading company`} />
  const { row: company, problems } = state
  if (!company) {
    return (
      <div className="page">
        <h1>
          <Trans>Company</Trans>
        </h1>
        <RecordMissing absent={state.absent === 'offline' ? 'offline' : 'notFound'} notFound={<Trans>Company not found</Trans>} />
      </div>
    )
  }

  const status = company.status ?? 'NEW'
  // A suspended or deactivated company is read-only, for the super admin too (docs/decisions/0014-company-life-cycle.md).
  const writable = isWritable(status)
  return (
    <div className="page">
      <div className="page-header">
        <h1>{company.acronym ? `${company.name} (${company.acronym})` : company.name}</h1>
        <CompanyStatusBadge status={status} />
      </div>
      {superAdmin && <CompanyLifecycle companyId={company.id} name={company.name ?? ''} status={status} />}
      {!writable && status !== 'DELETED' && (
        <Alert variant="info">
          {status === 'SUSPENDED' ?
            <Trans>This company is suspended: its data cannot be changed and no payments are collected until it is activated again.</Trans>
          : <Trans>This company is deactivated: its data cannot be changed and no payments are collected.</Trans>}
        </Alert>
      )}
      {status === 'DELETED' && (
        <Alert variant="info">
          <Trans>This company is deleted: only the super admin sees it, and its bookkeeping is kept.</Trans>
        </Alert>
      )}
      {(superAdmin || canManage) && <CompanySetup handle={sync} companyId={company.id} status={status} superAdmin={superAdmin} />}
      {problems.map((m) => (
        <ChangeProblem key={m.mutationId} handle={sync} mutation={m} />
      ))}
      <CompanyTabs
        handle={sync}
        companyId={company.id}
        superAdmin={superAdmin}
        canManage={canManage && writable}
        overview={
          <>
            <Overview handle={sync} company={company} canEdit={(field) => writable && (canManage || HEATING_FIELDS.includes(field))} />
            <StorageSection companyId={company.id} superAdmin={superAdmin} />
          </>
        }
      />
    </div>
  )
}

/** Any staff member may set the heating-water period; the other fields are the admin staff's (docs/decisions/0015-who-does-what-in-a-company.md). */
const HEATING_FIELDS: readonly CompanyField[] = ['heatingWaterPeriodStartDate', 'heatingWaterPeriodEndDate']

/**
 * The Overview tab: each field the user may change edits inline and saves on its own; the others
 * (all of them while the company is suspended or deactivated) are shown as plain values.
 */
function Overview({ handle, company, canEdit }: { handle: SyncHandle; company: CompanyView; canEdit: (field: CompanyField) => boolean }) {
  const { t, i18n } = useLingui()
  // The row as it was when each field went into edit mode: a sync while the user types does not move
  // the value or version the edit is made on (a change made meanwhile elsewhere is merged, not undone).
  const opened = useRef<Partial<Record<CompanyField, CompanyView>>>({})
  const open = (field: CompanyField) => () => {
    opened.current[field] = company
  }

  /** Validates with the shared schema, queues the edit, and returns the message to show under the field. */
  const save = (field: CompanyField) => async (raw: string) => {
    const typed = field === 'heatingWaterPeriodStartDate' || field === 'heatingWaterPeriodEndDate' ? normalizeDayMonth(raw) : raw
    const parsed = companyFieldSchemas[field].safeParse(typed)
    if (!parsed.success) return parsed.error.issues[0] ? translateIssue(parsed.error.issues[0], i18n) : ''
    const value = parsed.data as string | null
    // The schema cannot know the year; docs/PRODUCT.md §5 checks the date against the current one (29.02).
    if ((field === 'heatingWaterPeriodStartDate' || field === 'heatingWaterPeriodEndDate') && value && !isValidDayMonth(value, new Date().getFullYear())) {
      return i18n._(messages.heatingDateInvalid.id)
    }
    // Nothing is queued when the value is the one the field opened with.
    await editCompanyField(handle, opened.current[field] ?? company, field, value)
    return null
  }

  const unionTypeLabel = (type: string | undefined) =>
    type === 'COOP' ? t`Cooperative (COOP)`
    : type === 'CONDO' ? t`Condominium (CONDO)`
    : null
  const dateInput = { kind: 'text', inputMode: 'numeric', placeholder: t`dd.mm`, format: autoFormatDayMonth } as const

  return (
    <section className="card" aria-label={t`Overview`}>
      {company._pending && (
        <p className="muted">
          <Trans>Some changes have not reached the server yet.</Trans>
        </p>
      )}
      <dl className="editable-list">
        <FieldRow
          editable={canEdit('name')}
          onEdit={open('name')}
          onSave={save('name')}
          label={t`Name`}
          display={company.name ?? null}
          value={company.name ?? ''}
          input={{ kind: 'text', autoComplete: 'organization' }}
        />
        <FieldRow
          editable={canEdit('acronym')}
          onEdit={open('acronym')}
          onSave={save('acronym')}
          label={t`Acronym`}
          display={company.acronym ?? null}
          value={company.acronym ?? ''}
          input={{ kind: 'text' }}
        />
        <FieldRow
          editable={canEdit('cvr')}
          onEdit={open('cvr')}
          onSave={save('cvr')}
          label={t`CVR`}
          display={company.cvr ?? null}
          value={company.cvr ?? ''}
          input={{ kind: 'text', inputMode: 'numeric' }}
        />
        <FieldRow
          editable={canEdit('unionType')}
          onEdit={open('unionType')}
          onSave={save('unionType')}
          label={t`Union type`}
          display={unionTypeLabel(company.unionType)}
          value={company.unionType ?? ''}
          input={{
            kind: 'select',
            options: [
              { value: 'COOP', label: t`Cooperative (COOP)` },
              { value: 'CONDO', label: t`Condominium (CONDO)` },
            ],
          }}
        />
        <FieldRow
          editable={canEdit('heatingWaterPeriodStartDate')}
          onEdit={open('heatingWaterPeriodStartDate')}
          onSave={save('heatingWaterPeriodStartDate')}
          label={t`Heating and water period start (dd.mm)`}
          display={company.heatingWaterPeriodStartDate ?? null}
          value={company.heatingWaterPeriodStartDate ?? ''}
          input={dateInput}
        />
        <FieldRow
          editable={canEdit('heatingWaterPeriodEndDate')}
          onEdit={open('heatingWaterPeriodEndDate')}
          onSave={save('heatingWaterPeriodEndDate')}
          label={t`Heating and water period end (dd.mm)`}
          display={company.heatingWaterPeriodEndDate ?? null}
          value={company.heatingWaterPeriodEndDate ?? ''}
          input={dateInput}
        />
      </dl>
    </section>
  )
}

/** A field the user may change edits inline; any other is shown as a plain value. */
function FieldRow({ editable, ...props }: EditableFieldProps & { editable: boolean }) {
  const { t } = useLingui()
  if (editable) return <EditableField {...props} />
  return (
    <div className="editable-row">
      <dt>{props.label}</dt>
      <dd>
        <span className={props.display ? '' : 'muted'}>{props.display || t`Not set`}</span>
      </dd>
    </div>
  )
}
