import { useState } from 'react'
import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import type { AccountInfo } from '../../../shared/contract/account'
import type { CompanyMembership } from '../../../shared/domain/roles'
import { Badge } from '../../components/ui/Badge'
import { Button } from '../../components/ui/Button'
import { Table, ActionsHeader } from '../../components/ui/Table'
import { OfflineReason } from '../../components/sync/OfflineReason'
import { createActionKey, errorMessage } from '../../lib/api'
import { companyRoleLabels } from './labels'
import type { Notice } from './ProfilePage'
import { switchCompany } from './profile-mutations'

const switchFailed = msg`Failed to change the current company. Please try again.`

/** The user's companies; selecting one makes it the current company of the session. */
export function CompanySelection({
  companies,
  currentCompanyId,
  connected = true,
  onSwitched,
  setNotice,
}: {
  companies: readonly CompanyMembership[]
  currentCompanyId: string | null
  /** False offline: the current company is kept by the server, so Select waits (disabled, with the reason). */
  connected?: boolean
  onSwitched: (info: AccountInfo) => void
  setNotice: (notice: Notice | null) => void
}) {
  const { t, i18n } = useLingui()
  const [busyId, setBusyId] = useState<string | null>(null)
  const [action] = useState(createActionKey)

  const select = async (company: CompanyMembership) => {
    setBusyId(company.id)
    try {
      onSwitched(await switchCompany(company.id, action))
      const name = company.name
      setNotice({ variant: 'success', text: t`${name} is now your current company` })
    } catch (e) {
      setNotice({ variant: 'error', text: errorMessage(e, i18n._(switchFailed)) })
    } finally {
      setBusyId(null)
    }
  }

  return (
    <section className="card" aria-labelledby="companies-title">
      <h2 id="companies-title">
        <Trans>Company Selection</Trans>
      </h2>
      {!connected && companies.length > 1 && (
        <OfflineReason id="companies-offline">
          <Trans>You are offline. Changing the current company needs a connection to the server.</Trans>
        </OfflineReason>
      )}
      {companies.length === 0 ?
        <p className="empty">
          <Trans>You are not a member of any company.</Trans>
        </p>
      : <Table caption={t`Company Selection`} captionHidden>
          <thead>
            <tr>
              <th scope="col">
                <Trans>Name</Trans>
              </th>
              <th scope="col" className="hide-phone">
                <Trans>Role</Trans>
              </th>
              <ActionsHeader />
            </tr>
          </thead>
          <tbody>
            {companies.map((c) => (
              <tr key={c.id}>
                {/* On a phone the role shows under the name, so a long association name keeps its words whole. */}
                <th scope="row">
                  {c.name}
                  <span className="muted cell-sub show-phone">{i18n._(companyRoleLabels[c.role])}</span>
                </th>
                <td className="hide-phone">{i18n._(companyRoleLabels[c.role])}</td>
                <td className="cell-actions">
                  {c.id === currentCompanyId ?
                    <Badge variant="success">
                      <Trans>Current</Trans>
                    </Badge>
                  : <Button
                      size="sm"
                      variant="secondary"
                      busy={busyId === c.id}
                      disabled={busyId !== null || !connected}
                      aria-describedby={connected ? undefined : 'companies-offline'}
                      onClick={() => void select(c)}
                    >
                      <Trans>Select</Trans>
                    </Button>
                  }
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      }
    </section>
  )
}
