import { useState } from 'react'
import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { useNavigate } from '@tanstack/react-router'
import { lifecycleActions, nextStatus, type CompanyStatus, type LifecycleAction } from '../../../shared/domain/company-status'
import { Alert } from '../../components/ui/Alert'
import { Badge } from '../../components/ui/Badge'
import { Button } from '../../components/ui/Button'
import { ConfirmDialog } from '../../components/ui/ConfirmDialog'
import { createActionKey, errorMessage, type ActionKey } from '../../lib/api'
import { showToast } from '../../lib/toast'
import { changeCompanyStatus } from './company-mutations'
import { companyStatusBadge, companyStatusLabels } from './labels'

const actionLabels = {
  activate: msg`Activate`,
  suspend: msg`Suspend`,
  deactivate: msg`Deactivate`,
  delete: msg`Delete company`,
} as const

const doneMessages = {
  activate: msg`Company activated`,
  suspend: msg`Company suspended`,
  deactivate: msg`Company deactivated`,
  delete: msg`Company deleted`,
} as const

const changeFailed = msg`Failed to change the company's status. Please try again.`

/** The company's status as a badge. */
export function CompanyStatusBadge({ status }: { status: CompanyStatus }) {
  const { i18n } = useLingui()
  return <Badge variant={companyStatusBadge[status]}>{i18n._(companyStatusLabels[status])}</Badge>
}

/**
 * The super admin's life-cycle buttons (docs/decisions/0014-company-life-cycle.md): only the moves allowed from
 * the current status, each confirmed first, and success shown only once the server agreed.
 */
export function CompanyLifecycle({ companyId, name, status }: { companyId: string; name: string; status: CompanyStatus }) {
  const { i18n } = useLingui()
  const navigate = useNavigate()
  const [asking, setAsking] = useState<LifecycleAction | null>(null)
  const [busy, setBusy] = useState(false)
  const [failure, setFailure] = useState<string | null>(null)
  const [keys] = useState(() => new Map<LifecycleAction, ActionKey>())
  const keyOf = (action: LifecycleAction) => keys.get(action) ?? keys.set(action, createActionKey()).get(action)!
  const allowed = lifecycleActions.filter((a) => nextStatus(status, a) !== undefined)

  const confirm = async () => {
    if (!asking) return
    const action = asking
    setBusy(true)
    setFailure(null)
    try {
      await changeCompanyStatus(companyId, action, keyOf(action))
      keys.delete(action)
      showToast('success', i18n._(doneMessages[action]))
      if (action === 'delete') void navigate({ to: '/companies' })
    } catch (e) {
      setFailure(errorMessage(e, i18n._(changeFailed)))
    } finally {
      setBusy(false)
      setAsking(null)
    }
  }

  if (allowed.length === 0) return null
  return (
    <div className="company-lifecycle">
      {failure && <Alert variant="error">{failure}</Alert>}
      <div className="button-row">
        {allowed.map((action) => (
          <Button
            key={action}
            size="sm"
            variant={
              action === 'activate' ? 'primary'
              : action === 'delete' ?
                'danger'
              : 'secondary'
            }
            onClick={() => setAsking(action)}
          >
            {i18n._(actionLabels[action])}
          </Button>
        ))}
      </div>
      <ConfirmDialog
        open={asking !== null}
        title={asking ? i18n._(actionLabels[asking]) : ''}
        confirmLabel={asking ? i18n._(actionLabels[asking]) : ''}
        busy={busy}
        onConfirm={() => void confirm()}
        onCancel={() => setAsking(null)}
      >
        {asking && <Question action={asking} name={name} />}
      </ConfirmDialog>
    </div>
  )
}

function Question({ action, name }: { action: LifecycleAction; name: string }) {
  switch (action) {
    case 'activate':
      return (
        <p>
          <Trans>Activate {name}? Its staff can work with it again and its charges are collected.</Trans>
        </p>
      )
    case 'suspend':
      return (
        <p>
          <Trans>Suspend {name}? Its data becomes read-only and no charges are collected until it is activated again.</Trans>
        </p>
      )
    case 'deactivate':
      return (
        <p>
          <Trans>
            Deactivate {name}? Its data becomes read-only and no charges are collected. This cannot be undone: afterwards the company can only be deleted.
          </Trans>
        </p>
      )
    case 'delete':
      return (
        <p>
          <Trans>Delete {name}? Its staff no longer see it; its bookkeeping is kept for 5 years. This cannot be undone.</Trans>
        </p>
      )
  }
}
