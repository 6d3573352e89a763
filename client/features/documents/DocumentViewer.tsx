import { useEffect, useState } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { shownInBrowser } from '../../../shared/contract/documents'
import { Alert } from '../../components/ui/Alert'
import { buttonClass } from '../../components/ui/Button'
import { Spinner } from '../../components/ui/Spinner'
import { ApiError } from '../../lib/api'
import type { SyncHandle } from '../../sync/use-sync'
import { openFile } from './offline-files'
import type { DocumentView } from './use-documents'

type State = { status: 'loading' } | { status: 'ready'; url: string; text: string | null } | { status: 'error'; reason: 'offline' | 'gone' | 'other' }

/**
 * The document's file, shown in the page where the browser can (PDF, images, text) and offered to
 * open or download always. It comes from the device when kept there, else from the server (and is
 * then kept for offline reading).
 */
export function DocumentViewer({ handle, doc }: { handle: SyncHandle; doc: DocumentView }) {
  const { t } = useLingui()
  const [state, setState] = useState<State>({ status: 'loading' })

  useEffect(() => {
    const abort = new AbortController()
    let url: string | null = null
    setState({ status: 'loading' })
    openFile(handle.db, { id: doc.id, fileId: doc.fileId, contentType: doc.contentType }, abort.signal)
      .then(async ({ blob }) => {
        if (abort.signal.aborted) return
        url = URL.createObjectURL(blob)
        setState({ status: 'ready', url, text: doc.contentType === 'text/plain' ? await blob.text() : null })
      })
      .catch((error: unknown) => {
        if (abort.signal.aborted) return
        const reason =
          error instanceof ApiError && error.status === 0 ? 'offline'
          : error instanceof ApiError && error.status === 404 ? 'gone'
          : 'other'
        setState({ status: 'error', reason })
      })
    return () => {
      abort.abort()
      if (url) URL.revokeObjectURL(url)
    }
  }, [handle, doc.id, doc.fileId, doc.contentType])

  if (state.status === 'loading') return <Spinner label={t`Opening the document`} />
  if (state.status === 'error')
    return (
      <Alert variant={state.reason === 'offline' ? 'info' : 'error'}>
        {state.reason === 'offline' ?
          <Trans>This document has not been opened on this device before, so it cannot be shown offline. Open it once while online to keep it here.</Trans>
        : state.reason === 'gone' ?
          <Trans>Document not found.</Trans>
        : <Trans>The document could not be opened.</Trans>}
      </Alert>
    )

  const type = doc.contentType ?? ''
  return (
    <div className="document-viewer">
      <div className="form-actions form-actions-start">
        <a className={buttonClass('secondary')} href={state.url} target="_blank" rel="noopener">
          <Trans>Open in a new tab</Trans>
        </a>
        <a className={buttonClass('secondary')} href={state.url} download={doc.fileName}>
          <Trans>Download</Trans>
        </a>
      </div>
      {!shownInBrowser(type) ?
        <p className="muted">
          <Trans>This type of file cannot be shown in the browser. Download it to open it.</Trans>
        </p>
      : type.startsWith('image/') ?
        <img className="document-image" src={state.url} alt={doc.title ?? ''} />
      : state.text !== null ?
        <pre className="document-text" tabIndex={0} aria-label={doc.title ?? ''}>
          {state.text}
        </pre>
      : <iframe className="document-frame" src={state.url} title={doc.title ?? t`Document`} />}
    </div>
  )
}
