import { snapshot, type Db } from '../../db/client'
import { conflict, forbidden, notFound, ruleViolation, versionConflict } from '../../errors'
import { isoNow, type Clock } from '../../lib/clock'
import { newId } from '../../lib/ids'
import { decodeCursor, pageOf } from '../../http/paging'
import { RateLimiter } from '../../http/rate-limit'
import {
  LISTING_DAYS,
  MAX_LISTING_PHOTO_BYTES,
  isExpired,
  listingPhotoTypes,
  type ContactSellerRequest,
  type CreateListingRequest,
  type Listing,
  type ListingListQuery,
  type UpdateListingRequest,
} from '../../../shared/contract/market'
import { messages as m } from '../../../shared/i18n-messages'
import type { Actor } from '../../access/actor'
import { assertCompanyInScope } from '../companies'
import { isSuperAdmin, roleIn } from '../../access/policy'
import type { CompaniesService } from '../companies'
import type { Residency } from '../agreements'
import { sweepStore, type AttachmentScanner, type AttachmentStore, type StorageQuota } from '../../integrations/files/attachment-store'
import { FILE_SWEEP_GRACE_MS } from '../messages'
import type { NoticesService } from '../notifications'
import { recordChange } from '../sync'
import type { SyncedEntity } from '../sync'
import { marketRepository as repo, type ListingRow, type MarketScope } from './market.repository'
import { acceptPhoto } from './photo-upload'

const DAY_MS = 86_400_000
/** Messages one member may send about one listing in a day (besides the 10 an hour over all listings, in the route). */
export const CONTACTS_PER_LISTING_A_DAY = 3

const view = (r: ListingRow): Listing => ({
  id: r.id,
  companyId: r.companyId,
  kind: r.kind,
  title: r.title,
  description: r.description,
  priceOre: r.priceOre,
  status: r.status,
  seller: { id: r.sellerUserId, fullName: r.sellerName },
  photoId: r.photoId,
  expiresAt: r.expiresAt,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
  version: r.version,
})

export interface MarketServiceDeps {
  db: Db
  clock: Clock
  companies: CompaniesService
  residency: Residency
  notices: NoticesService
  files: AttachmentStore
  scanner: AttachmentScanner
  /** The association's storage quota, asked by every upload (docs/decisions/0082). */
  quota: StorageQuota
}

/**
 * The market of an association (docs/PRODUCT.md "Market", decision 0063). Its members
 * (residents with a living agreement, and its staff) list, read and contact; only the seller edits,
 * renews, changes the status, sets the photo; the seller, the association's staff (any role,
 * moderation) and the super admin delete. Another association's listing is 404.
 * "Expired" is computed from `expires_at` on read: the list leaves others' expired listings out.
 */
export class MarketService {
  // Counted synchronously between the listing's checks and the notice, so parallel requests cannot all pass.
  private readonly contactsPerListing

  constructor(private readonly deps: MarketServiceDeps) {
    this.contactsPerListing = new RateLimiter(this.deps.clock, CONTACTS_PER_LISTING_A_DAY, DAY_MS)
  }

  private now() {
    return isoNow(this.deps.clock)
  }

  private expiry() {
    return new Date(this.deps.clock.now().getTime() + LISTING_DAYS * DAY_MS).toISOString()
  }

  private expired(row: ListingRow) {
    return isExpired({ expiresAt: row.expiresAt, status: row.status }, this.deps.clock.now())
  }

  private async scopeOf(actor: Actor): Promise<MarketScope> {
    if (isSuperAdmin(actor)) return { all: true, companyIds: [] }
    return { all: false, companyIds: await this.deps.residency.memberCompanyIds(actor) }
  }

  /**
   * Throws unless the actor is a member of the association (its staff or a resident): who lists
   * things (the route's `act` too). 404 for an association they may not know, else 403.
   */
  async assertMayList(actor: Actor, companyId: string): Promise<void> {
    if (await this.isMember(actor, companyId)) return
    await assertCompanyInScope(this.deps.db, actor, companyId)
    throw forbidden(m.listingNotMember.id)
  }

  /** A member of the association: its staff (any role) or a resident with a living agreement. */
  private async isMember(actor: Actor, companyId: string) {
    return roleIn(actor, companyId) !== undefined || (await this.deps.residency.residentCompanyIds(actor.userId)).includes(companyId)
  }

  private async readable(actor: Actor, id: string): Promise<ListingRow> {
    const row = await repo.byId(this.deps.db, id)
    if (!row || !(isSuperAdmin(actor) || (await this.isMember(actor, row.companyId)))) throw notFound(m.listingNotFound.id)
    return row
  }

  /** The seller only (others who read it 403); `version` the If-Match. */
  private async sellers(actor: Actor, id: string, version?: number): Promise<ListingRow> {
    const row = await this.readable(actor, id)
    if (row.sellerUserId !== actor.userId) throw forbidden()
    if (version !== undefined && version !== row.version) throw versionConflict(view(row))
    await this.deps.companies.assertWritable(row.companyId)
    return row
  }

  /** The change for sync: one row the company's staff and residents read (decision 0073). */
  private async changed(row: Pick<ListingRow, 'id' | 'companyId'>, op: 'upsert' | 'delete') {
    await recordChange(this.deps.db, this.deps.clock, 'listing', row.id, op, { companyId: row.companyId, members: true })
  }

  private async current(id: string): Promise<Listing> {
    return view((await repo.byId(this.deps.db, id))!)
  }

  /** A page of a company's listings, newest first; others' expired listings are left out; another association's company is 404. */
  async list(actor: Actor, query: ListingListQuery): Promise<{ items: Listing[]; next: string | null }> {
    const after = decodeCursor(query.cursor, ['string', 'string'])
    return await snapshot(this.deps.db, async () => {
      await assertCompanyInScope(this.deps.db, actor, query.companyId)
      if (!isSuperAdmin(actor) && !(await this.isMember(actor, query.companyId))) throw notFound()
      const rows = await repo.listPage(
        this.deps.db,
        { companyId: query.companyId, kind: query.kind, userId: actor.userId, now: this.now() },
        after,
        query.limit + 1,
      )
      const page = pageOf(rows, query.limit, (r) => [r.createdAt, r.id])
      return { items: page.rows.map(view), next: page.next }
    })
  }

  /** A listing; an expired one only for its seller (others get 404, as the list leaves it out). */
  async view(actor: Actor, id: string): Promise<Listing> {
    const row = await this.readable(actor, id)
    if (this.expired(row) && row.sellerUserId !== actor.userId) throw notFound(m.listingNotFound.id)
    return view(row)
  }

  async create(actor: Actor, input: CreateListingRequest): Promise<Listing> {
    if (input.id) {
      const existing = await repo.byId(this.deps.db, input.id)
      if (existing) {
        if (!(isSuperAdmin(actor) || (await this.isMember(actor, existing.companyId)))) throw notFound(m.listingNotFound.id)
        // The same create sent again (a retry from the outbox) answers the stored one.
        if (existing.sellerUserId === actor.userId && existing.companyId === input.companyId && existing.title === input.title.trim()) return view(existing)
        throw conflict(m.billingRecordExists.id, 'id')
      }
    }
    await this.assertMayList(actor, input.companyId)
    await this.deps.companies.assertWritable(input.companyId)
    const at = this.now()
    const id = input.id ?? newId()
    const row = {
      id,
      companyId: input.companyId,
      sellerUserId: actor.userId,
      sellerName: actor.fullName,
      kind: input.kind,
      title: input.title.trim(),
      description: (input.description ?? '').trim(),
      priceOre: input.kind === 'BUY' ? (input.priceOre ?? null) : null,
      status: 'AVAILABLE' as const,
      expiresAt: this.expiry(),
      createdAt: at,
      updatedAt: at,
    }
    await repo.insert(this.deps.db, row)
    await this.changed(row, 'upsert')
    return await this.current(id)
  }

  /** The seller's changes: title, description, price (BUY only), status. */
  async update(actor: Actor, id: string, input: UpdateListingRequest, version?: number): Promise<Listing> {
    const row = await this.sellers(actor, id, version)
    if (input.priceOre !== undefined) {
      if (row.kind === 'BUY' && input.priceOre === null) throw ruleViolation(m.listingPriceRequired.id, 'priceOre')
      if (row.kind !== 'BUY' && input.priceOre !== null) throw ruleViolation(m.listingPriceOnlyForSale.id, 'priceOre')
    }
    const fields = {
      ...(input.title !== undefined ? { title: input.title.trim() } : {}),
      ...(input.description !== undefined ? { description: input.description.trim() } : {}),
      ...(input.priceOre !== undefined ? { priceOre: input.priceOre } : {}),
      ...(input.status !== undefined ? { status: input.status, reservedByUserId: null } : {}),
    }
    if (Object.entries(fields).every(([k, v]) => row[k as keyof typeof fields] === v)) return view(row)
    await repo.update(this.deps.db, id, { ...fields, updatedAt: this.now() })
    await this.changed(row, 'upsert')
    return await this.current(id)
  }

  /** Another 30 days from now (the status stays as it is). */
  async renew(actor: Actor, id: string, version?: number): Promise<Listing> {
    const row = await this.sellers(actor, id, version)
    if (row.status === 'GONE') throw ruleViolation(m.listingGoneNoRenew.id)
    await repo.update(this.deps.db, id, { expiresAt: this.expiry(), updatedAt: this.now() })
    await this.changed(row, 'upsert')
    return await this.current(id)
  }

  /** The seller, the association's staff (moderation) or the super admin; its photo goes with the next sweep. */
  async remove(actor: Actor, id: string, version?: number): Promise<void> {
    const row = await this.readable(actor, id)
    if (row.sellerUserId !== actor.userId && !isSuperAdmin(actor) && !roleIn(actor, row.companyId)) throw forbidden()
    if (version !== undefined && version !== row.version) throw versionConflict(view(row))
    await this.deps.companies.assertWritable(row.companyId)
    await repo.delete(this.deps.db, id)
    await this.changed(row, 'delete')
  }

  /** One photo per listing (the seller; an image of at most 5 MB, scanned); replacing gives it a new id. */
  async setPhoto(actor: Actor, id: string, file: { name: string; bytes: Uint8Array }, version?: number): Promise<Listing> {
    const row = await this.sellers(actor, id, version)
    if (file.bytes.byteLength === 0) throw ruleViolation(m.documentFileRequired.id, 'file')
    if (file.bytes.byteLength > MAX_LISTING_PHOTO_BYTES) throw ruleViolation(m.listingPhotoTooLarge.id, 'file')
    const contentType = await acceptPhoto(this.deps.scanner, file, listingPhotoTypes, {
      quota: this.deps.quota,
      companyId: row.companyId,
      replacing: row.photoSize ?? 0,
    })
    const photoId = newId()
    this.deps.files.write(id, photoId, file.bytes)
    await repo.update(this.deps.db, id, { photoId, photoContentType: contentType, photoSize: file.bytes.byteLength, updatedAt: this.now() })
    await this.changed(row, 'upsert')
    return await this.current(id)
  }

  async photo(actor: Actor, id: string) {
    const row = await this.readable(actor, id)
    if (!row.photoId) throw notFound(m.listingNotFound.id)
    return { contentType: row.photoContentType!, photoId: row.photoId, bytes: this.deps.files.read(id, row.photoId) }
  }

  /** "Write to the seller": the seller is told in-app and by e-mail, in their language, with the writer's name, e-mail and text. */
  async contact(actor: Actor, id: string, input: ContactSellerRequest): Promise<void> {
    const row = await this.readable(actor, id)
    if (row.sellerUserId === actor.userId) throw ruleViolation(m.listingOwnContact.id)
    if (!row.sellerUserId) throw notFound(m.listingNotFound.id)
    if (row.status === 'GONE' || this.expired(row)) throw ruleViolation(m.listingNoLongerAvailable.id)
    this.contactsPerListing.hit(`${actor.userId}:${row.id}`)
    await this.deps.notices.tell(row.sellerUserId, {
      type: 'info',
      title: /*i18n*/ { id: '{name} wrote about your listing “{title}”' },
      message: /*i18n*/ { id: '{name} ({email}) wrote: “{text}” Reply to them by e-mail.' },
      values: { name: actor.fullName, email: actor.emailAddress, title: row.title, text: input.text.trim() },
      actionUrl: `/markets/listing/${row.id}`,
      actionText: /*i18n*/ { id: 'Open listing' },
    })
  }

  /** The bytes of the company's listing photos (the storage quota's part, docs/decisions/0082). */
  async storedBytes(companyId: string): Promise<number> {
    return await repo.storedBytes(this.deps.db, companyId)
  }

  /** Removes the stored photos no listing refers to; housekeeping runs it. */
  async sweepFiles(graceMs = FILE_SWEEP_GRACE_MS): Promise<number> {
    return await sweepStore(this.deps.files, async (ids) => await repo.photoIds(this.deps.db, ids), graceMs)
  }

  /** Sync: the listings of the associations the actor is a member of (expired ones too; the client hides others'). */
  syncEntity(): SyncedEntity {
    return {
      name: 'listing',
      snapshot: async (db, actor, afterId, limit) => (await repo.syncPage(db, await this.scopeOf(actor), afterId, limit)).map(synced),
      load: async (db, actor, ids) => (await repo.byIds(db, await this.scopeOf(actor), ids)).map(synced),
    }
  }
}

export const createMarketService = (deps: MarketServiceDeps) => new MarketService(deps)

const synced = (r: ListingRow) => {
  const l = view(r)
  return { id: l.id, version: l.version, data: l as unknown as Record<string, unknown> }
}
