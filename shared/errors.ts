/**
 * Error codes of the API (docs/API.md "Errors"). The server chooses the HTTP status from the code;
 * the client maps the code to a translated message when the server's message is not enough.
 */
export const errorCodes = [
  'VALIDATION_FAILED',
  'MALFORMED_JSON',
  'UNAUTHENTICATED',
  'INVALID_CREDENTIALS',
  'FORBIDDEN',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'INVALID_STATE',
  'IDEMPOTENCY_IN_PROGRESS',
  'CONFLICT',
  'VERSION_CONFLICT',
  'PAYLOAD_TOO_LARGE',
  'URI_TOO_LONG',
  'HEADERS_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'IDEMPOTENCY_KEY_REUSED',
  'BUSINESS_RULE',
  'RATE_LIMITED',
  'PROVIDER_UNAVAILABLE',
  'BUSY',
  'INTERNAL',
] as const

export type ErrorCode = (typeof errorCodes)[number]

export const httpStatusOf: Record<ErrorCode, number> = {
  VALIDATION_FAILED: 400,
  MALFORMED_JSON: 400,
  UNAUTHENTICATED: 401,
  INVALID_CREDENTIALS: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  INVALID_STATE: 409,
  IDEMPOTENCY_IN_PROGRESS: 409,
  CONFLICT: 409,
  VERSION_CONFLICT: 412,
  PAYLOAD_TOO_LARGE: 413,
  URI_TOO_LONG: 414,
  HEADERS_TOO_LARGE: 431,
  UNSUPPORTED_MEDIA_TYPE: 415,
  IDEMPOTENCY_KEY_REUSED: 422,
  BUSINESS_RULE: 422,
  RATE_LIMITED: 429,
  PROVIDER_UNAVAILABLE: 503,
  /** The database gave up on the write for others' at the same moment (PostgreSQL), or waited too long for a lock: try again shortly. */
  BUSY: 503,
  INTERNAL: 500,
}
