import { Fragment, useState, type ReactNode } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { Link } from '@tanstack/react-router'
import type { Address, CompanyMember } from '../../../shared/contract/companies'
import type { PaymentProvider } from '../../../shared/contract/payment-providers'
import { companyRoles, type CompanyRole } from '../../../shared/domain/roles'
import { ChangeProblem } from '../../components/sync/ChangeProblem'
import { Badge } from '../../components/ui/Badge'
import { Button } from '../../components/ui/Button'
import { Spinner } from '../../components/ui/Spinner'
import { Table, ActionsHeader } from '../../components/ui/Table'
import { Tabs } from '../../components/ui/Tabs'
import type { SyncHandle } from '../../sync/use-sync'
import { companyRoleLabels } from '../profile/labels'
import { AddAddressForm } from './AddAddressForm'
import { AddMemberForm } from './AddMemberForm'
import { AddProviderForm } from '../payment-providers/AddProviderForm'
import { changeMemberRole, deleteAddress, removeMember } from './company-child-mutations'
import { useCompanyRows, type CompanyChildRow } from './use-company-rows'
import { BreakableEmail } from '../../components/ui/BreakableEmail'
import { ErasureRequestsSection } from '../personal-data/ErasureRequestsSection'
import { personEmail, personName } from '../../../shared/erased-person'

export type CompanyTab = 'overview' | 'providers' | 'addresses' | 'users'

/**
 * The tabs of the company view (docs/PRODUCT.md §2 "Company view"). Only the selected panel is mounted, so a
 * tab's data is read when it is first opened; Payment Providers is for the super admin only.
 */
export function CompanyTabs({
  handle,
  companyId,
  superAdmin,
  canManage,
  overview,
}: {
  handle: SyncHandle
  companyId: string
  superAdmin: boolean
  /** Super admin or the company's administrator, accountant or chairman (docs/PRODUCT.md §6). */
  canManage: boolean
  overview: ReactNode
}) {
  const { t } = useLingui()
  const [selected, setSelected] = useState<CompanyTab>('overview')
  const tabs = [
    { key: 'overview' as const, label: t`Overview` },
    ...(superAdmin ? [{ key: 'providers' as const, label: t`Payment Providers` }] : []),
    { key: 'addresses' as const, label: t`Addresses` },
    { key: 'users' as const, label: t`Users` },
  ]
  return (
    <Tabs label={t`Company`} tabs={tabs} selected={selected} onSelect={setSelected}>
      {selected === 'overview' ?
        overview
      : selected === 'providers' ?
        <ProvidersPanel handle={handle} companyId={companyId} canManage={canManage} />
      : selected === 'addresses' ?
        <AddressesPanel handle={handle} companyId={companyId} canManage={canManage} />
      : <UsersPanel handle={handle} companyId={companyId} canManage={canManage} />}
    </Tabs>
  )
}

/** The super admin's tab; `canManage` is false while the company is suspended or deactivated (read-only). */
function ProvidersPanel({ handle, companyId, canManage }: { handle: SyncHandle; companyId: string; canManage: boolean }) {
  const { t } = useLingui()
  const [adding, setAdding] = useState(false)
  const rows = useCompanyRows(handle, 'paymentProvider', companyId) as (Partial<PaymentProvider> & { id: string })[] | undefined
  if (!rows) return <Spinner label={t`Loading payment providers`} />
  return (
    <>
      {canManage &&
        (adding ?
          <AddProviderForm companyId={companyId} onDone={() => setAdding(false)} />
        : <div className="section-header">
            <Button onClick={() => setAdding(true)}>
              <Trans>Add payment provider</Trans>
            </Button>
          </div>)}
      {rows.length === 0 ?
        <p className="empty">
          <Trans>No payment providers configured</Trans>
        </p>
      : <ProviderTable companyId={companyId} rows={rows} />}
    </>
  )
}

function ProviderTable({ companyId, rows }: { companyId: string; rows: (Partial<PaymentProvider> & { id: string })[] }) {
  const { t } = useLingui()
  return (
    <Table caption={t`Payment Providers`} captionHidden className="table-providers">
      <thead>
        <tr>
          <th scope="col">
            <Trans>Name</Trans>
          </th>
          <th scope="col" className="hide-phone">
            <Trans>Type</Trans>
          </th>
          <th scope="col">
            <Trans>Status</Trans>
          </th>
          <th scope="col" className="hide-phone">
            <Trans>Mode</Trans>
          </th>
          <th scope="col">
            <Trans>Webhooks</Trans>
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((p) => (
          <tr key={p.id}>
            <th scope="row" className="cell-wrap">
              <Link to="/company/$id/payment-provider/$providerId" params={{ id: companyId, providerId: p.id }}>
                {p.config?.providerName ?? ''}
              </Link>
              {/* On a phone type and mode go under the name. */}
              <span className="show-phone">
                <span className="cell-sub muted">{`${p.type ?? ''} · ${p.isTest ? t`Test` : t`Production`}`}</span>
              </span>
            </th>
            <td className="hide-phone">{p.type}</td>
            <td>
              {p.isActive ?
                <Badge variant="success">{t`Active`}</Badge>
              : <Badge>{t`Inactive`}</Badge>}
            </td>
            <td className="hide-phone">{p.isTest ? t`Test` : t`Production`}</td>
            <td>{p.webhookCount ?? p.hooks?.length ?? 0}</td>
          </tr>
        ))}
      </tbody>
    </Table>
  )
}

function AddressesPanel({ handle, companyId, canManage }: { handle: SyncHandle; companyId: string; canManage: boolean }) {
  const { t } = useLingui()
  const [adding, setAdding] = useState(false)
  const rows = useCompanyRows(handle, 'address', companyId) as (Partial<Address> & CompanyChildRow)[] | undefined
  if (!rows) return <Spinner label={t`Loading addresses`} />
  return (
    <>
      {canManage &&
        (adding ?
          <AddAddressForm handle={handle} companyId={companyId} onDone={() => setAdding(false)} />
        : <div className="section-header">
            <Button onClick={() => setAdding(true)}>
              <Trans>Add address</Trans>
            </Button>
          </div>)}
      {rows.length === 0 ?
        <p className="empty">
          <Trans>No addresses configured</Trans>
        </p>
      : <AddressTable handle={handle} companyId={companyId} canManage={canManage} rows={rows} />}
    </>
  )
}

function AddressTable({
  handle,
  companyId,
  canManage,
  rows,
}: {
  handle: SyncHandle
  companyId: string
  canManage: boolean
  rows: (Partial<Address> & CompanyChildRow)[]
}) {
  const { t } = useLingui()
  const columns = canManage ? 4 : 3
  return (
    <Table caption={t`Addresses`} captionHidden className="table-addresses">
      <thead>
        <tr>
          <th scope="col">
            <Trans>Address</Trans>
          </th>
          <th scope="col" className="hide-phone">
            <Trans>Zip</Trans>
          </th>
          <th scope="col" className="hide-phone">
            <Trans>City</Trans>
          </th>
          {canManage && <ActionsHeader />}
        </tr>
      </thead>
      <tbody>
        {rows.map((a) => (
          <Fragment key={a.id}>
            <tr>
              <th scope="row" className="cell-wrap">
                {[`${a.street ?? ''} ${a.number ?? ''}`.trim(), [a.floor, a.side].filter(Boolean).join(' ')].filter(Boolean).join(', ')}
                {/* On a phone the postcode and city go under the street instead of two narrow columns. */}
                <span className="show-phone">
                  <span className="cell-sub muted">{`${a.zip ?? ''} ${a.city ?? ''}`.trim()}</span>
                </span>
              </th>
              <td className="hide-phone">{a.zip}</td>
              <td className="cell-wrap hide-phone">{a.city}</td>
              {canManage && (
                <td className="cell-actions">
                  <Button variant="ghost" size="sm" onClick={() => void deleteAddress(handle, companyId, a.id)}>
                    <Trans>
                      Delete <span className="sr-only">{`${a.street ?? ''} ${a.number ?? ''}`}</span>
                    </Trans>
                  </Button>
                </td>
              )}
            </tr>
            <RowProblem handle={handle} row={a} columns={columns} />
          </Fragment>
        ))}
      </tbody>
    </Table>
  )
}

function UsersPanel({ handle, companyId, canManage }: { handle: SyncHandle; companyId: string; canManage: boolean }) {
  const { t } = useLingui()
  const [adding, setAdding] = useState(false)
  const rows = useCompanyRows(handle, 'member', companyId) as (Partial<CompanyMember> & CompanyChildRow)[] | undefined
  if (!rows) return <Spinner label={t`Loading company members`} />
  return (
    <>
      {canManage &&
        (adding ?
          <AddMemberForm companyId={companyId} onDone={() => setAdding(false)} />
        : <div className="section-header">
            <Button onClick={() => setAdding(true)}>
              <Trans>Add user</Trans>
            </Button>
          </div>)}
      {rows.length === 0 ?
        <p className="empty">
          <Trans>No company members found</Trans>
        </p>
      : <MemberTable handle={handle} companyId={companyId} canManage={canManage} rows={rows} />}
      {/* Erasure requests (decision 0080): the association's staff and the super admin see them. */}
      <ErasureRequestsSection handle={handle} companyId={companyId} members={rows} />
    </>
  )
}

function MemberTable({
  handle,
  companyId,
  canManage,
  rows,
}: {
  handle: SyncHandle
  companyId: string
  canManage: boolean
  rows: (Partial<CompanyMember> & CompanyChildRow)[]
}) {
  const { t, i18n } = useLingui()
  const roleLabel = (name: string) => t`Role of ${name}`
  const columns = canManage ? 5 : 4
  const remove = (m: Partial<CompanyMember> & { id: string }) => (
    <Button variant="ghost" size="sm" onClick={() => void removeMember(handle, companyId, m.id)}>
      <Trans>
        Remove <span className="sr-only">{personName(m.name, i18n)}</span>
      </Trans>
    </Button>
  )
  return (
    <Table caption={t`Users`} captionHidden className="table-members">
      <thead>
        <tr>
          <th scope="col">
            <Trans>Name</Trans>
          </th>
          <th scope="col" className="hide-phone">
            <Trans>Email</Trans>
          </th>
          <th scope="col" className="hide-phone">
            <Trans>Mobile</Trans>
          </th>
          <th scope="col">
            <Trans>Role</Trans>
          </th>
          {canManage && (
            <th scope="col" className="hide-phone">
              <span className="sr-only">
                <Trans>Actions</Trans>
              </span>
            </th>
          )}
        </tr>
      </thead>
      <tbody>
        {rows.map((m) => (
          <Fragment key={m.id}>
            <tr>
              <th scope="row" className="cell-wrap">
                {personName(m.name, i18n)}
                {/* On a phone e-mail and mobile go under the name instead of two narrow columns. */}
                <span className="show-phone">
                  <span className="cell-sub muted">
                    <BreakableEmail email={personEmail(m.email)} />
                  </span>
                  {m.phone && <span className="cell-sub muted">{m.phone}</span>}
                </span>
              </th>
              <td className="cell-wrap hide-phone">
                <BreakableEmail email={personEmail(m.email)} />
              </td>
              <td className="cell-nowrap hide-phone">{m.phone ?? ''}</td>
              <td className="cell-role">
                {canManage && m.role ?
                  <select
                    className="input input-compact"
                    aria-label={roleLabel(personName(m.name, i18n) ?? '')}
                    value={m.role}
                    onChange={(e) => void changeMemberRole(handle, companyId, m.id, e.target.value as CompanyRole, m._version)}
                  >
                    {companyRoles.map((role) => (
                      <option key={role} value={role}>
                        {i18n._(companyRoleLabels[role])}
                      </option>
                    ))}
                  </select>
                : m.role ?
                  i18n._(companyRoleLabels[m.role])
                : ''}
                {canManage && <span className="show-phone">{remove(m)}</span>}
              </td>
              {canManage && <td className="cell-actions hide-phone">{remove(m)}</td>}
            </tr>
            <RowProblem handle={handle} row={m} columns={columns} />
          </Fragment>
        ))}
      </tbody>
    </Table>
  )
}

/**
 * The server refused a change to this row (an address still used by an agreement, the last
 * chairman or administrator), or someone changed it first: the message, with Retry and Discard,
 * in a row of its own under the row it concerns (the table's full width, also on a phone).
 */
function RowProblem({ handle, row, columns }: { handle: SyncHandle; row: CompanyChildRow; columns: number }) {
  return row._problems?.length ?
      <tr className="row-problem">
        <td colSpan={columns} role="status">
          {row._problems.map((m) => (
            <ChangeProblem key={m.mutationId} handle={handle} mutation={m} />
          ))}
        </td>
      </tr>
    : null
}
