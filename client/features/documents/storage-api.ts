/**
 * The association's storage (docs/PRODUCT.md "Storage", docs/decisions/0082): what its files take of
 * its quota, read online (the server sums every kind of file; nothing of it is synced).
 */
import { StorageUsage } from '../../../shared/contract/storage'
import { api } from '../../lib/api'

export const storageUsage = (companyId: string): Promise<StorageUsage> => api('GET', `/storage/${companyId}`, { schema: StorageUsage })
