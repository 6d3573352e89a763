import { useEffect, useState, type FormEvent } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { Link, useNavigate } from '@tanstack/react-router'
import { CreateCompanyRequest } from '../../../shared/contract/companies'
import { Alert } from '../../components/ui/Alert'
import { Button, buttonClass } from '../../components/ui/Button'
import { SelectField, TextField } from '../../components/ui/TextField'
import { ApiError, createActionKey } from '../../lib/api'
import { usePageTitle } from '../../lib/use-page-title'
import { translateIssue } from '../../lib/form-issues'
import { createCompany } from './company-mutations'

/** docs/PRODUCT.md §2 "Create company": back to the list this long after a success. */
export const REDIRECT_DELAY_MS = 2000

const emptyForm = { name: '', acronym: '', cvr: '', unionType: '' }
type FieldName = keyof typeof emptyForm
type FieldErrors = Partial<Record<FieldName, string>>
const fieldNames = Object.keys(emptyForm) as FieldName[]
const isField = (name: unknown): name is FieldName => fieldNames.includes(name as FieldName)

/** The super admin creates a company (docs/PRODUCT.md §2 "Create company", §5 messages). */
export function CreateCompanyPage() {
  const { t, i18n } = useLingui()
  usePageTitle(t`Create company`)
  const navigate = useNavigate()
  const [form, setForm] = useState(emptyForm)
  const [errors, setErrors] = useState<FieldErrors>({})
  const [failure, setFailure] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [created, setCreated] = useState(false)
  const [action] = useState(createActionKey)

  useEffect(() => {
    if (!created) return
    const timer = setTimeout(() => void navigate({ to: '/companies' }), REDIRECT_DELAY_MS)
    return () => clearTimeout(timer)
  }, [created, navigate])

  const set = (field: FieldName) => (value: string) => setForm((f) => ({ ...f, [field]: value }))

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    const parsed = CreateCompanyRequest.safeParse(form)
    if (!parsed.success) {
      const next: FieldErrors = {}
      for (const issue of parsed.error.issues) {
        const field = issue.path[0]
        if (isField(field)) next[field] ??= translateIssue(issue, i18n)
      }
      return setErrors(next)
    }
    setErrors({})
    setFailure(null)
    setBusy(true)
    try {
      await createCompany(parsed.data, action)
      action.settle()
      setCreated(true)
    } catch (e) {
      if (e instanceof ApiError && e.status !== 0 && e.status < 500) {
        action.settle()
        const next: FieldErrors = {}
        for (const issue of e.issues) {
          const field = issue.path.split('.')[0]
          if (isField(field)) next[field] ??= issue.message
        }
        if (e.status === 409) next.cvr ??= e.message
        setErrors(next)
        setFailure(e.message || t`Failed to create company`)
      } else {
        setFailure(t`Failed to create company`)
      }
    } finally {
      setBusy(false)
    }
  }

  return (
    <div className="page">
      <div className="page-header">
        <h1>
          <Trans>Create company</Trans>
        </h1>
      </div>
      {created && (
        <Alert variant="success">
          <Trans>Company created. Returning to the companies list…</Trans>
        </Alert>
      )}
      {failure && <Alert variant="error">{failure}</Alert>}
      <form className="form" noValidate onSubmit={(e) => void onSubmit(e)}>
        <TextField label={t`Name`} value={form.name} onChange={(e) => set('name')(e.target.value)} error={errors.name} required autoComplete="organization" />
        <TextField label={t`Acronym`} value={form.acronym} onChange={(e) => set('acronym')(e.target.value)} error={errors.acronym} required />
        <TextField
          label={t`CVR`}
          value={form.cvr}
          onChange={(e) => set('cvr')(e.target.value)}
          error={errors.cvr}
          required
          inputMode="numeric"
          hint={t`8 digits`}
        />
        <SelectField
          label={t`Union type`}
          value={form.unionType}
          onChange={(e) => set('unionType')(e.target.value)}
          error={errors.unionType}
          required
          options={[
            { value: '', label: t`Select union type` },
            { value: 'COOP', label: t`Cooperative (COOP)` },
            { value: 'CONDO', label: t`Condominium (CONDO)` },
          ]}
        />
        <div className="form-actions">
          <Link to="/companies" className={buttonClass('secondary')}>
            <Trans>Cancel</Trans>
          </Link>
          <Button type="submit" busy={busy} disabled={created}>
            <Trans>Create company</Trans>
          </Button>
        </div>
      </form>
    </div>
  )
}
