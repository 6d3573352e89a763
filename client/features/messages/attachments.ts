import { API_BASE } from '../../lib/api'
import { sessionStore } from '../auth/session'

/**
 * Opens an attachment in a new tab. The API needs the bearer token, which a plain link cannot
 * carry, so the file is fetched and shown from a blob URL (the tab is opened first, within the click).
 */
export async function openAttachment(messageId: string, attachmentId: string): Promise<void> {
  const tab = window.open('', '_blank')
  const token = sessionStore.get().token
  const res = await fetch(`${API_BASE}/messages/${messageId}/attachments/${attachmentId}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} })
  if (!res.ok) {
    tab?.close()
    throw new Error(`attachment ${res.status}`)
  }
  const url = URL.createObjectURL(await res.blob())
  if (tab) tab.location.href = url
  else window.location.href = url
  setTimeout(() => URL.revokeObjectURL(url), 60_000)
}
