/**
 * The association's storage (docs/PRODUCT.md "Storage", docs/decisions/0082): what its files take of
 * its quota, read online (the server sums every kind of file; nothing of it is synced).
 */
import { StorageUsage } from '../../../shared/contract/storage'
import { api, type ActionKey } from '../../lib/api'

export const storageUsage = (companyId: string): Promise<StorageUsage> => api('GET', `/storage/${companyId}`, { schema: StorageUsage })

/** `PUT /storage/{companyId}/quota` (the super admin): the association's own quota in bytes, or null for the default. */
export const setStorageQuota = (companyId: string, quotaBytes: number | null, action: ActionKey): Promise<StorageUsage> =>
  api('PUT', `/storage/${companyId}/quota`, { body: { quotaBytes }, schema: StorageUsage, action })
