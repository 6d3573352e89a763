import type { ReactNode } from 'react'
import type { Mutation } from '../../sync/local-db'
import type { Absence, RecordState } from '../../sync/use-record'
import type { SyncHandle } from '../../sync/use-sync'
import { Spinner } from '../ui/Spinner'
import { ChangeProblem } from './ChangeProblem'
import { RecordMissing } from './RecordMissing'

/**
 * A detail page's body over one synced record (docs/OFFLINE.md "Pull"), said once for every such page:
 * a spinner while the first copy may still arrive, "not found" or "not available offline yet"
 * without the record, else the record with its refused or conflicting changes above it (those
 * of `problems`, default the record's own; `[]` when the body shows them itself).
 */
export function RecordBody<T>({
  handle,
  record,
  loading,
  notFound,
  problems,
  children,
}: {
  handle: SyncHandle | null
  record: (RecordState<unknown> & { absent: Absence | null }) | undefined
  /** The spinner's label, e.g. "Loading item". */
  loading: string
  /** The page's own wording when the server has no such record for this user, e.g. "Item not found." */
  notFound: ReactNode
  problems?: Mutation[]
  children: (row: T, handle: SyncHandle) => ReactNode
}) {
  const row = record?.row as T | null | undefined
  if (!handle || record === undefined || (!row && record.absent === 'loading')) return <Spinner label={loading} />
  if (!row) return <RecordMissing absent={record.absent === 'offline' ? 'offline' : 'notFound'} notFound={notFound} />
  return (
    <>
      {(problems ?? record.problems).map((m) => (
        <ChangeProblem key={m.mutationId} handle={handle} mutation={m} />
      ))}
      {children(row, handle)}
    </>
  )
}
