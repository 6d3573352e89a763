/** General assemblies, their proposals and documents from the local copy with queued changes applied, live (they show offline). */
import type { Assembly, Proposal } from '../../../shared/contract/assemblies'
import type { LocalDb, Row } from '../../sync/local-db'
import type { ViewRow } from '../../sync/optimistic'
import { viewWithOutbox } from '../../sync/queue-reads'
import { sharedQuery, useSharedQuery, type SharedQuery } from '../../sync/shared-query'
import { useRecord } from '../../sync/use-record'
import type { SyncHandle } from '../../sync/use-sync'
// The reducers must be registered wherever the view is computed.
import './assembly-mutations'

export type AssemblyView = Partial<Assembly> & ViewRow
export type ProposalView = Partial<Proposal> & ViewRow

/** A document of the assembly as the documents feature keeps it locally (its papers, its minutes). */
export interface AssemblyDocument {
  id: string
  title: string
  category: string
  fileName: string
  createdAt: string
}

const latestFirst = (a: AssemblyView, b: AssemblyView) => (b.heldAt ?? '').localeCompare(a.heldAt ?? '') || b.id.localeCompare(a.id)

const listQuery: SharedQuery<AssemblyView[]> = {
  key: 'assemblies:all',
  tables: ['assemblies', 'outbox'],
  read: async (db: LocalDb) => {
    const rows: Row[] = await db.assemblies.toArray()
    return ((await viewWithOutbox(db, 'assembly', rows)) as AssemblyView[]).sort(latestFirst)
  },
}

/** Every assembly the user has locally (the sync sends only what they may see), latest meeting first; undefined while IndexedDB opens. */
export const useAssemblies = (handle: SyncHandle | null): AssemblyView[] | undefined => useSharedQuery(handle?.db, listQuery)

export const useAssembly = (handle: SyncHandle | null, id: string) => useRecord<Assembly>(handle, 'assembly', id)

const proposalsQuery = (assemblyId: string): SharedQuery<ProposalView[]> =>
  sharedQuery(`proposals:${assemblyId}`, ['proposals', 'outbox'], async (db: LocalDb) => {
    const rows: Row[] = await db.proposals.where('assemblyId').equals(assemblyId).toArray()
    return ((await viewWithOutbox(db, 'proposal', rows)) as ProposalView[])
      .filter((p) => p.assemblyId === assemblyId)
      .sort((a, b) => (a.createdAt ?? '').localeCompare(b.createdAt ?? '') || a.id.localeCompare(b.id))
  })

/** The assembly's proposals the user may see, oldest first. */
export const useProposals = (handle: SyncHandle | null, assemblyId: string): ProposalView[] | undefined =>
  useSharedQuery(handle?.db, proposalsQuery(assemblyId))

const documentsQuery = (assemblyId: string): SharedQuery<AssemblyDocument[]> =>
  sharedQuery(`assembly-documents:${assemblyId}`, ['documents'], async (db: LocalDb) =>
    (await db.documents.toArray())
      .filter((d) => d.assemblyId === assemblyId)
      .map((d) => ({
        id: d.id,
        title: String(d.title ?? ''),
        category: String(d.category ?? 'OTHER'),
        fileName: String(d.fileName ?? ''),
        createdAt: String(d.createdAt ?? ''),
      }))
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id)),
  )

/** The assembly's documents (papers and minutes) the user has locally, from the documents feature's synced table. */
export const useAssemblyDocuments = (handle: SyncHandle | null, assemblyId: string): AssemblyDocument[] | undefined =>
  useSharedQuery(handle?.db, documentsQuery(assemblyId))
