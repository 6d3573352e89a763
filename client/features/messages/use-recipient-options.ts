/** Whom a user may write to in a company, from the local copy (so composing works offline). */
import type { LocalDb } from '../../sync/local-db'
import { sharedQuery, useSharedQuery, type SharedQuery } from '../../sync/shared-query'
import type { SyncHandle } from '../../sync/use-sync'
import { addressLine } from '../agreements/labels'

export interface RecipientOptions {
  members: Array<{ userId: string; name: string }>
  addresses: Array<{ id: string; label: string }>
  /** Companies the user is a resident of (through an agreement): they write to these boards. */
  residentOf: string[]
}

function optionsQuery(companyId: string | null): SharedQuery<RecipientOptions> {
  const key = `message-recipients:${companyId ?? ''}`
  return sharedQuery(key, ['members', 'agreements', 'addresses'], async (db: LocalDb) => {
    const agreements = (await db.agreements.toArray()) as Array<{ companyId?: string; status?: string; member?: { userId?: string; fullName?: string } }>
    const living = agreements.filter((a) => a.status !== 'REJECTED' && a.status !== 'EXPIRED')
    const byId = new Map<string, string>()
    if (companyId) {
      for (const m of (await db.members.where('companyId').equals(companyId).toArray()) as Array<{ userId?: string; name?: string }>)
        if (m.userId) byId.set(m.userId, m.name ?? '')
      for (const a of living) if (a.companyId === companyId && a.member?.userId) byId.set(a.member.userId, a.member.fullName ?? '')
    }
    const addresses =
      companyId ? ((await db.addresses.where('companyId').equals(companyId).toArray()) as Array<Parameters<typeof addressLine>[0] & { id: string }>) : []
    return {
      members: [...byId].map(([userId, name]) => ({ userId, name })).sort((a, b) => a.name.localeCompare(b.name)),
      addresses: addresses.map((a) => ({ id: a.id, label: addressLine(a) })).sort((a, b) => a.label.localeCompare(b.label, 'da')),
      residentOf: [...new Set(living.map((a) => a.companyId).filter((c): c is string => !!c))],
    }
  })
}

export const useRecipientOptions = (handle: SyncHandle | null, companyId: string | null): RecipientOptions | undefined =>
  useSharedQuery(handle?.db, optionsQuery(companyId))
