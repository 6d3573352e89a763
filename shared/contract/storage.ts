import { z } from 'zod'
import { messages as m } from '../i18n-messages'

/**
 * An association's storage (docs/PRODUCT.md "Storage", docs/decisions/0082): what its files take
 * (documents, message and article attachments, market and lending photos) of its quota, in bytes.
 */
export const StorageUsage = z
  .object({
    companyId: z.string(),
    usedBytes: z.number().int().min(0),
    quotaBytes: z.number().int().min(1),
    /** True when the super admin set this association's quota; false: the default (STORAGE_QUOTA_MB). */
    ownQuota: z.boolean(),
  })
  .meta({ id: 'StorageUsage' })
export type StorageUsage = z.infer<typeof StorageUsage>

/** The most a quota may be: 1 TB (1024⁴ bytes). */
export const MAX_STORAGE_QUOTA_BYTES = 1024 ** 4

/** `PUT /storage/{companyId}/quota` (the super admin): the association's own quota in bytes, or null for the default. */
export const SetStorageQuotaRequest = z
  .object({
    quotaBytes: z
      .number({ error: m.storageQuotaInvalid.id })
      .int({ error: m.storageQuotaInvalid.id })
      .min(1, { error: m.storageQuotaInvalid.id })
      .max(MAX_STORAGE_QUOTA_BYTES, { error: m.storageQuotaInvalid.id })
      .nullable(),
  })
  .meta({ id: 'SetStorageQuotaRequest' })
export type SetStorageQuotaRequest = z.infer<typeof SetStorageQuotaRequest>
