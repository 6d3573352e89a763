import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { api, ApiError, buildUrl, configureApi, createActionKey, errorMessage } from './api'

const json = (status: number, body: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

let fetchMock: ReturnType<typeof vi.fn>
let token: string | null
let unauthorized: string[]

beforeEach(() => {
  token = null
  unauthorized = []
  fetchMock = vi.fn()
  vi.stubGlobal('fetch', fetchMock)
  configureApi({ getToken: () => token, getLocale: () => 'da', onUnauthorized: (t) => unauthorized.push(t) })
})
afterEach(() => vi.unstubAllGlobals())

const sentHeaders = (call = 0) => (fetchMock.mock.calls[call]![1] as RequestInit).headers as Record<string, string>

describe('api', () => {
  it('sends JSON to /api with the locale and the bearer token when signed in', async () => {
    token = 'abc'
    fetchMock.mockResolvedValue(json(200, { message: 'ok' }))
    const result = await api('POST', '/auth/forgot-password', { body: { email: 'a@b.dk' }, schema: z.object({ message: z.string() }) })
    expect(result).toEqual({ message: 'ok' })
    const [url, init] = fetchMock.mock.calls[0]!
    expect(url).toBe('/api/auth/forgot-password')
    expect(init.method).toBe('POST')
    expect(init.body).toBe('{"email":"a@b.dk"}')
    expect(sentHeaders()).toMatchObject({ Authorization: 'Bearer abc', 'Accept-Language': 'da', 'Content-Type': 'application/json' })
  })

  it('sends no Authorization header and no Idempotency-Key on a guest GET', async () => {
    fetchMock.mockResolvedValue(json(200, {}))
    await api('GET', '/health')
    expect(sentHeaders().Authorization).toBeUndefined()
    expect(sentHeaders()['Idempotency-Key']).toBeUndefined()
  })

  it('sends a fresh Idempotency-Key on every write without an action', async () => {
    fetchMock.mockImplementation(async () => json(204, undefined))
    await api('DELETE', '/account/auth-methods/1')
    await api('DELETE', '/account/auth-methods/1')
    const [a, b] = [sentHeaders(0)['Idempotency-Key'], sentHeaders(1)['Idempotency-Key']]
    expect(a).toMatch(/^[0-9a-f-]{36}$/)
    expect(a).not.toBe(b)
  })

  it('reuses the key of an action when the same request is retried after a lost answer', async () => {
    const action = createActionKey()
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch')).mockResolvedValueOnce(json(200, {}))
    await expect(api('POST', '/account/current-company', { body: { companyId: 'x' }, action })).rejects.toMatchObject({ status: 0, code: 'NETWORK_ERROR' })
    await api('POST', '/account/current-company', { body: { companyId: 'x' }, action })
    expect(sentHeaders(0)['Idempotency-Key']).toBe(sentHeaders(1)['Idempotency-Key'])
  })

  it('gives an action a new key once the request changed or was answered', async () => {
    const action = createActionKey()
    fetchMock.mockImplementation(async () => json(400, { message: 'Nej', code: 'VALIDATION_FAILED' }))
    await api('PATCH', '/account/profile/fullName', { body: { value: '' }, action }).catch(() => {})
    await api('PATCH', '/account/profile/fullName', { body: { value: '' }, action }).catch(() => {})
    await api('PATCH', '/account/profile/fullName', { body: { value: 'B' }, action }).catch(() => {})
    const keys = [0, 1, 2].map((i) => sentHeaders(i)['Idempotency-Key'])
    expect(new Set(keys).size).toBe(3)
  })

  it('keys an action without a body (a GET-form action, a bodiless POST) and an upload by its form', async () => {
    const action = createActionKey()
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch')).mockImplementation(async () => json(200, {}))
    await expect(api('POST', '/company/x/suspend', { action })).rejects.toMatchObject({ status: 0 })
    await api('POST', '/company/x/suspend', { action })
    expect(sentHeaders(0)['Idempotency-Key']).toBe(sentHeaders(1)['Idempotency-Key'])

    const upload = createActionKey()
    const form = (name: string) => {
      const f = new FormData()
      f.set('title', 'Husorden')
      f.set('file', new File(['x'], name, { lastModified: 1 }))
      return f
    }
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch')).mockRejectedValueOnce(new TypeError('Failed to fetch'))
    await api('POST', '/documents', { body: form('a.txt'), action: upload }).catch(() => {})
    await api('POST', '/documents', { body: form('a.txt'), action: upload }).catch(() => {})
    await api('POST', '/documents', { body: form('b.txt'), action: upload })
    expect(sentHeaders(2)['Idempotency-Key']).toBe(sentHeaders(3)['Idempotency-Key'])
    expect(sentHeaders(4)['Idempotency-Key']).not.toBe(sentHeaders(3)['Idempotency-Key'])
    // Multipart: no JSON Content-Type (fetch sets the boundary itself), the form itself as the body.
    expect(sentHeaders(2)['Content-Type']).toBeUndefined()
    expect((fetchMock.mock.calls[2]![1] as RequestInit).body).toBeInstanceOf(FormData)
  })

  it('throws an ApiError with the status, code, message and issues of the error body', async () => {
    fetchMock.mockResolvedValue(
      json(400, { message: 'Nogle felter er ugyldige.', code: 'VALIDATION_FAILED', issues: [{ path: 'value', message: 'Dette felt er påkrævet' }] }),
    )
    const error = await api('PATCH', '/account/profile/fullName', { body: { value: '' } }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({ status: 400, code: 'VALIDATION_FAILED', message: 'Nogle felter er ugyldige.' })
    expect((error as ApiError).issues).toEqual([{ path: 'value', message: 'Dette felt er påkrævet' }])
    expect(errorMessage(error, 'fallback')).toBe('Dette felt er påkrævet')
  })

  it('turns an answer without an error body into an ApiError without message', async () => {
    fetchMock.mockResolvedValue(new Response('<html>Bad gateway</html>', { status: 502 }))
    const error = await api('GET', '/account/info').catch((e: unknown) => e)
    expect(error).toMatchObject({ status: 502, code: 'INTERNAL', message: '' })
    expect(errorMessage(error, 'fallback')).toBe('fallback')
  })

  it('clears the session on a 401 to a signed-in call', async () => {
    token = 'expired'
    fetchMock.mockResolvedValue(json(401, { message: 'Please sign in again.', code: 'UNAUTHENTICATED' }))
    await expect(api('GET', '/account/info')).rejects.toMatchObject({ status: 401 })
    expect(unauthorized).toEqual(['expired'])
  })

  it('does not treat a failed guest login as a lost session', async () => {
    fetchMock.mockResolvedValue(json(401, { message: 'Login failed.', code: 'INVALID_CREDENTIALS' }))
    await expect(api('POST', '/auth/login', { body: { type: 'token', token: 'x' } })).rejects.toMatchObject({ message: 'Login failed.' })
    expect(unauthorized).toEqual([])
  })

  it('rejects an answer that does not match the contract', async () => {
    fetchMock.mockResolvedValue(json(200, { accessToken: 1 }))
    await expect(api('POST', '/auth/login', { body: {}, schema: z.object({ accessToken: z.string() }) })).rejects.toMatchObject({
      code: 'INVALID_RESPONSE',
    })
  })

  it('returns undefined for 204 No Content', async () => {
    fetchMock.mockResolvedValue(new Response(null, { status: 204 }))
    await expect(api('DELETE', '/account/auth-methods/1', { schema: z.object({}) })).resolves.toBeUndefined()
  })
})

describe('buildUrl', () => {
  it('leaves out empty query values', () => {
    expect(buildUrl('/logger', { skip: 0, take: 50, search: '' })).toBe('/api/logger?skip=0&take=50')
  })
})
