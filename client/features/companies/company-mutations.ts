/**
 * Edits of a company's Overview fields (docs/PRODUCT.md §2 "Company view"): each is queued in the outbox, shows
 * at once in the optimistic view (also offline) and is sent as PATCH /company/{id}/field/{fieldName}.
 */
import { msg } from '@lingui/core/macro'
import { Company, CreatedResponse, type CompanyField, type CreateCompanyRequest } from '../../../shared/contract/companies'
import type { LifecycleAction } from '../../../shared/domain/company-status'
import { api, type ActionKey } from '../../lib/api'
import type { Mutation } from '../../sync/local-db'
import { formats } from '../../sync/field-format'
import { registerMutationKind, type EditField } from '../../sync/mutation-kinds'
import { reduce } from '../../sync/optimistic'
import { requestSync, type SyncHandle } from '../../sync/use-sync'

export const COMPANY_FIELD = 'company.field'

/** The field a queued edit changes: the last segment of its path. */
export const fieldOfMutation = (m: Pick<Mutation, 'path'>): string => m.path.slice(m.path.lastIndexOf('/') + 1)

/** The Overview fields as the conflict screen names and shows them. */
export const companyEditFields: Record<CompanyField, EditField> = {
  name: { name: 'name', label: msg`Name`, format: formats.text },
  acronym: { name: 'acronym', label: msg`Acronym`, format: formats.text },
  cvr: { name: 'cvr', label: msg`CVR`, format: formats.text },
  unionType: { name: 'unionType', label: msg`Union type`, format: formats.oneOf({ COOP: msg`Cooperative (COOP)`, CONDO: msg`Condominium (CONDO)` }) },
  heatingWaterPeriodStartDate: { name: 'heatingWaterPeriodStartDate', label: msg`Heating and water period start (dd.mm)`, format: formats.text },
  heatingWaterPeriodEndDate: { name: 'heatingWaterPeriodEndDate', label: msg`Heating and water period end (dd.mm)`, format: formats.text },
}

registerMutationKind(COMPANY_FIELD, {
  reducer: reduce.patch((_row, m) => ({ [fieldOfMutation(m)]: (m.body as { value: unknown } | undefined)?.value ?? null })),
  label: msg`Edit company`,
  failed: msg`Failed to update company`,
  merge: {
    fields: (m) => {
      const field = companyEditFields[fieldOfMutation(m) as CompanyField]
      return field ? [field] : []
    },
    mine: (m) => ({ [fieldOfMutation(m)]: (m.body as { value: unknown } | undefined)?.value ?? null }),
    body: (values, m) => ({ value: values[fieldOfMutation(m)] ?? null }),
  },
})

/**
 * PATCH /company/{id}/field/{field} with `{value}` (already validated by the shared schema), If-Match
 * the version of the row as it was when the field went into edit mode (`opened`, whose value of the
 * field is the base of a later three-way merge; a change made meanwhile elsewhere is merged, not
 * undone). Resolves to null when the value is the one the field opened with (nothing is queued).
 */
export async function editCompanyField(
  { engine }: SyncHandle,
  opened: Record<string, unknown> & { id: string; _version?: number },
  field: CompanyField,
  value: string | null,
) {
  if (field in opened && value === (opened[field] ?? null)) return null
  return engine.mutate({
    kind: COMPANY_FIELD,
    method: 'PATCH',
    path: `/company/${opened.id}/field/${field}`,
    body: { value },
    baseRow: opened,
    entity: 'company',
    entityId: opened.id,
    baseVersion: opened._version,
  })
}

/**
 * activate / suspend / deactivate / delete (super admin; docs/decisions/0014-company-life-cycle.md). Sent at
 * once, not queued: the status decides what everyone may do, so success is shown only once the
 * server has answered; the next pull brings the new status into the local copy.
 */
export async function changeCompanyStatus(id: string, action: LifecycleAction, key: ActionKey): Promise<Company> {
  const company = await api('POST', `/company/${id}/${action}`, { schema: Company, action: key })
  requestSync()
  return company
}

/** POST /company (super admin): sent at once, not queued; the next pull brings the new company. */
export const createCompany = (body: CreateCompanyRequest, action: ActionKey) => api('POST', '/company', { body, schema: CreatedResponse, action })
