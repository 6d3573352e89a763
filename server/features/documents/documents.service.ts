import { snapshot, type Db } from '../../db/client'
import { forbidden, notFound, ruleViolation, versionConflict } from '../../errors'
import { isoNow, type Clock } from '../../lib/clock'
import { newId, sha256 } from '../../lib/ids'
import { decodeCursor, pageOf } from '../../http/paging'
import {
  MAX_DOCUMENT_BYTES,
  type Document,
  type DocumentAudience,
  type DocumentEvent,
  type DocumentListQuery,
  type DocumentUploadFields,
  type UpdateDocumentRequest,
} from '../../../shared/contract/documents'
import { isCompanyAdminStaff } from '../../../shared/domain/roles'
import { messages as m } from '../../../shared/i18n-messages'
import type { Actor } from '../../access/actor'
import { assertCompanyInScope } from '../companies'
import { isSuperAdmin, roleIn } from '../../access/policy'
import type { CompaniesService } from '../companies'
import type { AssembliesService } from '../assemblies'
import type { Residency } from '../agreements'
import { acceptUpload, sweepStore, type AttachmentScanner, type AttachmentStore, type StorageQuota } from '../../integrations/files/attachment-store'
import { FILE_SWEEP_GRACE_MS } from '../messages'
import { recordChange } from '../sync'
import type { SyncedEntity } from '../sync'
import { documentsRepository as repo, type DocumentRow, type DocumentScope } from './documents.repository'

type WithUploader = { document: DocumentRow; uploaderName: string | null }

const view = ({ document: d, uploaderName }: WithUploader): Document => ({
  id: d.id,
  companyId: d.companyId,
  title: d.title,
  category: d.category,
  audience: d.audience,
  assemblyId: d.assemblyId,
  fileId: d.fileId,
  fileName: d.fileName,
  contentType: d.contentType,
  size: d.size,
  uploadedBy: d.uploadedByUserId ? { id: d.uploadedByUserId, fullName: uploaderName ?? '' } : null,
  createdAt: d.createdAt,
  updatedAt: d.updatedAt,
  version: d.version,
})

/** The audiences a company role reads: the administration every one, a board member the members' and the board's. */
const audiencesOf = (actor: Actor, companyId: string): readonly DocumentAudience[] => {
  if (isSuperAdmin(actor)) return ['MEMBERS', 'BOARD', 'STAFF']
  const role = roleIn(actor, companyId)
  if (!role) return []
  return isCompanyAdminStaff(role) ? ['MEMBERS', 'BOARD', 'STAFF'] : ['MEMBERS', 'BOARD']
}

/**
 * Documents of an association (docs/PRODUCT.md "Documents", decision 0062). Staff (every
 * company role) and the super admin upload, edit, replace and delete them; who reads one is its
 * audience. Every change is written to the audit trail (`document_events`) in the same transaction.
 * Another association's document, or one the caller may not read, is 404.
 */

export interface DocumentsServiceDeps {
  db: Db
  clock: Clock
  companies: CompaniesService
  /** The association of the assembly a document is filed under. */
  assemblies: Pick<AssembliesService, 'companyOf'>
  residency: Residency
  files: AttachmentStore
  scanner: AttachmentScanner
  /** The association's storage quota, asked by every upload (docs/decisions/0082). */
  quota: StorageQuota
}

function assertMayUploadTo(actor: Actor, companyId: string, audience: DocumentAudience) {
  if (!audiencesOf(actor, companyId).includes(audience)) throw ruleViolation(m.documentAudienceNotYours.id, 'audience')
}

export class DocumentsService {
  constructor(private readonly deps: DocumentsServiceDeps) {}

  private now() {
    return isoNow(this.deps.clock)
  }

  private async scopeOf(actor: Actor): Promise<DocumentScope> {
    const admin: string[] = []
    const board: string[] = []
    for (const c of actor.companies) (isCompanyAdminStaff(c.role) ? admin : board).push(c.id)
    return { all: isSuperAdmin(actor), admin, board, resident: isSuperAdmin(actor) ? [] : await this.deps.residency.residentCompanyIds(actor.userId) }
  }

  private async mayRead(actor: Actor, row: DocumentRow): Promise<boolean> {
    if (audiencesOf(actor, row.companyId).includes(row.audience)) return true
    return row.audience === 'MEMBERS' && (await this.deps.residency.residentCompanyIds(actor.userId)).includes(row.companyId)
  }

  private async readable(actor: Actor, id: string): Promise<DocumentRow> {
    const row = await repo.byId(this.deps.db, id)
    if (!row || !(await this.mayRead(actor, row))) throw notFound(m.documentNotFound.id)
    return row
  }

  /** Staff of the company (every role) or the super admin; a resident who reads it may not change it (403); anyone else 404. */
  private async writable(actor: Actor, id: string, version?: number): Promise<DocumentRow> {
    const row = await this.readable(actor, id)
    if (!isSuperAdmin(actor) && !roleIn(actor, row.companyId)) throw forbidden()
    if (version !== undefined && version !== row.version) throw versionConflict(view((await repo.withUploader(this.deps.db, id))!))
    await this.deps.companies.assertWritable(row.companyId)
    return row
  }

  private async assertAssemblyOf(companyId: string, assemblyId: string | null | undefined) {
    if (assemblyId && (await this.deps.assemblies.companyOf(assemblyId)) !== companyId) throw ruleViolation(m.documentAssemblyNotInCompany.id, 'assemblyId')
  }

  /** The upload's checks, with room in the company's storage quota (the replaced file's bytes stop counting). */
  private async checkedFile(companyId: string, file: { name: string; bytes: Uint8Array }, replacing?: number) {
    if (file.bytes.byteLength === 0) throw ruleViolation(m.documentFileRequired.id, 'file')
    if (file.bytes.byteLength > MAX_DOCUMENT_BYTES) throw ruleViolation(m.documentTooLarge.id, 'file')
    return await acceptUpload(this.deps.scanner, file, { quota: this.deps.quota, companyId, replacing })
  }

  /**
   * The change for sync: the company's staff; its residents too when the document is, or was until
   * now, for every member (a resident who loses sight of it gets its delete: the pull reads it
   * through the document's own visibility).
   */
  private async changed(row: Pick<DocumentRow, 'id' | 'companyId' | 'audience'>, op: 'upsert' | 'delete', before?: DocumentAudience) {
    const members = row.audience === 'MEMBERS' || before === 'MEMBERS'
    await recordChange(this.deps.db, this.deps.clock, 'document', row.id, op, { companyId: row.companyId, ...(members && { members: true as const }) })
  }

  private async audit(
    actor: Actor,
    row: Pick<DocumentRow, 'id' | 'companyId' | 'title'>,
    action: DocumentEvent['action'],
    details: Record<string, unknown> | null,
  ) {
    await repo.insertEvent(this.deps.db, {
      id: newId(),
      companyId: row.companyId,
      documentId: row.id,
      userId: actor.userId,
      userName: actor.fullName,
      action,
      title: row.title,
      details,
      createdAt: this.now(),
    })
  }

  private async current(id: string): Promise<Document> {
    return view((await repo.withUploader(this.deps.db, id))!)
  }

  /** A page of a company's documents the caller reads, newest first; another association's company is 404. */
  async list(actor: Actor, query: DocumentListQuery): Promise<{ items: Document[]; next: string | null }> {
    const after = decodeCursor(query.cursor, ['string', 'string'])
    return await snapshot(this.deps.db, async () => {
      await assertCompanyInScope(this.deps.db, actor, query.companyId)
      const rows = await repo.listPage(this.deps.db, await this.scopeOf(actor), query, after, query.limit + 1)
      const page = pageOf(rows, query.limit, (r) => [r.document.createdAt, r.document.id])
      return { items: page.rows.map(view), next: page.next }
    })
  }

  async view(actor: Actor, id: string): Promise<Document> {
    await this.readable(actor, id)
    return await this.current(id)
  }

  async upload(actor: Actor, fields: DocumentUploadFields, file: { name: string; bytes: Uint8Array }): Promise<Document> {
    if (!isSuperAdmin(actor) && !roleIn(actor, fields.companyId)) {
      await assertCompanyInScope(this.deps.db, actor, fields.companyId)
      throw forbidden()
    }
    await this.deps.companies.assertWritable(fields.companyId)
    assertMayUploadTo(actor, fields.companyId, fields.audience)
    await this.assertAssemblyOf(fields.companyId, fields.assemblyId)
    const { name, contentType } = await this.checkedFile(fields.companyId, file)
    const id = newId()
    const fileId = newId()
    // Written before the row: a rollback leaves an orphan file (swept), never a row without bytes.
    this.deps.files.write(id, fileId, file.bytes)
    const at = this.now()
    const row = {
      id,
      companyId: fields.companyId,
      title: fields.title,
      category: fields.category,
      audience: fields.audience,
      assemblyId: fields.assemblyId ?? null,
      fileId,
      fileName: name,
      contentType,
      size: file.bytes.byteLength,
      sha256: sha256(Buffer.from(file.bytes).toString('binary')),
      uploadedByUserId: actor.userId,
      createdAt: at,
      updatedAt: at,
    }
    await repo.insert(this.deps.db, row)
    await this.audit(actor, row, 'UPLOADED', { fileName: name, size: row.size, category: row.category, audience: row.audience })
    await this.changed(row, 'upsert')
    return await this.current(id)
  }

  async update(actor: Actor, id: string, input: UpdateDocumentRequest, version?: number): Promise<Document> {
    const row = await this.writable(actor, id, version)
    if (input.audience) assertMayUploadTo(actor, row.companyId, input.audience)
    if (input.assemblyId !== undefined) await this.assertAssemblyOf(row.companyId, input.assemblyId)
    const fields = {
      ...(input.title !== undefined ? { title: input.title } : {}),
      ...(input.category !== undefined ? { category: input.category } : {}),
      ...(input.audience !== undefined ? { audience: input.audience } : {}),
      ...(input.assemblyId !== undefined ? { assemblyId: input.assemblyId } : {}),
    }
    const details = Object.fromEntries(
      Object.entries(fields)
        .filter(([k, v]) => row[k as keyof typeof fields] !== v)
        .map(([k, v]) => [k, [row[k as keyof typeof fields], v]]),
    )
    if (Object.keys(details).length === 0) return await this.current(id)
    await repo.update(this.deps.db, id, { ...fields, updatedAt: this.now() })
    const after = (await repo.byId(this.deps.db, id))!
    await this.audit(actor, after, 'EDITED', details)
    await this.changed(after, 'upsert', row.audience)
    return await this.current(id)
  }

  /** A new file for the document (a new `fileId`); the old file goes with the next sweep. */
  async replaceFile(actor: Actor, id: string, file: { name: string; bytes: Uint8Array }, version?: number): Promise<Document> {
    const row = await this.writable(actor, id, version)
    const { name, contentType } = await this.checkedFile(row.companyId, file, row.size)
    const fileId = newId()
    this.deps.files.write(id, fileId, file.bytes)
    await repo.update(this.deps.db, id, {
      fileId,
      fileName: name,
      contentType,
      size: file.bytes.byteLength,
      sha256: sha256(Buffer.from(file.bytes).toString('binary')),
      updatedAt: this.now(),
    })
    await this.audit(actor, row, 'REPLACED', { fileName: [row.fileName, name], size: [row.size, file.bytes.byteLength] })
    await this.changed(row, 'upsert')
    return await this.current(id)
  }

  /** Deletes the document (its file goes with the next sweep); the audit trail keeps the deletion. */
  async remove(actor: Actor, id: string, version?: number): Promise<void> {
    const row = await this.writable(actor, id, version)
    await repo.delete(this.deps.db, id)
    await this.audit(actor, row, 'DELETED', { fileName: row.fileName })
    await this.changed(row, 'delete')
  }

  /** The file, for those who read the document (404 otherwise). */
  async file(actor: Actor, id: string) {
    const row = await this.readable(actor, id)
    return { name: row.fileName, contentType: row.contentType, fileId: row.fileId, bytes: this.deps.files.read(id, row.fileId) }
  }

  /** Who uploaded and changed the document: for the company's staff and the super admin. */
  async history(actor: Actor, id: string): Promise<DocumentEvent[]> {
    const row = await this.readable(actor, id)
    if (!isSuperAdmin(actor) && !roleIn(actor, row.companyId)) throw forbidden()
    return (await repo.events(this.deps.db, id)).map((e) => ({
      id: e.id,
      documentId: e.documentId,
      action: e.action,
      title: e.title,
      user: { id: e.userId, fullName: e.userName },
      details: e.details ?? null,
      createdAt: e.createdAt,
    }))
  }

  /** The bytes of the company's document files (the storage quota's part, docs/decisions/0082). */
  async storedBytes(companyId: string): Promise<number> {
    return await repo.storedBytes(this.deps.db, companyId)
  }

  /** Removes the stored files no document refers to (attachment-store.ts `sweepStore`); housekeeping runs it. */
  async sweepFiles(graceMs = FILE_SWEEP_GRACE_MS): Promise<number> {
    return await sweepStore(this.deps.files, async (ids) => await repo.fileIds(this.deps.db, ids), graceMs)
  }

  /** Sync: the documents the actor reads. */
  syncEntity(): SyncedEntity {
    return {
      name: 'document',
      snapshot: async (db, actor, afterId, limit) => (await repo.syncPage(db, await this.scopeOf(actor), afterId, limit)).map(synced),
      load: async (db, actor, ids) => (await repo.byIds(db, await this.scopeOf(actor), ids)).map(synced),
    }
  }
}

export const createDocumentsService = (deps: DocumentsServiceDeps) => new DocumentsService(deps)

const synced = (r: WithUploader) => {
  const d = view(r)
  return { id: d.id, version: d.version, data: d as unknown as Record<string, unknown> }
}
