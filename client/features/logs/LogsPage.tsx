import { useEffect, useId, useState } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import type { LogEntry, LogLevel } from '../../../shared/contract/logger'
import { Alert } from '../../components/ui/Alert'
import { Badge, type BadgeVariant } from '../../components/ui/Badge'
import { Button } from '../../components/ui/Button'
import { Spinner } from '../../components/ui/Spinner'
import { Table } from '../../components/ui/Table'
import { useLocale } from '../../i18n/use-locale'
import { ApiError } from '../../lib/api'
import { formatDateTime } from '../../lib/format'
import { usePageTitle } from '../../lib/use-page-title'
import { contextText, loadLogs, mayHaveMore, previewOf, MESSAGE_PREVIEW_LENGTH } from './load-logs'

const SEARCH_DEBOUNCE_MS = 300

const levelVariant: Record<LogLevel, BadgeVariant> = { ERROR: 'error', WARN: 'warning', INFO: 'info', DEBUG: 'neutral' }

type LoadState = { status: 'loading' } | { status: 'forbidden' } | { status: 'error' } | { status: 'ready' }

/** The server log for the super admin (docs/PRODUCT.md §2 "System logs"): search and Load More, 50 a page. */
export function LogsPage() {
  const { t } = useLingui()
  const locale = useLocale()
  const searchId = useId()
  usePageTitle(t`System Logs`)
  const [input, setInput] = useState('')
  const [search, setSearch] = useState('')
  const [entries, setEntries] = useState<LogEntry[]>([])
  const [hasMore, setHasMore] = useState(false)
  const [state, setState] = useState<LoadState>({ status: 'loading' })
  const [loadingMore, setLoadingMore] = useState(false)

  useEffect(() => {
    const timer = setTimeout(() => setSearch(input), SEARCH_DEBOUNCE_MS)
    return () => clearTimeout(timer)
  }, [input])

  const failed = (e: unknown): LoadState => (e instanceof ApiError && e.status === 403 ? { status: 'forbidden' } : { status: 'error' })

  useEffect(() => {
    const controller = new AbortController()
    setState({ status: 'loading' })
    loadLogs(0, search, controller.signal).then(
      (page) => {
        setEntries(page)
        setHasMore(mayHaveMore(page))
        setState({ status: 'ready' })
      },
      (e: unknown) => {
        if (!controller.signal.aborted) setState(failed(e))
      },
    )
    return () => controller.abort()
  }, [search])

  const loadMore = async () => {
    setLoadingMore(true)
    try {
      const page = await loadLogs(entries.length, search)
      setEntries((current) => [...current, ...page])
      setHasMore(mayHaveMore(page))
    } catch (e) {
      setState(failed(e))
    } finally {
      setLoadingMore(false)
    }
  }

  if (state.status === 'forbidden') {
    return (
      <div className="page">
        <h1>
          <Trans>System Logs</Trans>
        </h1>
        <Alert variant="warning">
          <Trans>You do not have access to this page.</Trans>
        </Alert>
      </div>
    )
  }

  return (
    <div className="page">
      <h1>
        <Trans>System Logs</Trans>
      </h1>
      <div className="toolbar" role="search">
        <label htmlFor={searchId} className="field-label">
          <Trans>Search</Trans>
        </label>
        <input id={searchId} type="search" className="input" value={input} onChange={(e) => setInput(e.target.value)} />
      </div>
      {state.status === 'error' && (
        <Alert variant="error">
          <Trans>Failed to load logs</Trans>
        </Alert>
      )}
      {state.status === 'loading' ?
        <Spinner label={t`Loading logs`} />
      : entries.length === 0 && state.status === 'ready' ?
        <p className="empty">
          <Trans>No log entries found</Trans>
        </p>
      : <Table caption={t`System Logs`} captionHidden className="table-logs">
          <thead>
            <tr>
              <th scope="col">
                <Trans>Time</Trans>
              </th>
              <th scope="col">
                <Trans>Level</Trans>
              </th>
              <th scope="col">
                <Trans>Source</Trans>
              </th>
              <th scope="col">
                <Trans>Message</Trans>
              </th>
              <th scope="col">
                <Trans>Context</Trans>
              </th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <LogRow key={entry.id} entry={entry} time={formatDateTime(entry.timestamp, locale)} />
            ))}
          </tbody>
        </Table>
      }
      {hasMore && state.status === 'ready' && (
        <div className="load-more">
          <Button variant="secondary" busy={loadingMore} onClick={() => void loadMore()}>
            <Trans>Load More</Trans>
          </Button>
        </div>
      )}
    </div>
  )
}

function LogRow({ entry, time }: { entry: LogEntry; time: string }) {
  const context = contextText(entry.context)
  const long = entry.message.length > MESSAGE_PREVIEW_LENGTH
  return (
    <tr>
      <td className="cell-nowrap">
        <time dateTime={entry.timestamp}>{time}</time>
      </td>
      <td>
        <Badge variant={levelVariant[entry.level]}>{entry.level}</Badge>
      </td>
      <td className="cell-wrap">{entry.source}</td>
      <td className="cell-wrap">
        {long ?
          <details className="log-message">
            <summary title={entry.message}>
              <span className="log-preview">{previewOf(entry.message)}</span>
              <span className="log-less">
                <Trans>Show less</Trans>
              </span>
            </summary>
            <p className="log-full">{entry.message}</p>
          </details>
        : entry.message}
      </td>
      <td className="cell-wrap">
        {context && (
          <details>
            <summary>
              <Trans>Show</Trans>
            </summary>
            <pre className="log-context">{context}</pre>
          </details>
        )}
      </td>
    </tr>
  )
}
