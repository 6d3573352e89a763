import { z } from 'zod'
import { messages } from '../i18n-messages'

/**
 * Text typed by people (issue #15, item 8). One rule everywhere: control characters are refused,
 * never stripped silently, so what is stored is exactly what was typed.
 * - single-line fields (names, subjects, descriptions, street, city, acronym, …): no C0/C1
 *   control characters (NUL, tab, CR, LF, …), no line/paragraph separators (U+2028/U+2029) and
 *   no Unicode bidi embeddings, overrides or isolates (U+202A–U+202E, U+2066–U+2069), which can
 *   make a name display as something else;
 * - multi-line fields (message bodies, the contact form): line breaks (LF, CR) and tabs are kept,
 *   the rest of the above is refused.
 * Surrounding whitespace is trimmed, and a value over its limit answers "At most {maximum}
 * characters" (the limit comes from the zod issue, so both languages name it).
 */
export const SINGLE_LINE_FORBIDDEN = /[\u0000-\u001F\u007F-\u009F\u2028\u2029\u202A-\u202E\u2066-\u2069]/
export const MULTI_LINE_FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/

export const isSingleLine = (value: string): boolean => !SINGLE_LINE_FORBIDDEN.test(value)
export const isCleanMultiLine = (value: string): boolean => !MULTI_LINE_FORBIDDEN.test(value)

/**
 * A required single-line text of at most `max` characters, trimmed. Missing or empty answers
 * `requiredMessage`; too long answers `tooLongMessage` (by default "At most {maximum} characters").
 */
export const plainText = (max: number, requiredMessage: string = messages.required.id, tooLongMessage: string = messages.tooLong.id) =>
  z
    .string({ error: requiredMessage })
    .trim()
    .min(1, requiredMessage)
    .max(max, tooLongMessage)
    .refine(isSingleLine, messages.controlCharacters.id)

/** An optional single-line text: empty becomes null. */
export const optionalPlainText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, messages.tooLong.id)
    .refine(isSingleLine, messages.controlCharacters.id)
    .transform((v) => v || null)
    .nullable()
    .optional()

/** A required multi-line text (line breaks kept) of at most `max` characters, trimmed. */
export const multiLineText = (max: number, requiredMessage: string = messages.required.id) =>
  z
    .string({ error: requiredMessage })
    .trim()
    .min(1, requiredMessage)
    .max(max, messages.tooLong.id)
    .refine(isCleanMultiLine, messages.multiLineControlCharacters.id)

/** A person's full name (agreements, new members; the profile's `fullName` should use it too). */
export const personName = (requiredMessage: string = messages.required.id) => plainText(200, requiredMessage)

// ---- zod's own issues in the user's language

type ZodIssue = z.core.$ZodIssue

/**
 * The values a catalog message of a zod issue may name: `{maximum}` and `{minimum}` (the limits
 * of too_big / too_small). Translators on either side pass them with the message id.
 */
export function issueValues(issue: ZodIssue): Record<string, number> | undefined {
  const values: Record<string, number> = {}
  if (issue.code === 'too_big') values.maximum = Number(issue.maximum)
  if (issue.code === 'too_small') values.minimum = Number(issue.minimum)
  return Object.keys(values).length ? values : undefined
}

/**
 * True when the issue still carries zod's built-in English message (the schema named none).
 * Those are replaced by `zodIssueMessage`; a message the schema chose is kept.
 */
export function hasBuiltInMessage(issue: ZodIssue): boolean {
  if (typeof issue.code !== 'string') return false
  // zod drops `input` from a finished issue, so this one message is recognised by its shape.
  if (issue.code === 'invalid_type') return /^Invalid input: expected \S+, received \S+$/.test(issue.message)
  try {
    const builtIn = z.config().localeError?.(issue as never)
    const text = typeof builtIn === 'string' ? builtIn : builtIn?.message
    return text !== undefined && text === issue.message
  } catch {
    return false
  }
}

/** A catalog message for zod's built-in issue codes, naming the limit where there is one. */
export function zodIssueMessage(issue: ZodIssue): string {
  switch (issue.code) {
    case 'too_big':
      if (issue.origin === 'string') return messages.tooLong.id
      if (issue.origin === 'array' || issue.origin === 'set') return messages.tooManyItems.id
      if (issue.origin === 'number' || issue.origin === 'int' || issue.origin === 'bigint') return messages.numberTooLarge.id
      return messages.valueInvalid.id
    case 'too_small':
      if (issue.origin === 'string') return Number(issue.minimum) <= 1 ? messages.required.id : messages.tooShort.id
      if (issue.origin === 'array' || issue.origin === 'set') return messages.tooFewItems.id
      if (issue.origin === 'number' || issue.origin === 'int' || issue.origin === 'bigint') return issue.inclusive ? messages.numberTooSmall.id : messages.numberNotAbove.id
      return messages.valueInvalid.id
    case 'invalid_type':
      if (/received undefined$/.test(issue.message)) return messages.required.id
      if (issue.expected === 'int' && /received number$/.test(issue.message)) return messages.wholeNumberExpected.id
      if (issue.expected === 'number' || issue.expected === 'int' || issue.expected === 'bigint') return messages.numberExpected.id
      return messages.valueInvalid.id
    case 'invalid_format':
      if (issue.format === 'email') return messages.invalidEmail.id
      if (issue.format === 'date' || issue.format === 'datetime') return messages.dateInvalid.id
      return messages.valueInvalid.id
    case 'not_multiple_of':
      return issue.divisor === 1 ? messages.wholeNumberExpected.id : messages.valueInvalid.id
    case 'invalid_value':
      return messages.optionInvalid.id
    default:
      return messages.valueInvalid.id
  }
}

/** An issue as a catalog message with its values: the schema's own message, else zod's code translated. */
export function issueMessage(issue: ZodIssue): { message: string; values?: Record<string, number> } {
  const message = hasBuiltInMessage(issue) ? zodIssueMessage(issue) : issue.message
  const values = issueValues(issue)
  return values ? { message, values } : { message }
}
