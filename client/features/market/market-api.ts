/**
 * The market calls that need a connection (decision 0063): a listing's photo (the bytes go straight to
 * the server, which checks type, size and scan) and "Write to the seller". The listings themselves
 * come from the synced local copy (use-listings.ts) and change through the outbox (market-mutations.ts).
 */
import { Listing } from '../../../shared/contract/market'
import { api, type ActionKey } from '../../lib/api'

export function uploadListingPhoto(id: string, file: File, version: number, action: ActionKey): Promise<Listing> {
  const form = new FormData()
  form.set('file', file)
  return api('PUT', `/market/${id}/photo`, { body: form, schema: Listing, ifMatch: version, action })
}

export const contactSeller = (id: string, text: string, action: ActionKey): Promise<unknown> => api('POST', `/market/${id}/contact`, { body: { text }, action })
