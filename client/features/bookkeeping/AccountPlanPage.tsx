import { useEffect, useState } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { Link } from '@tanstack/react-router'
import { AccountPlan, type AccountPlanView } from '../../../shared/contract/bookkeeping'
import { partTypes } from '../../../shared/domain/agreement-parts'
import type { AccountPlan as Plan } from '../../../shared/domain/bookkeeping'
import { isCompanyAdminStaff } from '../../../shared/domain/roles'
import { Alert } from '../../components/ui/Alert'
import { Button, buttonClass } from '../../components/ui/Button'
import { Spinner } from '../../components/ui/Spinner'
import { TextField } from '../../components/ui/TextField'
import { useLocale } from '../../i18n/use-locale'
import { ApiError, createActionKey, errorMessage } from '../../lib/api'
import { formatDateTime } from '../../lib/format'
import { translateIssue } from '../../lib/form-issues'
import { usePageTitle } from '../../lib/use-page-title'
import { useSession } from '../auth/session'
import { partTypeLabels } from '../agreements/labels'
import { roleOf } from '../shell/navigation'
import { fetchPlan, savePlan } from './bookkeeping-api'
import './bookkeeping.css'

type Errors = Record<string, string>

/**
 * The account plan (route /bookkeeping/accounts, docs/BOOKKEEPING.md "The account plan (defaults)"): which ledger account and VAT
 * code each part type posts to, refunds, Vipps MobilePay's fees if known, and the contra accounts.
 * The defaults until staff change them; saved with the version it was read at (someone else's
 * change in between is said, not overwritten). Needs the connection.
 */
export function AccountPlanPage() {
  const { t, i18n } = useLingui()
  const locale = useLocale()
  usePageTitle(t`Account plan`)
  const user = useSession().user
  const allowed = user ? isCompanyAdminStaff(roleOf(user)) : false
  const companyId = allowed ? (user?.currentCompany?.id ?? null) : null
  const [view, setView] = useState<AccountPlanView | null>(null)
  const [plan, setPlan] = useState<Plan | null>(null)
  const [failure, setFailure] = useState<{ offline: boolean; message: string } | null>(null)
  const [errors, setErrors] = useState<Errors>({})
  const [notice, setNotice] = useState<{ variant: 'success' | 'error' | 'info'; text: string } | null>(null)
  const [busy, setBusy] = useState(false)
  const [action] = useState(createActionKey)

  useEffect(() => {
    if (!companyId) return
    fetchPlan(companyId).then(
      (v) => {
        setView(v)
        setPlan(v.plan)
      },
      (err: unknown) => setFailure({ offline: err instanceof ApiError && err.status === 0, message: errorMessage(err, '') }),
    )
  }, [companyId])

  async function save() {
    if (!plan || !view || !companyId) return
    const parsed = AccountPlan.safeParse(plan)
    if (!parsed.success) {
      const next: Errors = {}
      for (const issue of parsed.error.issues) next[issue.path.join('.')] ??= translateIssue(issue, i18n)
      setErrors(next)
      setNotice({ variant: 'error', text: t`Some fields are not valid.` })
      return
    }
    setErrors({})
    setBusy(true)
    setNotice(null)
    try {
      const saved = await savePlan(companyId, parsed.data, view.version, action)
      setView(saved)
      setPlan(saved.plan)
      setNotice({ variant: 'success', text: t`The account plan is saved.` })
    } catch (err) {
      if (err instanceof ApiError && err.status === 412)
        setNotice({ variant: 'error', text: t`Someone else changed the account plan in the meantime. Reload the page to see it.` })
      else if (err instanceof ApiError && err.status === 0)
        setNotice({ variant: 'info', text: t`You are offline. Nothing was saved; try again when you are online.` })
      else {
        if (err instanceof ApiError) setErrors(Object.fromEntries(err.issues.map((x) => [x.path, x.message])))
        setNotice({ variant: 'error', text: errorMessage(err, t`The account plan could not be saved.`) })
      }
    } finally {
      setBusy(false)
    }
  }

  const changedAt = view?.updatedAt ? formatDateTime(view.updatedAt, locale) : ''
  const changedBy = view?.updatedByName ?? ''
  const field = (path: string, label: string, value: string, onChange: (v: string) => void, hint?: string) => (
    <TextField
      label={label}
      hint={hint}
      value={value}
      error={errors[path]}
      onChange={(e) => onChange(e.target.value)}
      inputMode={path.endsWith('vatCode') ? 'text' : 'numeric'}
    />
  )

  return (
    <div className="page bookkeeping-page">
      <div className="page-header">
        <h1>
          <Trans>Account plan</Trans>
        </h1>
        <Link to="/bookkeeping" className={buttonClass('secondary')}>
          <Trans>Back to bookkeeping</Trans>
        </Link>
      </div>
      {!allowed || !companyId ?
        <Alert variant="info">
          <Trans>Bookkeeping is for the association's administrator, accountant and chairman.</Trans>
        </Alert>
      : failure ?
        <Alert variant={failure.offline ? 'info' : 'error'}>
          {failure.offline ? t`You are offline. Bookkeeping needs a connection.` : failure.message || t`The account plan could not be loaded.`}
        </Alert>
      : !plan || !view ?
        <Spinner label={t`Loading the account plan`} />
      : <form
          className="bookkeeping-plan"
          noValidate
          onSubmit={(e) => {
            e.preventDefault()
            void save()
          }}
        >
          <p className="field-hint">
            {view.updatedAt && view.updatedByName ?
              <Trans>
                Last changed {changedAt} by {changedBy}.
              </Trans>
            : <Trans>These are the suggested accounts. Change them to the association's own chart of accounts.</Trans>}
          </p>
          <fieldset>
            <legend>
              <Trans>Income per part type</Trans>
            </legend>
            <p className="field-hint">
              <Trans>The VAT code is used for lines with VAT (e.g. U25 for 25 % output VAT); lines without VAT get no code.</Trans>
            </p>
            {partTypes.map((type) => {
              const label = i18n._(partTypeLabels[type])
              const set = (key: 'account' | 'vatCode', v: string) => setPlan({ ...plan, parts: { ...plan.parts, [type]: { ...plan.parts[type], [key]: v } } })
              return (
                <div key={type} className="bookkeeping-part">
                  {field(`parts.${type}.account`, t`${label}: account`, plan.parts[type].account, (v) => set('account', v))}
                  {field(`parts.${type}.vatCode`, t`${label}: VAT code`, plan.parts[type].vatCode, (v) => set('vatCode', v))}
                </div>
              )
            })}
          </fieldset>
          <fieldset>
            <legend>
              <Trans>Other accounts</Trans>
            </legend>
            {field(
              'refundAccount',
              t`Refunds (credit notes)`,
              plan.refundAccount,
              (v) => setPlan({ ...plan, refundAccount: v }),
              t`Empty: a refund goes back on the account of the line it refunds.`,
            )}
            {field(
              'feeAccount',
              t`Vipps MobilePay fees, if known`,
              plan.feeAccount,
              (v) => setPlan({ ...plan, feeAccount: v }),
              t`For your own records: Vipps MobilePay settles its fees, and they are not in the journal.`,
            )}
            {field(
              'clearingAccount',
              t`Vipps MobilePay payouts (contra account)`,
              plan.clearingAccount,
              (v) => setPlan({ ...plan, clearingAccount: v }),
              t`Where Vipps MobilePay pays the collected money out.`,
            )}
            {field(
              'outsideAccount',
              t`Paid outside Vipps MobilePay (contra account)`,
              plan.outsideAccount,
              (v) => setPlan({ ...plan, outsideAccount: v }),
              t`The bank account members pay into directly.`,
            )}
          </fieldset>
          {notice && <Alert variant={notice.variant}>{notice.text}</Alert>}
          <div className="form-actions">
            <Button type="submit" busy={busy}>
              <Trans>Save account plan</Trans>
            </Button>
          </div>
        </form>
      }
    </div>
  )
}
