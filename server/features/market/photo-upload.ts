import { ruleViolation } from '../../errors'
import { messages as m } from '../../../shared/i18n-messages'
import { acceptUpload, allowedType, type AttachmentScanner } from '../../integrations/files/attachment-store'

/**
 * A photo for a market listing or a lending item: one of `types` judged by its name and content
 * (anything else, a PDF or a file no attachment may be, says "Please choose a photo"), then the
 * upload's checks and the virus-scanning hook. Answers its content type.
 */
export async function acceptPhoto(scanner: AttachmentScanner, file: { name: string; bytes: Uint8Array }, types: readonly string[]): Promise<string> {
  const type = allowedType(file.name, file.bytes)
  if (!type || !types.includes(type)) throw ruleViolation(m.listingPhotoNotImage.id, 'file')
  const { contentType } = await acceptUpload(scanner, file)
  return contentType
}
