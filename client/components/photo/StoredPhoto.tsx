import { useEffect, useState } from 'react'
import { API_BASE, ApiError } from '../../lib/api'
import { sessionStore } from '../../features/auth/session'

/** A stored photo's bytes from the API (it needs the bearer token an <img src> cannot carry). */
async function fetchPhoto(path: string, signal: AbortSignal): Promise<Blob> {
  const token = sessionStore.get().token
  let res: Response
  try {
    res = await fetch(`${API_BASE}${path}`, { headers: token ? { Authorization: `Bearer ${token}` } : {}, signal })
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err
    throw new ApiError(0, 'NETWORK_ERROR', '')
  }
  if (!res.ok) throw new ApiError(res.status, res.status === 404 ? 'NOT_FOUND' : 'UNKNOWN', '')
  return await res.blob()
}

/**
 * A record's photo (a market listing's, a lending item's), fetched from `path` with the session
 * and shown from a blob URL; fetched again when `photoId` changes. Offline, or without a photo, a
 * plain placeholder keeps the card's shape.
 */
export function StoredPhoto({ path, photoId, alt, className }: { path: string; photoId: string | null | undefined; alt: string; className: string }) {
  const [url, setUrl] = useState<string | null>(null)
  useEffect(() => {
    if (!photoId) return setUrl(null)
    const abort = new AbortController()
    let made: string | null = null
    fetchPhoto(path, abort.signal)
      .then((blob) => {
        made = URL.createObjectURL(blob)
        setUrl(made)
      })
      .catch(() => setUrl(null))
    return () => {
      abort.abort()
      if (made) URL.revokeObjectURL(made)
    }
  }, [path, photoId])
  return url ? <img src={url} alt={alt} className={className} /> : <div className={`${className} listing-photo-none`} aria-hidden="true" />
}
