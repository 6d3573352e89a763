import { useEffect, useState } from 'react'
import type { StorageUsage } from '../../../shared/contract/storage'
import { storageUsage } from './storage-api'

/**
 * What the association's files take of its storage quota, for its staff (docs/decisions/0082):
 * read when the screen opens while online; null until it is known, or when it cannot be (offline,
 * or not allowed).
 */
export function useStorageUsage(companyId: string | undefined, enabled: boolean): StorageUsage | null {
  const [usage, setUsage] = useState<StorageUsage | null>(null)
  useEffect(() => {
    if (!companyId || !enabled) return
    let current = true
    storageUsage(companyId)
      .then((u) => current && setUsage(u))
      .catch(() => current && setUsage(null))
    return () => {
      current = false
    }
  }, [companyId, enabled])
  return companyId && enabled ? usage : null
}
