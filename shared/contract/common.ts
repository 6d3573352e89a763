import { z } from 'zod'
import { languages, localeOf } from './values'

/** The body of every non-2xx answer (docs/API.md "Errors"). */
export const ErrorBody = z
  .object({
    message: z.string(),
    code: z.string(),
    issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
    current: z.unknown().optional(),
  })
  .meta({ id: 'Error' })
export type ErrorBody = z.infer<typeof ErrorBody>

export const Id = z.uuid()
export const IdParam = z.object({ id: z.uuid() })

export const MessageResponse = z.object({ message: z.string() }).meta({ id: 'MessageResponse' })
export type MessageResponse = z.infer<typeof MessageResponse>

export { languages, localeOf }
export const Language = z.enum(languages)
export type Language = z.infer<typeof Language>
/** Interface locale of a stored language (docs/PRODUCT.md §3: applied lower-cased). */
