import type { ReactNode } from 'react'
import { Trans } from '@lingui/react/macro'
import type { Absence } from '../../sync/use-record'
import { Alert } from '../ui/Alert'

/**
 * What a detail page shows instead of a record it does not have (docs/OFFLINE.md "Pull"). Offline, a
 * record missing from the local copy may exist on the server, so it says so rather than "not
 * found"; online, `notFound` (the page's own wording, e.g. "Invoice not found") is the answer.
 */
export function RecordMissing({ absent, notFound }: { absent: Exclude<Absence, 'loading'> | null; notFound: ReactNode }) {
  if (absent === 'offline') {
    return (
      <Alert variant="info" className="record-offline">
        <Trans>Not available offline yet — open it once while online.</Trans>
      </Alert>
    )
  }
  return <Alert variant="error">{notFound}</Alert>
}
