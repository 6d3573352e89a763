/**
 * Document files kept for reading offline (decision 0062): a file opened once online is stored in the
 * user's own IndexedDB database (`documentFiles`, keyed by the document's `fileId`), so it opens
 * again without a connection. The API bypasses the service worker (decision 0019), so the worker's
 * cache cannot hold it; and the per-user database goes with the user at sign-out.
 *
 * - A cap (OFFLINE_FILES_CAP_BYTES) bounds the space: the files opened longest ago go first.
 * - A copy whose document the user can no longer read (deleted, or its audience changed) or whose
 *   file was replaced (a new `fileId`) is dropped by `pruneFiles`, which the documents screens run.
 */
import { API_BASE, ApiError } from '../../lib/api'
import { sessionStore } from '../auth/session'
import type { DocumentFile, LocalDb } from '../../sync/local-db'
import type { SharedQuery } from '../../sync/shared-query'

/** At most this much of the device's storage holds document files. */
export const OFFLINE_FILES_CAP_BYTES = 100 * 1024 * 1024

interface Wanted {
  id: string
  fileId?: string
  contentType?: string
}

/** The kept copy of the document's current file, if any; marks it as just opened. */
export async function keptFile(db: LocalDb, doc: Wanted): Promise<Blob | undefined> {
  if (!doc.fileId) return undefined
  const kept = await db.documentFiles.get(doc.fileId)
  if (!kept) return undefined
  await db.documentFiles.update(doc.fileId, { openedAt: Date.now() })
  return kept.blob
}

/** Fetches the document's file from the server (the API needs the bearer token a plain link cannot carry). */
export async function fetchFile(doc: Wanted, signal?: AbortSignal): Promise<Blob> {
  const token = sessionStore.get().token
  let res: Response
  try {
    res = await fetch(`${API_BASE}/documents/${doc.id}/file`, { headers: token ? { Authorization: `Bearer ${token}` } : {}, signal })
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err
    throw new ApiError(0, 'NETWORK_ERROR', '')
  }
  if (!res.ok) throw new ApiError(res.status, res.status === 404 ? 'NOT_FOUND' : 'UNKNOWN', '')
  const bytes = await res.blob()
  return new Blob([bytes], { type: doc.contentType ?? bytes.type })
}

/** Keeps a file for offline reading, then makes room: the least recently opened go until the rest fits the cap. */
export async function keepFile(db: LocalDb, doc: Wanted, blob: Blob, cap = OFFLINE_FILES_CAP_BYTES): Promise<boolean> {
  if (!doc.fileId || blob.size > cap) return false
  await db.transaction('rw', db.documentFiles, async () => {
    await db.documentFiles.put({ id: doc.fileId!, documentId: doc.id, blob, size: blob.size, openedAt: Date.now() })
    const all = await db.documentFiles.orderBy('openedAt').toArray()
    let total = all.reduce((sum, f) => sum + f.size, 0)
    for (const f of all) {
      if (total <= cap) break
      if (f.id === doc.fileId) continue
      await db.documentFiles.delete(f.id)
      total -= f.size
    }
  })
  return true
}

/** The document's file: the kept copy, else from the server (kept for next time). */
export async function openFile(db: LocalDb, doc: Wanted, signal?: AbortSignal): Promise<{ blob: Blob; from: 'device' | 'server' }> {
  const kept = await keptFile(db, doc)
  if (kept) return { blob: kept, from: 'device' }
  const blob = await fetchFile(doc, signal)
  await keepFile(db, doc, blob)
  return { blob, from: 'server' }
}

/** Drops kept files whose document is gone from the local copy or whose file was replaced. */
export async function pruneFiles(db: LocalDb): Promise<number> {
  return await db.transaction('rw', db.documentFiles, db.documents, async () => {
    const current = new Set((await db.documents.toArray()).map((d) => d.fileId as string))
    const stale = (await db.documentFiles.toArray()).filter((f) => !current.has(f.id)).map((f) => f.id)
    await db.documentFiles.bulkDelete(stale)
    return stale.length
  })
}

/** Removes every kept file (the user frees the space). */
export const forgetFiles = (db: LocalDb) => db.documentFiles.clear()

export interface KeptFiles {
  fileIds: Set<string>
  bytes: number
}

/** Which files are kept and how much space they take (without reading the files themselves). */
export const keptFilesQuery: SharedQuery<KeptFiles> = {
  key: 'documentFiles:summary',
  tables: ['documentFiles'],
  read: async (db: LocalDb) => {
    const fileIds = new Set<string>()
    let bytes = 0
    await db.documentFiles.each((f: DocumentFile) => {
      fileIds.add(f.id)
      bytes += f.size
    })
    return { fileIds, bytes }
  },
}
