import { z } from 'zod'
import { messages } from '../i18n-messages'

/**
 * Text typed by people (docs/decisions/0034-input-the-server-refuses.md). One rule everywhere: control characters are refused,
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
/* eslint-disable no-control-regex -- these patterns exist to find control characters */
export const SINGLE_LINE_FORBIDDEN = /[\u0000-\u001F\u007F-\u009F\u2028\u2029\u202A-\u202E\u2066-\u2069]/
export const MULTI_LINE_FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/
/* eslint-enable no-control-regex */

export const isSingleLine = (value: string): boolean => !SINGLE_LINE_FORBIDDEN.test(value)
export const isCleanMultiLine = (value: string): boolean => !MULTI_LINE_FORBIDDEN.test(value)

/**
 * A required single-line text of at most `max` characters, trimmed. Missing or empty answers
 * `requiredMessage`; too long answers `tooLongMessage` (by default "At most {maximum} characters").
 */
export const plainText = (max: number, requiredMessage: string = messages.required.id, tooLongMessage: string = messages.tooLong.id) =>
  z.string({ error: requiredMessage }).trim().min(1, requiredMessage).max(max, tooLongMessage).refine(isSingleLine, messages.controlCharacters.id)

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

// ---- zod's own issues in the user's language (decision 0034)

type ZodIssue = z.core.$ZodIssue

/**
 * Sentences for zod's issue codes that name the field ("Description must be at most 20
 * characters"). `{label}` is one of `fieldLabels` (translated before it is put in, see
 * `localizeIssueValues`); the limits come from the issue.
 */
export const issueMessages = {
  tooLongField: /*i18n*/ { id: '{label} must be at most {maximum} characters' },
  tooShortField: /*i18n*/ { id: '{label} must be at least {minimum} characters' },
  tooManyItemsField: /*i18n*/ { id: '{label} can have at most {maximum} items' },
  tooFewItemsField: /*i18n*/ { id: '{label} needs at least {minimum} items' },
  numberTooLargeField: /*i18n*/ { id: '{label} can be at most {maximum}' },
  numberTooSmallField: /*i18n*/ { id: '{label} must be at least {minimum}' },
  numberNotAboveField: /*i18n*/ { id: '{label} must be greater than {minimum}' },
  numberExpectedField: /*i18n*/ { id: '{label} must be a number' },
  wholeNumberField: /*i18n*/ { id: '{label} must be a whole number' },
  notMultipleOfField: /*i18n*/ { id: '{label} must be a multiple of {divisor}' },
  dateTooLateField: /*i18n*/ { id: '{label} can be {maximum} at the latest' },
  dateTooEarlyField: /*i18n*/ { id: '{label} can be {minimum} at the earliest' },
  dateInvalidField: /*i18n*/ { id: '{label} must be a valid date' },
  emailField: /*i18n*/ { id: '{label} must be a valid e-mail address' },
  urlField: /*i18n*/ { id: '{label} must be a valid web address (URL)' },
  uuidField: /*i18n*/ { id: '{label} must be a valid id' },
  formatField: /*i18n*/ { id: '{label} is not in the expected format' },
  optionField: /*i18n*/ { id: '{label} must be one of the offered options' },
  valueInvalidField: /*i18n*/ { id: '{label} is not valid' },
  // Without a known field (a single value, or a field with no label below)
  notMultipleOf: /*i18n*/ { id: 'The number must be a multiple of {divisor}' },
  dateTooLate: /*i18n*/ { id: 'The date can be {maximum} at the latest' },
  dateTooEarly: /*i18n*/ { id: 'The date can be {minimum} at the earliest' },
  urlInvalid: /*i18n*/ { id: 'Please enter a valid web address (URL)' },
  uuidInvalid: /*i18n*/ { id: 'Please give a valid id' },
  formatInvalid: /*i18n*/ { id: 'The value is not in the expected format' },
  unrecognizedKeys: /*i18n*/ { id: 'These fields are not known here: {keys}' },
} as const

/** The label of a field named in an issue's path (its last named segment), as people see it on the forms. */
export const fieldLabels: Record<string, { id: string }> = {
  name: /*i18n*/ { id: 'Name' },
  fullName: /*i18n*/ { id: 'Full name' },
  memberName: /*i18n*/ { id: 'Full name' },
  companyName: /*i18n*/ { id: 'Name' },
  acronym: /*i18n*/ { id: 'Acronym' },
  cvr: /*i18n*/ { id: 'CVR' },
  unionType: /*i18n*/ { id: 'Union type' },
  email: /*i18n*/ { id: 'E-mail' },
  emailAddress: /*i18n*/ { id: 'E-mail' },
  phone: /*i18n*/ { id: 'Mobile number' },
  mobileNumber: /*i18n*/ { id: 'Mobile number' },
  street: /*i18n*/ { id: 'Street' },
  number: /*i18n*/ { id: 'House number' },
  floor: /*i18n*/ { id: 'Floor' },
  side: /*i18n*/ { id: 'Side' },
  zip: /*i18n*/ { id: 'Postcode' },
  city: /*i18n*/ { id: 'City' },
  country: /*i18n*/ { id: 'Country' },
  description: /*i18n*/ { id: 'Description' },
  price: /*i18n*/ { id: 'Price' },
  amount: /*i18n*/ { id: 'Amount' },
  vatRate: /*i18n*/ { id: 'VAT' },
  note: /*i18n*/ { id: 'Note' },
  subject: /*i18n*/ { id: 'Subject' },
  body: /*i18n*/ { id: 'Content' },
  message: /*i18n*/ { id: 'Message' },
  parts: /*i18n*/ { id: 'Parts' },
  addresses: /*i18n*/ { id: 'Addresses' },
  role: /*i18n*/ { id: 'Role' },
  paymentPeriod: /*i18n*/ { id: 'Payment period' },
  startPaymentDate: /*i18n*/ { id: 'Start payment date' },
  nextRegularPaymentDate: /*i18n*/ { id: 'Next payment date' },
  terminationDate: /*i18n*/ { id: 'Termination date' },
  newPassword: /*i18n*/ { id: 'New password' },
  currentPassword: /*i18n*/ { id: 'Current password' },
  webhookUrl: /*i18n*/ { id: 'Webhook URL' },
  providerName: /*i18n*/ { id: 'Provider name' },
  merchantSerialNumber: /*i18n*/ { id: 'Merchant serial number' },
  clientId: /*i18n*/ { id: 'Client ID' },
  clientSecret: /*i18n*/ { id: 'Client secret' },
  subscriptionKey: /*i18n*/ { id: 'Subscription key' },
  // General assemblies (docs/PRODUCT.md "General assembly")
  place: /*i18n*/ { id: 'Place' },
  agenda: /*i18n*/ { id: 'Agenda' },
  heldAt: /*i18n*/ { id: 'Date and time' },
  proposalDeadline: /*i18n*/ { id: 'Deadline for proposals' },
  noticeAt: /*i18n*/ { id: 'Notice goes out' },
  reminderDays: /*i18n*/ { id: 'Reminders' },
}

/** The label of the field an issue is about: the last named segment of its path that has one. */
export function labelOf(path: readonly PropertyKey[]): string | undefined {
  for (let i = path.length - 1; i >= 0; i--) {
    const segment = path[i]
    if (typeof segment === 'string') return Object.hasOwn(fieldLabels, segment) ? fieldLabels[segment]!.id : undefined
  }
  return undefined
}

/** An ISO day for a date limit, a number for any other. */
const limitValue = (issue: { origin?: unknown }, limit: unknown): string | number =>
  issue.origin === 'date' ? new Date(Number(limit instanceof Date ? limit.getTime() : limit)).toISOString().slice(0, 10) : Number(limit)

/**
 * The values a catalog message of a zod issue may name: `{maximum}` and `{minimum}` (the limits
 * of too_big / too_small), `{divisor}` (not_multiple_of), `{keys}` (unrecognized_keys).
 * Translators on either side pass them with the message id.
 */
export function issueValues(issue: ZodIssue): Record<string, string | number> | undefined {
  const values: Record<string, string | number> = {}
  if (issue.code === 'too_big') values.maximum = limitValue(issue, issue.maximum)
  if (issue.code === 'too_small') values.minimum = limitValue(issue, issue.minimum)
  if (issue.code === 'not_multiple_of') values.divisor = Number(issue.divisor)
  if (issue.code === 'unrecognized_keys') values.keys = issue.keys.join(', ')
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

const isNumeric = (origin: unknown) => origin === 'number' || origin === 'int' || origin === 'bigint'

/** A catalog message for zod's built-in issue codes, naming the limit where there is one. */
export function zodIssueMessage(issue: ZodIssue): string {
  switch (issue.code) {
    case 'too_big':
      if (issue.origin === 'string') return messages.tooLong.id
      if (issue.origin === 'array' || issue.origin === 'set') return messages.tooManyItems.id
      if (isNumeric(issue.origin)) return messages.numberTooLarge.id
      if (issue.origin === 'date') return issueMessages.dateTooLate.id
      return messages.valueInvalid.id
    case 'too_small':
      if (issue.origin === 'string') return Number(issue.minimum) <= 1 ? messages.required.id : messages.tooShort.id
      if (issue.origin === 'array' || issue.origin === 'set') return messages.tooFewItems.id
      if (isNumeric(issue.origin)) return issue.inclusive ? messages.numberTooSmall.id : messages.numberNotAbove.id
      if (issue.origin === 'date') return issueMessages.dateTooEarly.id
      return messages.valueInvalid.id
    case 'invalid_type':
      if (/received undefined$/.test(issue.message)) return messages.required.id
      if (issue.expected === 'int' && /received number$/.test(issue.message)) return messages.wholeNumberExpected.id
      if (isNumeric(issue.expected)) return messages.numberExpected.id
      if (issue.expected === 'date') return messages.dateInvalid.id
      return messages.valueInvalid.id
    case 'invalid_format':
      if (issue.format === 'email') return messages.invalidEmail.id
      if (issue.format === 'url') return issueMessages.urlInvalid.id
      if (/^uuid|^guid$|^cuid|^ulid$|^nanoid$/.test(issue.format)) return issueMessages.uuidInvalid.id
      if (/date|time|duration/.test(issue.format)) return messages.dateInvalid.id
      return issueMessages.formatInvalid.id
    case 'not_multiple_of':
      return Number(issue.divisor) === 1 ? messages.wholeNumberExpected.id : issueMessages.notMultipleOf.id
    case 'invalid_value':
      return messages.optionInvalid.id
    case 'unrecognized_keys':
      return issueMessages.unrecognizedKeys.id
    default:
      return messages.valueInvalid.id
  }
}

/** The sentence naming the field, for each generic message that has one. */
const withLabel: Record<string, string> = {
  [messages.tooLong.id]: issueMessages.tooLongField.id,
  [messages.tooShort.id]: issueMessages.tooShortField.id,
  [messages.tooManyItems.id]: issueMessages.tooManyItemsField.id,
  [messages.tooFewItems.id]: issueMessages.tooFewItemsField.id,
  [messages.numberTooLarge.id]: issueMessages.numberTooLargeField.id,
  [messages.numberTooSmall.id]: issueMessages.numberTooSmallField.id,
  [messages.numberNotAbove.id]: issueMessages.numberNotAboveField.id,
  [messages.numberExpected.id]: issueMessages.numberExpectedField.id,
  [messages.wholeNumberExpected.id]: issueMessages.wholeNumberField.id,
  [issueMessages.notMultipleOf.id]: issueMessages.notMultipleOfField.id,
  [issueMessages.dateTooLate.id]: issueMessages.dateTooLateField.id,
  [issueMessages.dateTooEarly.id]: issueMessages.dateTooEarlyField.id,
  [messages.dateInvalid.id]: issueMessages.dateInvalidField.id,
  [messages.invalidEmail.id]: issueMessages.emailField.id,
  [issueMessages.urlInvalid.id]: issueMessages.urlField.id,
  [issueMessages.uuidInvalid.id]: issueMessages.uuidField.id,
  [issueMessages.formatInvalid.id]: issueMessages.formatField.id,
  [messages.optionInvalid.id]: issueMessages.optionField.id,
  [messages.valueInvalid.id]: issueMessages.valueInvalidField.id,
}

/**
 * Messages a schema names for a limit only ("At most {maximum} characters"): these name the field
 * too. Any other message a schema chose (docs/PRODUCT.md §5's "Please enter a valid email address") is kept.
 */
const limitMessages = new Set<string>([
  messages.tooLong.id,
  messages.tooShort.id,
  messages.tooManyItems.id,
  messages.tooFewItems.id,
  messages.numberTooLarge.id,
  messages.numberTooSmall.id,
  messages.numberNotAbove.id,
  messages.valueInvalid.id,
])

/**
 * An issue as a catalog message with its values: the schema's own message, else zod's code
 * translated; a generic sentence names the field when its path has a label (`{label}` is then a
 * catalog id: translate the values with `localizeIssueValues` before formatting).
 */
export function issueMessage(issue: ZodIssue): { message: string; values?: Record<string, string | number> } {
  const builtIn = hasBuiltInMessage(issue)
  let message = builtIn ? zodIssueMessage(issue) : issue.message
  let values = issueValues(issue)
  const label = labelOf(issue.path)
  if (label && Object.hasOwn(withLabel, message) && (builtIn || limitMessages.has(message))) {
    message = withLabel[message]!
    values = { ...values, label }
  }
  return values ? { message, values } : { message }
}

/**
 * The values of an issue's message ready to format: a `{label}` (a catalog id) in the user's
 * language. Every place that formats an issue (server answers, client forms) goes through this.
 */
export function localizeIssueValues<V extends Record<string, unknown> | undefined>(values: V, translate: (id: string) => string): V {
  if (!values || typeof values.label !== 'string') return values
  return { ...values, label: translate(values.label) }
}
