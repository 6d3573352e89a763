import { ruleViolation } from '../../errors'
import { messages as m } from '../../../shared/i18n-messages'
import { acceptUpload, allowedType, type AttachmentScanner, type UploadRoom } from '../../integrations/files/attachment-store'

/**
 * A photo for a market listing or a lending item: one of `types` judged by its name and content
 * (anything else, a PDF or a file no attachment may be, says "Please choose a photo"), then the
 * upload's checks (room in the association's storage quota among them; the photo it replaces
 * stops counting) and the virus-scanning hook. Answers its content type.
 */
export async function acceptPhoto(
  scanner: AttachmentScanner,
  file: { name: string; bytes: Uint8Array },
  types: readonly string[],
  room: UploadRoom,
): Promise<string> {
  const type = allowedType(file.name, file.bytes)
  if (!type || !types.includes(type)) throw ruleViolation(m.listingPhotoNotImage.id, 'file')
  const { contentType } = await acceptUpload(scanner, file, room)
  return contentType
}
