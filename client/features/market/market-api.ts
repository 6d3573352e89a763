/**
 * The market calls that need a connection (issue #22): a listing's photo (the bytes go straight to
 * the server, which checks type, size and scan) and "Write to the seller". The listings themselves
 * come from the synced local copy (use-listings.ts) and change through the outbox (market-mutations.ts).
 */
import { Listing } from '../../../shared/contract/market'
import { api, API_BASE, ApiError, type ActionKey } from '../../lib/api'
import { sessionStore } from '../auth/session'

export function uploadListingPhoto(id: string, file: File, version: number, action: ActionKey): Promise<Listing> {
  const form = new FormData()
  form.set('file', file)
  return api('PUT', `/market/${id}/photo`, { body: form, schema: Listing, ifMatch: version, action })
}

export const contactSeller = (id: string, text: string, action: ActionKey): Promise<unknown> => api('POST', `/market/${id}/contact`, { body: { text }, action })

/** The photo's bytes (the API needs the bearer token an <img src> cannot carry). */
export async function fetchListingPhoto(id: string, signal?: AbortSignal): Promise<Blob> {
  const token = sessionStore.get().token
  let res: Response
  try {
    res = await fetch(`${API_BASE}/market/${id}/photo`, { headers: token ? { Authorization: `Bearer ${token}` } : {}, signal })
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err
    throw new ApiError(0, 'NETWORK_ERROR', '')
  }
  if (!res.ok) throw new ApiError(res.status, res.status === 404 ? 'NOT_FOUND' : 'UNKNOWN', '')
  return await res.blob()
}
