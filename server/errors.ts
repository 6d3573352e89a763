import type { ErrorCode } from '../shared/errors'

export interface Issue {
  path: string
  message: string
  /** ICU values of the message, e.g. `{ maximum: 200 }` for "At most {maximum} characters". */
  values?: Record<string, unknown>
}

/**
 * A failure the caller can understand. Services throw these; only server/http turns them into
 * a status and body. `message` is an English catalog id, translated to the caller's language there.
 */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** `cause`: the upstream failure behind it (e.g. Vipps' 422), written to the system log with the request id. */
    readonly extra: { issues?: Issue[]; current?: unknown; retryAfterSeconds?: number; values?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super(message, extra.cause === undefined ? undefined : { cause: extra.cause })
    this.name = 'DomainError'
  }
}

export const notFound = (message = 'Not found.') => new DomainError('NOT_FOUND', message)
export const forbidden = (message = 'You do not have access to this.') => new DomainError('FORBIDDEN', message)
export const unauthenticated = (message = 'Please sign in again.') => new DomainError('UNAUTHENTICATED', message)
export const invalidState = (message: string) => new DomainError('INVALID_STATE', message)
export const conflict = (message: string, path?: string) => new DomainError('CONFLICT', message, path ? { issues: [{ path, message }] } : {})
export const ruleViolation = (message: string, path?: string) => new DomainError('BUSINESS_RULE', message, path ? { issues: [{ path, message }] } : {})
export const validation = (issues: Issue[], message = 'Some fields are not valid.') => new DomainError('VALIDATION_FAILED', message, { issues })
export const versionConflict = (current: unknown) => new DomainError('VERSION_CONFLICT', 'Someone else changed this in the meantime.', { current })
export const rateLimited = (retryAfterSeconds: number) =>
  new DomainError('RATE_LIMITED', 'Too many attempts. Please wait a moment and try again.', { retryAfterSeconds })
