import { useEffect } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { Link, useNavigate } from '@tanstack/react-router'
import { documentCategories, type DocumentCategory } from '../../../shared/contract/documents'
import { PendingMarker } from '../../components/sync/PendingMarker'
import { Alert } from '../../components/ui/Alert'
import { Badge } from '../../components/ui/Badge'
import { Button, buttonClass } from '../../components/ui/Button'
import { Spinner } from '../../components/ui/Spinner'
import { Table } from '../../components/ui/Table'
import { useLocale } from '../../i18n/use-locale'
import { formatDate } from '../../lib/format'
import { usePageTitle } from '../../lib/use-page-title'
import { useSharedQuery } from '../../sync/shared-query'
import { useSync, useSyncStatus } from '../../sync/use-sync'
import { useSession } from '../auth/session'
import { useMemberCompany } from '../market/use-listings'
import { audienceLabels, categoryLabels, formatSize } from './labels'
import { forgetFiles, keptFilesQuery, OFFLINE_FILES_CAP_BYTES, pruneFiles } from './offline-files'
import { useDocuments } from './use-documents'
import { useDocumentRights } from './use-staff'
import { StorageMeter } from './StorageMeter'
import { useStorageUsage } from './use-storage'

/**
 * The association's documents (decision 0062): every document the user may read, newest first, with a
 * category filter (query `category`). Read from the local copy, so the list shows offline; a file
 * opened once shows offline too ("On this device"). Staff see what the association's files take of
 * its storage quota (online).
 */
export function DocumentsPage({ category }: { category?: DocumentCategory }) {
  const { t, i18n } = useLingui()
  const locale = useLocale()
  usePageTitle(t`Documents`)
  const navigate = useNavigate()
  const handle = useSync()
  const rows = useDocuments(handle)
  const kept = useSharedQuery(handle?.db, keptFilesQuery)
  const user = useSession().user
  const companyId = user?.currentCompany?.id
  // Someone who is no association's member (yet) is told so, not shown an empty list.
  const memberOf = useMemberCompany(handle, user)
  const outsider = memberOf === null && user?.userRole !== 'SUPERADMIN'
  const rights = useDocumentRights(companyId)
  const { online } = useSyncStatus(handle)
  // The association's storage, for its staff (docs/decisions/0082): read online.
  const storage = useStorageUsage(companyId, rights.manage && online)
  const shown = rows?.filter((d) => !category || d.category === category) ?? []
  const filters: Array<DocumentCategory | undefined> = [undefined, ...documentCategories]

  // Copies of files the user can no longer read (or that were replaced) leave the device.
  useEffect(() => {
    if (handle && rows) void pruneFiles(handle.db)
  }, [handle, rows])

  return (
    <div className="page documents-page">
      <div className="page-header">
        <h1>
          <Trans>Documents</Trans>
        </h1>
        {rights.manage && companyId && (
          <Link to="/documents/new" className={buttonClass('primary')} aria-label={t`Upload a document`}>
            <span aria-hidden="true">+ </span>
            <Trans>Upload</Trans>
          </Link>
        )}
      </div>
      {storage && <StorageMeter usage={storage} />}
      <div role="group" aria-label={t`Filter by category`} className="filter-bar">
        {filters.map((f) => (
          <button
            key={f ?? 'ALL'}
            type="button"
            className="filter-option"
            aria-pressed={category === f}
            onClick={() => void navigate({ to: '/documents', search: f ? { category: f } : {} })}
          >
            {f ? i18n._(categoryLabels[f]) : t`All`}
          </button>
        ))}
      </div>
      {outsider && rows?.length === 0 ?
        <Alert variant="info">
          <Trans>
            Documents are for the members of an association: residents with an agreement and its staff. Once you are one, its bylaws, minutes and other papers
            show here.
          </Trans>
        </Alert>
      : !rows ?
        <Spinner label={t`Loading documents`} />
      : shown.length === 0 ?
        <p className="empty">
          <Trans>No documents</Trans>
        </p>
      : <Table caption={t`Documents`} captionHidden className="documents-table">
          <thead>
            <tr>
              <th scope="col">
                <Trans>Title</Trans>
              </th>
              <th scope="col">
                <Trans>Category</Trans>
              </th>
              {rights.manage && (
                <th scope="col">
                  <Trans>Who may read it</Trans>
                </th>
              )}
              <th scope="col">
                <Trans>Added</Trans>
              </th>
            </tr>
          </thead>
          <tbody>
            {shown.map((d) => (
              <tr key={d.id}>
                <td>
                  <Link to="/documents/$id" params={{ id: d.id }}>
                    {d.title}
                  </Link>
                  <span className="document-file muted">
                    {d.fileName} · {formatSize(d.size ?? 0, locale)}
                  </span>
                  {d.fileId && kept?.fileIds.has(d.fileId) && (
                    <Badge variant="success">
                      <Trans>On this device</Trans>
                    </Badge>
                  )}
                  {d._pending && <PendingMarker />}
                </td>
                <td>{d.category ? i18n._(categoryLabels[d.category]) : ''}</td>
                {rights.manage && <td>{d.audience ? i18n._(audienceLabels[d.audience]) : ''}</td>}
                <td>{d.createdAt ? formatDate(d.createdAt, locale) : ''}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      }
      {kept && handle && (
        <p className="documents-storage muted">
          <Trans>
            Files kept on this device for offline reading: {formatSize(kept.bytes, locale)} of {formatSize(OFFLINE_FILES_CAP_BYTES, locale)}.
          </Trans>{' '}
          {kept.bytes > 0 && (
            <Button variant="link" onClick={() => void forgetFiles(handle.db)}>
              <Trans>Remove them from this device</Trans>
            </Button>
          )}
        </p>
      )}
    </div>
  )
}
