/**
 * The fetch wrapper of the web client for direct calls (the sync transport and attachment uploads
 * have their own; see README "Architecture"). Every direct call to the server goes through `api()`:
 * base path /api, JSON in and out, the bearer token when signed in, the interface locale as
 * Accept-Language (the server translates its messages), and an Idempotency-Key on every write.
 * Error bodies (docs/API.md "Errors") become an `ApiError`.
 */
import type { z } from 'zod'
import { loadSchemas } from './schemas'
import { newId } from './ids'

export const API_BASE = '/api'

export interface ApiIssue {
  path: string
  message: string
}

/** A failed call. `status` 0 means no answer arrived (network down, server unreachable). */
export class ApiError extends Error {
  readonly status: number
  readonly code: string
  readonly issues: readonly ApiIssue[]

  constructor(status: number, code: string, message: string, issues: readonly ApiIssue[] = []) {
    super(message)
    this.name = 'ApiError'
    this.status = status
    this.code = code
    this.issues = issues
  }
}

/** What the API client needs from the rest of the app; set once at start by `configureApi`. */
export interface ApiConfig {
  getToken: () => string | null
  getLocale: () => string
  /** A call with this token answered 401: that token is no longer valid (expired or revoked). */
  onUnauthorized: (token: string) => void
}

let config: ApiConfig = { getToken: () => null, getLocale: () => 'en', onUnauthorized: () => {} }

export function configureApi(next: ApiConfig): void {
  config = next
}

/**
 * One Idempotency-Key per user action. Sending the same request again (a retry after the
 * answer was lost) reuses the key so the server applies it once; a changed request, or one
 * that got a definite answer, gets a fresh key next time.
 */
export interface ActionKey {
  keyFor: (fingerprint: string) => string
  settle: () => void
}

export function createActionKey(): ActionKey {
  let last: { fingerprint: string; key: string } | null = null
  return {
    keyFor(fingerprint) {
      if (last?.fingerprint !== fingerprint) last = { fingerprint, key: newId() }
      return last.key
    },
    settle() {
      last = null
    },
  }
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

export interface RequestOptions<S extends z.ZodType | undefined> {
  body?: unknown
  query?: Record<string, string | number | undefined | null>
  /** Parses the answer; without it the answer is `undefined`. A function loads the schema beside the request (`lazySchema`). */
  schema?: S | (() => Promise<S>)
  /** Keeps the Idempotency-Key across retries of the same action (see `createActionKey`). */
  action?: ActionKey
  /** `_version` of the record being changed, sent as If-Match (docs/API.md "Versions"). */
  ifMatch?: number
  /** The bearer token to send instead of the session's (sign-out revokes one it has forgotten already). */
  token?: string
  signal?: AbortSignal
}

const isWrite = (method: Method) => method !== 'GET'

/** What an upload is, for its action key: its fields and its files' names, sizes and times (another file is another action). */
const formFingerprint = (form: FormData): string =>
  [...form.entries()].map(([k, v]) => (typeof v === 'string' ? `${k}=${v}` : `${k}=${v.name}:${v.size}:${v.lastModified}`)).join('&')

/** An answer that does not settle the action: the server may not have applied it yet. */
const outcomeUnknown = (status: number, code: string) => status === 0 || status >= 500 || code === 'IDEMPOTENCY_IN_PROGRESS'

export function buildUrl(path: string, query?: RequestOptions<undefined>['query']): string {
  const params = new URLSearchParams()
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null && v !== '') params.set(k, String(v))
  const qs = params.toString()
  return `${API_BASE}${path}${qs ? `?${qs}` : ''}`
}

export async function api<S extends z.ZodType | undefined = undefined>(
  method: Method,
  path: string,
  options: RequestOptions<S> = {},
): Promise<S extends z.ZodType ? z.infer<S> : undefined> {
  const url = buildUrl(path, options.query)
  const token = options.token ?? config.getToken()
  const headers: Record<string, string> = { Accept: 'application/json', 'Accept-Language': config.getLocale() }
  if (token) headers.Authorization = `Bearer ${token}`
  if (options.ifMatch !== undefined) headers['If-Match'] = `"${options.ifMatch}"`
  // A FormData body (an upload) is sent as multipart: fetch sets its Content-Type with the boundary.
  const json = options.body === undefined || options.body instanceof FormData ? undefined : JSON.stringify(options.body)
  const body = options.body instanceof FormData ? options.body : json
  if (json !== undefined) headers['Content-Type'] = 'application/json'
  if (isWrite(method)) {
    headers['Idempotency-Key'] =
      options.action ? options.action.keyFor(`${method} ${url} ${options.body instanceof FormData ? formFingerprint(options.body) : (json ?? '')}`) : newId()
  }

  const schema = typeof options.schema === 'function' ? options.schema() : options.schema
  // Not left unhandled while the request runs; awaited (and its failure reported) below.
  if (schema instanceof Promise) schema.catch(() => undefined)
  let response: Response
  try {
    response = await fetch(url, { method, headers, body, signal: options.signal })
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err
    throw new ApiError(0, 'NETWORK_ERROR', '')
  }

  if (!response.ok) {
    const error = await toApiError(response)
    if (!outcomeUnknown(error.status, error.code)) options.action?.settle()
    if (response.status === 401 && token) config.onUnauthorized(token)
    throw error
  }
  options.action?.settle()
  if (!schema || response.status === 204) return undefined as never
  const parser = await Promise.resolve(schema).catch(() => undefined)
  if (!parser) throw new ApiError(response.status, 'INVALID_RESPONSE', '')
  const parsed = parser.safeParse(await response.json().catch(() => undefined))
  if (!parsed.success) throw new ApiError(response.status, 'INVALID_RESPONSE', '')
  return parsed.data as never
}

/**
 * A file the API serves (an attachment, an export, a download): fetched with the session's bearer
 * token and locale, which a plain link cannot carry. Its name is the server's
 * (`Content-Disposition`), else `fallbackName`. A refusal throws an ApiError as `api` does.
 */
export async function apiFile(path: string, fallbackName = 'download'): Promise<{ blob: Blob; name: string }> {
  const token = config.getToken()
  const headers: Record<string, string> = { 'Accept-Language': config.getLocale() }
  if (token) headers.Authorization = `Bearer ${token}`
  let response: Response
  try {
    response = await fetch(buildUrl(path), { headers })
  } catch {
    throw new ApiError(0, 'NETWORK_ERROR', '')
  }
  if (!response.ok) {
    if (response.status === 401 && token) config.onUnauthorized(token)
    throw await toApiError(response)
  }
  return { blob: await response.blob(), name: fileNameOf(response.headers.get('Content-Disposition'), fallbackName) }
}

/** The file name in a `Content-Disposition: attachment; filename="…"` header. */
export const fileNameOf = (disposition: string | null, fallback: string): string => /filename="([^"]+)"/.exec(disposition ?? '')?.[1] ?? fallback

/** Hands a blob to the browser as a downloaded file. */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob)
  const a = document.createElement('a')
  a.href = url
  a.download = name
  document.body.append(a)
  a.click()
  a.remove()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}

async function toApiError(response: Response): Promise<ApiError> {
  const [schemas, answer] = await Promise.all([loadSchemas().catch(() => undefined), response.json().catch(() => undefined)])
  const parsed = schemas?.ErrorBody.safeParse(answer)
  if (!parsed?.success) return new ApiError(response.status, response.status >= 500 ? 'INTERNAL' : 'UNKNOWN', '')
  const { code, message, issues } = parsed.data
  return new ApiError(response.status, code, message, issues ?? [])
}

/**
 * The server's (already translated) message of a failed call, or the caller's fallback text. A
 * field's own message says more than the summary of a validation failure, so it comes first.
 */
export function errorMessage(error: unknown, fallback: string): string {
  if (!(error instanceof ApiError)) return fallback
  return error.issues[0]?.message || error.message || fallback
}
