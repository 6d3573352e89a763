import { useState } from 'react'
import { useLingui } from '@lingui/react/macro'
import { ApiError, createActionKey, errorMessage, type ActionKey } from '../../lib/api'
import { showToast } from '../../lib/toast'
import type { SyncHandle } from '../../sync/use-sync'

/**
 * Adding or replacing a saved record's photo (online: the bytes go straight to the server, which
 * checks type, size and scan). `send` uploads the chosen file with one action key kept for retries;
 * afterwards the local copy is synced so the new photo shows.
 */
export function usePhotoUpload(handle: SyncHandle, send: (file: File, action: ActionKey) => Promise<unknown>) {
  const { t } = useLingui()
  const [photo, setPhoto] = useState<File | null>(null)
  const [photoError, setPhotoError] = useState<string | null>(null)
  const [uploading, setUploading] = useState(false)
  const [action] = useState(() => createActionKey())
  const upload = async () => {
    if (!photo) return setPhotoError(t`Please choose a file`)
    setUploading(true)
    setPhotoError(null)
    try {
      await send(photo, action)
      await handle.engine.syncNow().catch(() => undefined)
      showToast('success', t`The photo was saved.`)
      setPhoto(null)
    } catch (error) {
      setPhotoError(
        error instanceof ApiError && error.status === 0 ?
          t`The photo could not be saved: there is no connection. Try again when you are online.`
        : errorMessage(error, t`The photo could not be saved.`),
      )
    } finally {
      setUploading(false)
    }
  }
  return { setPhoto, photoError, uploading, upload }
}

/**
 * Sends a new record's first photo once the server has the record (`send` uploads it). A failure
 * is told with `failText` and leaves the record as it is: the photo can be added from its page.
 */
export async function sendFirstPhoto(handle: SyncHandle, send: () => Promise<unknown>, failText: string): Promise<void> {
  try {
    await send()
    await handle.engine.syncNow().catch(() => undefined)
  } catch (error) {
    showToast('error', errorMessage(error, failText))
  }
}
