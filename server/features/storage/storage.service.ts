import { snapshot, type Db } from '../../db/client'
import { DomainError, forbidden } from '../../errors'
import { isoNow, type Clock } from '../../lib/clock'
import type { Actor } from '../../access/actor'
import { isSuperAdmin, roleIn } from '../../access/policy'
import type { StorageQuota } from '../../integrations/files/attachment-store'
import type { StorageUsage } from '../../../shared/contract/storage'
import { messages as m } from '../../../shared/i18n-messages'
import { assertCompanyInScope, type CompaniesService } from '../companies'
import { storageRepository as repo } from './storage.repository'

/** The bytes one kind of file of an association takes, each answered by the module that keeps them in one statement. */
export type StoredBytes = (companyId: string) => Promise<number>

export interface StorageServiceDeps {
  db: Db
  clock: Clock
  /** STORAGE_QUOTA_MB in bytes: the quota of an association without its own. */
  defaultQuotaBytes: number
  companies: Pick<CompaniesService, 'assertWritable'>
  /** Every kind of stored file: documents, message and article attachments, market and lending photos. */
  parts: Record<string, StoredBytes>
}

/**
 * The storage quota per association (docs/PRODUCT.md "Storage", docs/decisions/0082). What an
 * association uses is summed from its files' own rows when asked, one statement per kind: nothing
 * to keep in step, so a deleted file, an erased member's photos or a replaced file count no more
 * the moment their rows go. An upload asks `assertRoom` inside its write transaction before it
 * writes the file: on SQLite the write lock makes uploads one at a time, on PostgreSQL the
 * transaction is SERIALIZABLE, so of two uploads at once that together pass the quota one is run
 * again and then refused.
 */
export class StorageService implements StorageQuota {
  constructor(private readonly deps: StorageServiceDeps) {}

  private async quotaOf(companyId: string): Promise<{ quotaBytes: number; ownQuota: boolean }> {
    const own = await repo.quotaOf(this.deps.db, companyId)
    return own === undefined ? { quotaBytes: this.deps.defaultQuotaBytes, ownQuota: false } : { quotaBytes: own, ownQuota: true }
  }

  /** The bytes the association's files take, every kind (one statement each). */
  async usedBy(companyId: string): Promise<number> {
    let used = 0
    for (const part of Object.values(this.deps.parts)) used += await part(companyId)
    return used
  }

  private async current(companyId: string): Promise<StorageUsage> {
    return { companyId, usedBytes: await this.usedBy(companyId), ...(await this.quotaOf(companyId)) }
  }

  /**
   * Refuses (422 on `file`) a file of `bytes` that would take the association past its quota;
   * `replacing`: the bytes of the file it takes the place of, which stop counting.
   */
  assertRoom = async (companyId: string, bytes: number, replacing = 0): Promise<void> => {
    const { usedBytes, quotaBytes } = await this.current(companyId)
    if (usedBytes - replacing + bytes <= quotaBytes) return
    const values = { used: { bytes: usedBytes }, quota: { bytes: quotaBytes }, size: { bytes } }
    throw new DomainError('BUSINESS_RULE', m.storageFull.id, { values, issues: [{ path: 'file', message: m.storageFull.id, values }] })
  }

  /** What the association's files take of its quota: for its staff (every company role) and the super admin; a resident 403, anyone else 404. */
  async usage(actor: Actor, companyId: string): Promise<StorageUsage> {
    return await snapshot(this.deps.db, async () => {
      await assertCompanyInScope(this.deps.db, actor, companyId)
      if (!isSuperAdmin(actor) && !roleIn(actor, companyId)) throw forbidden()
      return await this.current(companyId)
    })
  }

  /** The super admin sets the association's own quota, or (null) gives it the default again. */
  async setQuota(actor: Actor, companyId: string, quotaBytes: number | null): Promise<StorageUsage> {
    if (!isSuperAdmin(actor)) throw forbidden()
    await this.deps.companies.assertWritable(companyId)
    if (quotaBytes === null) await repo.clearQuota(this.deps.db, companyId)
    else await repo.setQuota(this.deps.db, companyId, quotaBytes, isoNow(this.deps.clock))
    return await this.current(companyId)
  }
}

export const createStorageService = (deps: StorageServiceDeps) => new StorageService(deps)
