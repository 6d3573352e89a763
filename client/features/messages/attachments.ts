import { apiFile } from '../../lib/api'

/**
 * Opens an attachment in a new tab. The API needs the bearer token, which a plain link cannot
 * carry, so the file is fetched and shown from a blob URL (the tab is opened first, within the click).
 */
export async function openAttachment(messageId: string, attachmentId: string): Promise<void> {
  const tab = window.open('', '_blank')
  let blob: Blob
  try {
    blob = (await apiFile(`/messages/${messageId}/attachments/${attachmentId}`)).blob
  } catch (error) {
    tab?.close()
    throw error
  }
  const url = URL.createObjectURL(blob)
  if (tab) tab.location.href = url
  else window.location.href = url
  setTimeout(() => URL.revokeObjectURL(url), 60_000)
}
