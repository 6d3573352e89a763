/**
 * The market through the outbox (decision 0063): a member lists something, and the seller edits,
 * marks it reserved, available or gone, renews and deletes it, also offline; the server's answered
 * row replaces the local guess. The photo and "Write to the seller" need a connection (market-api.ts).
 */
import { msg } from '@lingui/core/macro'
import { LISTING_DAYS, type CreateListingRequest, type Listing, type UpdateListingRequest } from '../../../shared/contract/market'
import type { Row } from '../../sync/local-db'
import { formats } from '../../sync/field-format'
import type { Values } from '../../sync/merge'
import { registerMutationKind, type EditField } from '../../sync/mutation-kinds'
import { answerAsRow, reduce } from '../../sync/optimistic'
import type { SyncHandle } from '../../sync/use-sync'
import { statusLabels } from './labels'

export const LISTING_CREATE = 'listing.create'
export const LISTING_UPDATE = 'listing.update'
export const LISTING_RENEW = 'listing.renew'
export const LISTING_DELETE = 'listing.delete'

const DAY_MS = 86_400_000

registerMutationKind(LISTING_CREATE, {
  reducer: reduce.insert((m) => {
    const body = m.body as CreateListingRequest & { id: string }
    const seller = m.preview as { id: string; fullName: string }
    const at = new Date(m.createdAt)
    const row: Omit<Listing, 'version'> = {
      id: body.id,
      companyId: body.companyId,
      kind: body.kind,
      title: body.title.trim(),
      description: (body.description ?? '').trim(),
      priceOre: body.priceOre ?? null,
      status: 'AVAILABLE',
      seller,
      photoId: null,
      expiresAt: new Date(at.getTime() + LISTING_DAYS * DAY_MS).toISOString(),
      createdAt: at.toISOString(),
      updatedAt: at.toISOString(),
    }
    return { ...row, _version: 0 } as Row
  }),
  label: msg`New listing`,
  failed: msg`Failed to save the listing`,
  answeredRow: answerAsRow,
})

export const listingEditFields: EditField[] = [
  { name: 'title', label: msg`Title`, format: formats.text },
  { name: 'description', label: msg`Description`, format: formats.text },
  { name: 'priceOre', label: msg`Price`, format: formats.money },
  { name: 'status', label: msg`Status`, format: formats.oneOf(statusLabels) },
]

const valuesOf = (body: UpdateListingRequest): Values => {
  const values: Values = {}
  if (body.title !== undefined) values.title = body.title.trim()
  if (body.description !== undefined) values.description = body.description.trim()
  if (body.priceOre !== undefined) values.priceOre = body.priceOre
  if (body.status !== undefined) values.status = body.status
  return values
}

registerMutationKind(LISTING_UPDATE, {
  reducer: reduce.patch((_row, m) => valuesOf(m.body as UpdateListingRequest)),
  label: msg`Edit listing`,
  failed: msg`Failed to save the listing`,
  answeredRow: answerAsRow,
  merge: { fields: () => listingEditFields, mine: (m) => valuesOf(m.body as UpdateListingRequest), body: (values) => values },
})

registerMutationKind(LISTING_RENEW, {
  reducer: reduce.patch((_row, m) => ({ expiresAt: new Date(new Date(m.createdAt).getTime() + LISTING_DAYS * DAY_MS).toISOString() })),
  label: msg`Renew listing`,
  failed: msg`Failed to renew the listing`,
  answeredRow: answerAsRow,
})

registerMutationKind(LISTING_DELETE, {
  reducer: reduce.remove(),
  label: msg`Delete listing`,
  failed: msg`Failed to delete the listing`,
})

/** POST /market with a client-made id, so a listing made offline keeps it. */
export const createListing = ({ engine }: SyncHandle, body: CreateListingRequest & { id: string }, seller: { id: string; fullName: string }) =>
  engine.mutate({ kind: LISTING_CREATE, method: 'POST', path: '/market', body, preview: seller, entity: 'listing', entityId: body.id })

/** PATCH /market/{id} with the fields that changed against the row the form opened on; null when nothing changed. */
export function updateListing(handle: SyncHandle, opened: Record<string, unknown> & { id: string; _version: number }, edit: UpdateListingRequest) {
  const body = Object.fromEntries(Object.entries(valuesOf(edit)).filter(([k, v]) => opened[k] !== v)) as UpdateListingRequest
  if (Object.keys(body).length === 0) return null
  return handle.engine.mutate({
    kind: LISTING_UPDATE,
    method: 'PATCH',
    path: `/market/${opened.id}`,
    body,
    baseRow: opened,
    entity: 'listing',
    entityId: opened.id,
    baseVersion: opened._version,
  })
}

export const renewListing = (handle: SyncHandle, row: { id: string; _version: number }) =>
  handle.engine.mutate({ kind: LISTING_RENEW, method: 'POST', path: `/market/${row.id}/renew`, entity: 'listing', entityId: row.id, baseVersion: row._version })

export const deleteListing = (handle: SyncHandle, row: { id: string; _version: number }) =>
  handle.engine.mutate({ kind: LISTING_DELETE, method: 'DELETE', path: `/market/${row.id}`, entity: 'listing', entityId: row.id, baseVersion: row._version })
