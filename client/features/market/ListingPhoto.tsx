import { useEffect, useState } from 'react'
import { fetchListingPhoto } from './market-api'

/**
 * A listing's photo, fetched with the session (an <img src> cannot carry the bearer token) and
 * shown from a blob URL. Offline, or without a photo, a plain placeholder keeps the card's shape.
 */
export function ListingPhoto({ id, photoId, alt, className }: { id: string; photoId: string | null | undefined; alt: string; className: string }) {
  const [url, setUrl] = useState<string | null>(null)
  useEffect(() => {
    if (!photoId) return setUrl(null)
    const abort = new AbortController()
    let made: string | null = null
    fetchListingPhoto(id, abort.signal)
      .then((blob) => {
        made = URL.createObjectURL(blob)
        setUrl(made)
      })
      .catch(() => setUrl(null))
    return () => {
      abort.abort()
      if (made) URL.revokeObjectURL(made)
    }
  }, [id, photoId])
  return url ? <img src={url} alt={alt} className={className} /> : <div className={`${className} listing-photo-none`} aria-hidden="true" />
}
