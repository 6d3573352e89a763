import type { Context, ErrorHandler, NotFoundHandler } from 'hono'
import { HTTPException } from 'hono/http-exception'
import type { ZodError } from 'zod'
import { httpStatusOf, type ErrorCode } from '../../shared/errors'
import type { ErrorBody } from '../../shared/contract/common'
import { issueMessage, localizeIssueValues } from '../../shared/contract/text'
import { localizeByteValues } from '../../shared/domain/storage'
import { hasErrorCode, isSerializationFailure } from '../db/client'
import { DomainError, type Issue } from '../errors'
import { translate, type Locale } from '../i18n/i18n'
import type { AppEnv } from './app-env'

/**
 * Zod issues → CONTRACT issues (messages are catalog ids; the body translates them). An issue
 * that still carries zod's built-in English text (the schema named no message) gets the catalog
 * message of its code instead, with the limit and the field's label it names (shared/contract/text.ts).
 */
export const issuesOf = (error: ZodError): Issue[] => error.issues.map((i) => ({ path: i.path.join('.'), ...issueMessage(i) }))

function body(code: ErrorCode, message: string, locale: Locale, extra: DomainError['extra'] = {}): ErrorBody {
  // Sizes in the values (`{ bytes }`) read as the locale writes them (shared/domain/storage.ts).
  const b: ErrorBody = { message: translate(locale, message, localizeByteValues(extra.values, locale)), code }
  if (extra.issues)
    b.issues = extra.issues.map((i) => ({
      path: i.path,
      message: translate(
        locale,
        i.message,
        localizeByteValues(
          localizeIssueValues(i.values, (id) => translate(locale, id)),
          locale,
        ),
      ),
    }))
  if (extra.current !== undefined) b.current = extra.current
  return b
}

function respond(c: Context<AppEnv>, code: ErrorCode, message: string, extra: DomainError['extra'] = {}) {
  const locale = c.get('locale') ?? 'en'
  if (extra.retryAfterSeconds !== undefined) c.header('Retry-After', String(Math.max(1, Math.ceil(extra.retryAfterSeconds))))
  return c.json(body(code, message, locale, extra), httpStatusOf[code] as 400)
}

/**
 * A failure on our side or at a provider (a 5xx, or an error caused by an upstream one such as
 * Vipps' 422) goes to the log with the request's id, and so to System Logs (README "Vipps"); a
 * caller's own mistake (a 4xx of the domain) does not.
 */
function logServerSide(c: Context<AppEnv>, err: DomainError, status: number): void {
  const log = c.get('log')
  if (!log) return
  const cause = err.cause instanceof Error ? err.cause : undefined
  const entry = { err: cause ?? err, code: err.code, status, method: c.req.method, path: c.req.path }
  const message = `${c.req.method} ${c.req.path} answered ${status} ${err.code}${cause ? `: ${cause.message}` : ''}`
  if (status >= 500) log.error(entry, message)
  else log.warn(entry, message)
}

function domainAnswer(c: Context<AppEnv>, err: DomainError): Response {
  const status = httpStatusOf[err.code]
  if (status >= 500 || err.cause !== undefined) logServerSide(c, err, status)
  return respond(c, err.code, err.message, err.extra)
}

/**
 * The one error mapper: domain errors keep their code; framework errors get a clear 4xx; anything
 * else is logged with the request id and answered with a 500 that shows no stack.
 */
export const onError: ErrorHandler<AppEnv> = async (err, c) => {
  if (err instanceof DomainError) return domainAnswer(c, err)
  if (err instanceof HTTPException) {
    if (err.status === 413) return respond(c, 'PAYLOAD_TOO_LARGE', 'The request is too large (at most 1 MiB).')
    if (err.status === 401) return respond(c, 'UNAUTHENTICATED', 'Please sign in again.')
    if (err.status < 500) {
      // Access first here too (docs/API.md "Refusals"): an outsider's broken or mistyped body is still 404 or 403.
      const refusal = await c.var.accessProbe?.().then(
        () => undefined,
        (e: unknown) => e,
      )
      if (refusal instanceof DomainError) return domainAnswer(c, refusal)
      if (err.status === 400 && /json/i.test(err.message)) return respond(c, 'MALFORMED_JSON', 'The request body is not valid JSON.')
      return respond(c, 'VALIDATION_FAILED', 'Some fields are not valid.')
    }
  }
  const log = c.get('log')
  if (isContention(err)) {
    // Not a fault: PostgreSQL gave the write up for another's of the same rows (the request then
    // runs again, write-transaction.ts; this answer stands only when its runs are spent), or a
    // lock or statement waited past its limit. The client repeats it with its Idempotency-Key.
    log?.warn({ err, method: c.req.method, path: c.req.path }, `${c.req.method} ${c.req.path}: ${err.message}`)
    return respond(c, 'BUSY', 'Many changes are being saved right now. Please try again in a moment.', { retryAfterSeconds: 1 })
  }
  if (log) log.error({ err, method: c.req.method, path: c.req.path }, `${c.req.method} ${c.req.path}: unhandled error: ${err.message}`)
  else console.error(err)
  return respond(c, 'INTERNAL', 'Something went wrong on our side. Please try again.')
}

/** PostgreSQL's serialization failure or deadlock (the reruns' own test), lock timeout (55P03) or statement timeout (57014). */
const isContention = (err: unknown): boolean => isSerializationFailure(err) || hasErrorCode(err, ['55P03', '57014'])

/**
 * Unknown paths answer 404; a known path with another method answers 405 with Allow.
 * Paths outside /api are not here: they get the web app.
 */
export function notFoundHandler(routes: () => { method: string; path: string }[]): NotFoundHandler<AppEnv> {
  return (c) => {
    const path = c.req.path
    const allowed = new Set<string>()
    for (const r of routes()) {
      if (r.method === 'ALL' || r.path.includes('*')) continue
      const pattern = new RegExp('^' + r.path.replace(/\{[^}]+\}|:[^/]+/g, '[^/]+') + '/?$')
      if (pattern.test(path)) allowed.add(r.method)
    }
    if (allowed.size > 0) {
      c.header('Allow', [...allowed].join(', '))
      return respond(c, 'METHOD_NOT_ALLOWED', 'This method is not allowed here.')
    }
    return respond(c, 'NOT_FOUND', 'Not found.')
  }
}

/** Validation hook for @hono/zod-openapi: every failed parse becomes VALIDATION_FAILED with issues. */
export const validationHook = async (result: { success: boolean; error?: ZodError }, c: Context<AppEnv>) => {
  if (!result.success && result.error) {
    // Access first (docs/API.md "Refusals"): a caller who may not reach the entity hears 404 or 403.
    await c.var.accessProbe?.()
    throw new DomainError('VALIDATION_FAILED', 'Some fields are not valid.', { issues: issuesOf(result.error) })
  }
}
