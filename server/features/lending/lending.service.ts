import { snapshot, type Db } from '../../db/client'
import { conflict, forbidden, notFound, ruleViolation, versionConflict } from '../../errors'
import { isoNow, type Clock } from '../../lib/clock'
import { newId } from '../../lib/ids'
import { decodeCursor, pageOf } from '../../http/paging'
import {
  MAX_ITEM_PHOTO_BYTES,
  itemPhotoTypes,
  type CreateLendingItemRequest,
  type LendingItem,
  type LendingItemListQuery,
  type UpdateLendingItemRequest,
} from '../../../shared/contract/lending'
import { messages as m } from '../../../shared/i18n-messages'
import type { Actor } from '../../access/actor'
import { assertCompanyInScope } from '../companies'
import { isSuperAdmin, roleIn } from '../../access/policy'
import type { CompaniesService } from '../companies'
import type { Residency } from '../agreements'
import { sweepStore, type AttachmentScanner, type AttachmentStore, type StorageQuota } from '../../integrations/files/attachment-store'
import { FILE_SWEEP_GRACE_MS } from '../messages'
import { recordChange } from '../sync'
import type { SyncedEntity } from '../sync'
import { acceptPhoto } from '../market'
import { lendingAccess } from './lending-access'
import { lendingRepository as repo, type ItemRow } from './lending.repository'

export const itemView = (r: ItemRow): LendingItem => ({
  id: r.id,
  companyId: r.companyId,
  lender: { kind: r.lenderKind, id: r.lenderUserId, fullName: r.lenderName },
  title: r.title,
  description: r.description,
  rules: r.rules,
  location: r.location,
  depositOre: r.depositOre,
  photoId: r.photoId,
  archivedAt: r.archivedAt,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
  version: r.version,
})

export interface LendingServiceDeps {
  db: Db
  clock: Clock
  companies: CompaniesService
  residency: Residency
  files: AttachmentStore
  scanner: AttachmentScanner
  /** The association's storage quota, asked by every upload (docs/decisions/0082). */
  quota: StorageQuota
}

/**
 * The things an association's members lend (docs/PRODUCT.md "Lending", decision 0064).
 * Any member lists an item as theirs; the administration (company admin staff) lists the
 * association's. The lender edits it and sets its photo; the lender, the association's staff
 * (moderation) and the super admin delete it once no loan of it is open: an item that has loans is
 * archived instead (hidden from the list and new requests; its loans stay readable to their parties
 * and the staff), one that never had any is deleted.
 */
export class LendingService {
  readonly access

  constructor(private readonly deps: LendingServiceDeps) {
    this.access = lendingAccess(this.deps.db, this.deps.residency)
  }

  private now() {
    return isoNow(this.deps.clock)
  }

  private async lenders(actor: Actor, id: string, version?: number): Promise<ItemRow> {
    const row = await this.access.readableItem(actor, id)
    if (!this.access.isLender(actor, row)) throw forbidden()
    if (version !== undefined && version !== row.version) throw versionConflict(itemView(row))
    await this.deps.companies.assertWritable(row.companyId)
    return row
  }

  /** The change for sync: one row the company's staff and residents read (decision 0073). */
  private async changed(row: Pick<ItemRow, 'id' | 'companyId'>, op: 'upsert' | 'delete') {
    await recordChange(this.deps.db, this.deps.clock, 'lendingItem', row.id, op, { companyId: row.companyId, members: true })
  }

  private async current(id: string) {
    return itemView((await repo.item(this.deps.db, id))!)
  }

  /** A page of a company's items, newest first; another association's company is 404. */
  async list(actor: Actor, query: LendingItemListQuery): Promise<{ items: LendingItem[]; next: string | null }> {
    const after = decodeCursor(query.cursor, ['string', 'string'])
    return await snapshot(this.deps.db, async () => {
      await assertCompanyInScope(this.deps.db, actor, query.companyId)
      if (!isSuperAdmin(actor) && !(await this.access.isMember(actor, query.companyId))) throw notFound()
      const page = pageOf(await repo.itemPage(this.deps.db, query.companyId, after, query.limit + 1), query.limit, (r) => [r.createdAt, r.id])
      return { items: page.rows.map(itemView), next: page.next }
    })
  }

  async view(actor: Actor, id: string): Promise<LendingItem> {
    return itemView(await this.access.readableItem(actor, id))
  }

  /**
   * Throws unless the actor may lend an item in the association: a member (its staff or a
   * resident), and for the association itself its admin staff; 404 for an association they may not
   * know, else 403. The route's `act` too (server/access/scope.ts).
   */
  async assertMayLend(actor: Actor, companyId: string, forAssociation: boolean): Promise<void> {
    if (!(await this.access.isMember(actor, companyId))) {
      await assertCompanyInScope(this.deps.db, actor, companyId)
      throw forbidden(m.lendingNotMember.id)
    }
    if (forAssociation && !this.access.lendsForAssociation(actor, companyId)) throw forbidden(m.lendingAssociationOnlyStaff.id)
  }

  async create(actor: Actor, input: CreateLendingItemRequest): Promise<LendingItem> {
    const title = input.title.trim()
    if (input.id) {
      const existing = await repo.item(this.deps.db, input.id)
      if (existing) {
        await this.access.readableItem(actor, existing.id)
        // The same create sent again (a retry from the outbox) answers the stored one.
        if (existing.companyId === input.companyId && existing.title === title && this.access.isLender(actor, existing)) return itemView(existing)
        throw conflict(m.billingRecordExists.id, 'id')
      }
    }
    const association = input.lender === 'ASSOCIATION'
    await this.assertMayLend(actor, input.companyId, association)
    await this.deps.companies.assertWritable(input.companyId)
    const company = association ? await this.deps.companies.byId(input.companyId) : undefined
    const at = this.now()
    const row = {
      id: input.id ?? newId(),
      companyId: input.companyId,
      lenderKind: association ? ('ASSOCIATION' as const) : ('MEMBER' as const),
      lenderUserId: association ? null : actor.userId,
      lenderName: association ? (company?.name ?? actor.fullName) : actor.fullName,
      title,
      description: (input.description ?? '').trim(),
      rules: (input.rules ?? '').trim(),
      location: (input.location ?? '').trim(),
      depositOre: input.depositOre ?? null,
      createdAt: at,
      updatedAt: at,
    }
    await repo.insertItem(this.deps.db, row)
    await this.changed(row, 'upsert')
    return await this.current(row.id)
  }

  /** The lender's changes (a new deposit applies to loans requested after it). */
  async update(actor: Actor, id: string, input: UpdateLendingItemRequest, version?: number): Promise<LendingItem> {
    const row = await this.lenders(actor, id, version)
    const fields = {
      ...(input.title !== undefined ? { title: input.title.trim() } : {}),
      ...(input.description !== undefined ? { description: input.description.trim() } : {}),
      ...(input.rules !== undefined ? { rules: input.rules.trim() } : {}),
      ...(input.location !== undefined ? { location: input.location.trim() } : {}),
      ...(input.depositOre !== undefined ? { depositOre: input.depositOre } : {}),
    }
    if (Object.entries(fields).every(([k, v]) => row[k as keyof typeof fields] === v)) return itemView(row)
    await repo.updateItem(this.deps.db, id, { ...fields, updatedAt: this.now() })
    await this.changed(row, 'upsert')
    return await this.current(id)
  }

  /** The lender, the association's staff (moderation) or the super admin, once no loan of it is open; its photo goes with the next sweep. */
  async remove(actor: Actor, id: string, version?: number): Promise<void> {
    const row = await this.access.readableItem(actor, id)
    if (!this.access.isLender(actor, row) && !isSuperAdmin(actor) && !roleIn(actor, row.companyId)) throw forbidden()
    if (version !== undefined && version !== row.version) throw versionConflict(itemView(row))
    await this.deps.companies.assertWritable(row.companyId)
    if (await repo.hasOpenLoans(this.deps.db, id)) throw ruleViolation(m.lendingItemHasLoans.id)
    // With loans it is archived (they, their deposits and history stay readable); without, deleted.
    if (await repo.hasLoans(this.deps.db, id)) {
      if (row.archivedAt) return
      await repo.updateItem(this.deps.db, id, { archivedAt: this.now(), updatedAt: this.now() })
      return await this.changed(row, 'upsert')
    }
    await repo.deleteItem(this.deps.db, id)
    await this.changed(row, 'delete')
  }

  /** One photo per item (the lender; an image of at most 5 MB, scanned); replacing gives it a new id. */
  async setPhoto(actor: Actor, id: string, file: { name: string; bytes: Uint8Array }, version?: number): Promise<LendingItem> {
    const row = await this.lenders(actor, id, version)
    if (file.bytes.byteLength === 0) throw ruleViolation(m.documentFileRequired.id, 'file')
    if (file.bytes.byteLength > MAX_ITEM_PHOTO_BYTES) throw ruleViolation(m.listingPhotoTooLarge.id, 'file')
    const contentType = await acceptPhoto(this.deps.scanner, file, itemPhotoTypes, {
      quota: this.deps.quota,
      companyId: row.companyId,
      replacing: row.photoSize ?? 0,
    })
    const photoId = newId()
    this.deps.files.write(id, photoId, file.bytes)
    await repo.updateItem(this.deps.db, id, { photoId, photoContentType: contentType, photoSize: file.bytes.byteLength, updatedAt: this.now() })
    await this.changed(row, 'upsert')
    return await this.current(id)
  }

  async photo(actor: Actor, id: string) {
    const row = await this.access.readableItem(actor, id)
    if (!row.photoId) throw notFound(m.lendingItemNotFound.id)
    return { contentType: row.photoContentType!, photoId: row.photoId, bytes: this.deps.files.read(id, row.photoId) }
  }

  /** The bytes of the company's item photos (the storage quota's part, docs/decisions/0082). */
  async storedBytes(companyId: string): Promise<number> {
    return await repo.storedBytes(this.deps.db, companyId)
  }

  /** Removes the stored photos no item refers to; housekeeping runs it. */
  async sweepFiles(graceMs = FILE_SWEEP_GRACE_MS): Promise<number> {
    return await sweepStore(this.deps.files, async (ids) => await repo.photoIds(this.deps.db, ids), graceMs)
  }

  /** Sync: the items of the associations the actor is a member of. */
  syncEntity(): SyncedEntity {
    const synced = (r: ItemRow) => ({ id: r.id, version: r.version, data: itemView(r) as unknown as Record<string, unknown> })
    return {
      name: 'lendingItem',
      snapshot: async (db, actor, afterId, limit) => (await repo.itemSyncPage(db, await this.access.scopeOf(actor), afterId, limit)).map(synced),
      load: async (db, actor, ids) => (await repo.itemsByIds(db, await this.access.scopeOf(actor), ids)).map(synced),
    }
  }
}

export const createLendingService = (deps: LendingServiceDeps) => new LendingService(deps)
