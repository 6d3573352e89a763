/**
 * Messages that both the server and the client show: validation wording of spec §5 and the
 * error texts of §8. The English text is the catalog id, so a zod issue's message can be
 * translated on either side with `i18n._(message)`. The `/*i18n*\/` marker lets `lingui extract`
 * collect them into both catalogs.
 */
export const messages = {
  required: /*i18n*/ { id: 'This field is required' },
  invalidMobile: /*i18n*/ { id: 'Please enter a valid mobile number' },
  loginFailed: /*i18n*/ { id: 'Login failed.' },
  genericError: /*i18n*/ { id: 'An error occurred. Please try again.' },
  invalidEmail: /*i18n*/ { id: 'Please enter a valid email address' },
  passwordRequired: /*i18n*/ { id: 'Password is required' },
  confirmPassword: /*i18n*/ { id: 'Please confirm your password' },
  passwordTooShort: /*i18n*/ { id: 'Password must be at least 6 characters' },
  passwordTooShortReset: /*i18n*/ { id: 'Password must be at least 6 characters long.' },
  passwordTooCommon: /*i18n*/ { id: 'This password is too common. Please choose another one.' },
  passwordsDoNotMatch: /*i18n*/ { id: 'Passwords do not match' },
  passwordsDoNotMatchReset: /*i18n*/ { id: 'Passwords do not match.' },
  invalidResetLink: /*i18n*/ { id: 'Invalid reset link. Please request a new password reset.' },
  resetLinkExpired: /*i18n*/ { id: 'This reset link has expired or was already used. Please request a new password reset.' },
  resetRequested: /*i18n*/ { id: 'If an account exists for this e-mail, we have sent a link to reset the password.' },
  passwordChanged: /*i18n*/ { id: 'Your password has been changed. You can now sign in.' },
  tokenLoginDisabled: /*i18n*/ { id: 'Token login is not available.' },
  companyNameRequired: /*i18n*/ { id: 'Company name is required' },
  acronymRequired: /*i18n*/ { id: 'Acronym is required' },
  cvrRequired: /*i18n*/ { id: 'CVR number is required' },
  cvrInvalid: /*i18n*/ { id: 'CVR number must be 8 digits with a valid check digit' },
  unionTypeRequired: /*i18n*/ { id: 'Union type is required' },
  unionTypeInvalid: /*i18n*/ { id: 'Invalid union type. Only COOP and CONDO are supported' },
  emailTaken: /*i18n*/ { id: 'This e-mail address is already in use.' },
  lastAuthMethod: /*i18n*/ { id: 'You cannot remove your last sign-in method.' },
  mobilePayNotRemovable: /*i18n*/ { id: 'A MobilePay sign-in cannot be removed.' },
  searchTooShort: /*i18n*/ { id: 'Type at least 3 characters to search.' },
  notMemberOfCompany: /*i18n*/ { id: 'You are not a member of this company.' },
  rateLimited: /*i18n*/ { id: 'Too many attempts. Please wait a moment and try again.' },
  unauthenticated: /*i18n*/ { id: 'Please sign in again.' },
  forbidden: /*i18n*/ { id: 'You do not have access to this.' },
  notFound: /*i18n*/ { id: 'Not found.' },
  methodNotAllowed: /*i18n*/ { id: 'This method is not allowed here.' },
  malformedJson: /*i18n*/ { id: 'The request body is not valid JSON.' },
  payloadTooLarge: /*i18n*/ { id: 'The request is too large (at most 1 MiB).' },
  validationFailed: /*i18n*/ { id: 'Some fields are not valid.' },
  idempotencyKeyLength: /*i18n*/ { id: 'Idempotency-Key must be 1 to 64 characters.' },
  ifMatchFormat: /*i18n*/ { id: 'If-Match must be a version such as "3".' },
  idempotencyReused: /*i18n*/ { id: 'This Idempotency-Key was already used for a different request.' },
  idempotencyInProgress: /*i18n*/ { id: 'The same request is still being processed.' },
  versionConflict: /*i18n*/ { id: 'Someone else changed this in the meantime.' },
  internal: /*i18n*/ { id: 'Something went wrong on our side. Please try again.' },
} as const

export type MessageKey = keyof typeof messages
