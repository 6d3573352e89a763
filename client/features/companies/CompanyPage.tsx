import { Trans, useLingui } from '@lingui/react/macro'
import { useParams } from '@tanstack/react-router'
import { companyFieldSchemas, type CompanyField } from '../../../shared/contract/companies'
import { isValidDayMonth } from '../../../shared/domain/day-month'
import { isCompanyAdminStaff } from '../../../shared/domain/roles'
import { messages } from '../../../shared/i18n-messages'
import { ChangeProblem } from '../../components/sync/ChangeProblem'
import { Alert } from '../../components/ui/Alert'
import { Spinner } from '../../components/ui/Spinner'
import { usePageTitle } from '../../lib/use-page-title'
import { useSync, useSyncStatus, type SyncHandle } from '../../sync/use-sync'
import { useSession } from '../auth/session'
import { EditableField } from '../profile/EditableField'
import { CompanyTabs } from './CompanyTabs'
import { editCompanyField } from './company-mutations'
import { autoFormatDayMonth, normalizeDayMonth } from './day-month-input'
import { useCompany, type CompanyView } from './use-company'
import { translateIssue } from '../../lib/form-issues'

/**
 * A company (spec §2 "Company view"), read from the local copy so it shows offline. Edits are
 * queued through the outbox and show at once.
 */
export function CompanyPage() {
  const { t } = useLingui()
  const { id } = useParams({ from: '/_auth/company/$id' })
  const sync = useSync()
  const state = useCompany(sync, id)
  const { syncing } = useSyncStatus(sync)
  const user = useSession().user
  const superAdmin = user?.userRole === 'SUPERADMIN'
  const canManage = superAdmin || user?.companies.some((c) => c.id === id && isCompanyAdminStaff(c.role)) === true
  usePageTitle(state?.row?.name ?? t`Company`)

  if (!sync || !state || (!state.row && syncing)) return <Spinner label={t`Loading company`} />
  const { row: company, problems } = state
  if (!company) {
    return (
      <div className="page">
        <h1>
          <Trans>Company</Trans>
        </h1>
        <Alert variant="error">
          <Trans>Company not found</Trans>
        </Alert>
      </div>
    )
  }

  return (
    <div className="page">
      <div className="page-header">
        <h1>{company.acronym ? `${company.name} (${company.acronym})` : company.name}</h1>
      </div>
      {problems.map((m) => (
        <ChangeProblem key={m.mutationId} handle={sync} mutation={m} />
      ))}
      <CompanyTabs handle={sync} companyId={company.id} superAdmin={superAdmin} canManage={canManage} overview={<Overview handle={sync} company={company} />} />
    </div>
  )
}

/** The Overview tab: each field edits inline and saves on its own. */
function Overview({ handle, company }: { handle: SyncHandle; company: CompanyView }) {
  const { t, i18n } = useLingui()

  /** Validates with the shared schema, queues the edit, and returns the message to show under the field. */
  const save = (field: CompanyField) => async (raw: string) => {
    const typed = field === 'heatingWaterPeriodStartDate' || field === 'heatingWaterPeriodEndDate' ? normalizeDayMonth(raw) : raw
    const parsed = companyFieldSchemas[field].safeParse(typed)
    if (!parsed.success) return parsed.error.issues[0] ? translateIssue(parsed.error.issues[0], i18n) : ''
    const value = parsed.data as string | null
    // The schema cannot know the year; spec §5 checks the date against the current one (29.02).
    if ((field === 'heatingWaterPeriodStartDate' || field === 'heatingWaterPeriodEndDate') && value && !isValidDayMonth(value, new Date().getFullYear())) {
      return i18n._(messages.heatingDateInvalid.id)
    }
    if (value === (company[field] ?? null)) return null
    await editCompanyField(handle, company.id, field, value, company._version)
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
        <EditableField label={t`Name`} display={company.name ?? null} value={company.name ?? ''} input={{ kind: 'text', autoComplete: 'organization' }} onSave={save('name')} />
        <EditableField label={t`Acronym`} display={company.acronym ?? null} value={company.acronym ?? ''} input={{ kind: 'text' }} onSave={save('acronym')} />
        <EditableField label={t`CVR`} display={company.cvr ?? null} value={company.cvr ?? ''} input={{ kind: 'text', inputMode: 'numeric' }} onSave={save('cvr')} />
        <EditableField
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
          onSave={save('unionType')}
        />
        <EditableField
          label={t`Heating water period start (dd.mm)`}
          display={company.heatingWaterPeriodStartDate ?? null}
          value={company.heatingWaterPeriodStartDate ?? ''}
          input={dateInput}
          onSave={save('heatingWaterPeriodStartDate')}
        />
        <EditableField
          label={t`Heating water period end (dd.mm)`}
          display={company.heatingWaterPeriodEndDate ?? null}
          value={company.heatingWaterPeriodEndDate ?? ''}
          input={dateInput}
          onSave={save('heatingWaterPeriodEndDate')}
        />
      </dl>
    </section>
  )
}
