/**
 * Attachment bytes on disk, under `<data dir>/attachments/<messageId>/<attachmentId>` (never the
 * uploaded name, so a name cannot walk out of the folder). The database keeps name, type, size and
 * SHA-256; the route serves the bytes only to those who may read the message.
 *
 * A file is written before its row commits and removed only by the housekeeping sweep once no row
 * refers to it (`messages.sweepFiles`): a transaction that rolls back (on PostgreSQL, one that
 * loses to another instance's and runs again) never takes away bytes a committed row still needs.
 *
 * Virus scanning hook: every upload goes through `AttachmentScanner.scan` before it is stored.
 * The default accepts everything; a deployment that needs scanning passes a scanner to createApp
 * (`messages.scanner`), e.g. one that streams the bytes to clamd's INSTREAM command and answers
 * 'infected' on a FOUND reply. An 'infected' answer refuses the upload (422), nothing is stored.
 */
import { mkdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs'
import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { attachmentTypes } from '../../../shared/contract/messages'
import { messages as m } from '../../../shared/i18n-messages'
import { ruleViolation } from '../../errors'

export interface AttachmentScanner {
  scan(file: { name: string; contentType: string; bytes: Uint8Array }): Promise<'clean' | 'infected'>
}

export const acceptAll: AttachmentScanner = { scan: async () => 'clean' }

/**
 * The association's storage quota (docs/decisions/0082): refuses (422 on `file`) a file that
 * would take the association's stored bytes over its quota. Asked inside the upload's write
 * transaction, before the file is written, so a refusal stores nothing and two uploads at once
 * cannot both pass (server/features/storage).
 */
export interface StorageQuota {
  assertRoom(companyId: string, bytes: number, replacing?: number): Promise<void>
}

/**
 * Where an upload is stored: its association (null for the platform's own files, e.g. an article
 * for every association, which no association's quota counts), and the bytes of the file it
 * replaces, which stop counting when it is stored.
 */
export interface UploadRoom {
  quota: StorageQuota
  companyId: string | null
  replacing?: number
}

/**
 * The checks every uploaded file passes (a message's attachment, a document, an article's file, a
 * photo): not empty, an allowed type by name and content, a name without path or control
 * characters, room in the association's storage quota, and a clean scan. Answers the name to
 * store and the content type; refusals are 422 on `file`.
 */
export async function acceptUpload(
  scanner: AttachmentScanner,
  file: { name: string; bytes: Uint8Array },
  room: UploadRoom,
): Promise<{ name: string; contentType: string }> {
  // An empty file is never a document, a photo or an attachment anyone could open (every upload comes here).
  if (file.bytes.length === 0) throw ruleViolation(m.attachmentEmpty.id, 'file')
  const contentType = allowedType(file.name, file.bytes)
  if (!contentType) throw ruleViolation(m.attachmentTypeNotAllowed.id, 'file')
  // eslint-disable-next-line no-control-regex -- control characters are taken out of file names on purpose
  const name = file.name.replace(/[\\/\u0000-\u001f]/g, '_').slice(-120)
  if (room.companyId) await room.quota.assertRoom(room.companyId, file.bytes.byteLength, room.replacing)
  if ((await scanner.scan({ name, contentType, bytes: file.bytes })) !== 'clean') throw ruleViolation(m.attachmentRejected.id, 'file')
  return { name, contentType }
}

const ID = /^[0-9a-f-]{36}$/i

export function attachmentStore(dir: string) {
  const path = (messageId: string, id: string) => {
    if (!ID.test(messageId) || !ID.test(id)) throw new Error('bad attachment id')
    return join(dir, messageId, id)
  }
  return {
    write(messageId: string, id: string, bytes: Uint8Array) {
      mkdirSync(join(dir, messageId), { recursive: true })
      writeFileSync(path(messageId, id), bytes, { mode: 0o600 })
    },
    read: (messageId: string, id: string): Buffer => readFileSync(path(messageId, id)),
    /** Removes a file, and its message's folder once empty. */
    remove: (messageId: string, id: string) => {
      rmSync(path(messageId, id), { force: true })
      try {
        rmdirSync(join(dir, messageId))
      } catch {
        // Not empty (the message's other attachments), or gone already.
      }
    },
    /** Every stored file, with when it was last written (for the sweep); none when nothing was stored yet. */
    async list(): Promise<{ messageId: string; id: string; writtenAt: number }[]> {
      const found: { messageId: string; id: string; writtenAt: number }[] = []
      const folders = await readdir(dir).catch(() => [])
      for (const messageId of folders.filter((m) => ID.test(m)))
        for (const id of (await readdir(join(dir, messageId)).catch(() => [])).filter((f) => ID.test(f)))
          found.push({ messageId, id, writtenAt: (await stat(path(messageId, id))).mtimeMs })
      return found
    },
  }
}
export type AttachmentStore = ReturnType<typeof attachmentStore>

/**
 * Removes the stored files no row refers to (`kept` answers which of some file ids a row still
 * names): a deleted row's, a replaced file's, an upload whose transaction rolled back. Only files
 * written more than `graceMs` ago (real time, as the files' own), so an upload between its write
 * and its commit keeps its file. Answers how many were removed.
 */
export async function sweepStore(store: AttachmentStore, kept: (ids: string[]) => Promise<Set<string>>, graceMs: number): Promise<number> {
  const settled = (await store.list()).filter((f) => f.writtenAt < Date.now() - graceMs)
  let removed = 0
  for (let from = 0; from < settled.length; from += 500) {
    const batch = settled.slice(from, from + 500)
    const still = await kept(batch.map((f) => f.id))
    for (const f of batch.filter((f) => !still.has(f.id))) {
      store.remove(f.messageId, f.id)
      removed++
    }
  }
  return removed
}

const startsWith = (bytes: Uint8Array, ...sig: number[]) => sig.every((b, i) => bytes[i] === b)

/**
 * The content type of an allowed file, judged by its extension and checked against its first
 * bytes where the format has a signature; undefined when the file is not allowed.
 */
export function allowedType(name: string, bytes: Uint8Array): string | undefined {
  const ext = name.toLowerCase().match(/\.([a-z0-9]+)$/)?.[1]
  const type = ext ? attachmentTypes[ext] : undefined
  if (!type) return undefined
  const ok: Record<string, () => boolean> = {
    'application/pdf': () => startsWith(bytes, 0x25, 0x50, 0x44, 0x46),
    'image/png': () => startsWith(bytes, 0x89, 0x50, 0x4e, 0x47),
    'image/jpeg': () => startsWith(bytes, 0xff, 0xd8, 0xff),
    'image/gif': () => startsWith(bytes, 0x47, 0x49, 0x46, 0x38),
    'image/webp': () => startsWith(bytes, 0x52, 0x49, 0x46, 0x46),
    // Office files are zip archives.
    [attachmentTypes.docx!]: () => startsWith(bytes, 0x50, 0x4b, 0x03, 0x04),
    [attachmentTypes.xlsx!]: () => startsWith(bytes, 0x50, 0x4b, 0x03, 0x04),
    'text/plain': () => !bytes.subarray(0, 4096).includes(0),
  }
  return ok[type]?.() ? type : undefined
}
