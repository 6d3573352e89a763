import { beforeEach, describe, expect, it, vi } from 'vitest'

const signIn = vi.fn(async () => undefined)
const signInWithAccessToken = vi.fn(async () => undefined)
vi.mock('./auth-mutations', () => ({ signIn: (...a: unknown[]) => signIn(...(a as [])) }))
vi.mock('./session', () => ({ signInWithAccessToken: (...a: unknown[]) => signInWithAccessToken(...(a as [])) }))

const { takeTokensFromUrl } = await import('./url-tokens')

beforeEach(() => {
  signIn.mockReset().mockResolvedValue(undefined)
  signInWithAccessToken.mockReset().mockResolvedValue(undefined)
})

describe('takeTokensFromUrl', () => {
  it('does nothing without a token in the URL', async () => {
    expect(await takeTokensFromUrl('/user', '?tab=x')).toBeNull()
    expect(signIn).not.toHaveBeenCalled()
  })

  it('signs in with ?token= and removes it, keeping the other parameters', async () => {
    expect(await takeTokensFromUrl('/user', '?token=0123456789&tab=x')).toBe('/user?tab=x')
    expect(signIn).toHaveBeenCalledWith({ type: 'token', token: '0123456789' })
  })

  it('adopts ?authToken= as an access token', async () => {
    expect(await takeTokensFromUrl('/', '?authToken=abc')).toBe('/')
    expect(signInWithAccessToken).toHaveBeenCalledWith('abc')
  })

  it('sends a failed token sign-in to the login page with an error', async () => {
    signIn.mockRejectedValue(new Error('401'))
    expect(await takeTokensFromUrl('/user', '?token=bad')).toBe('/login?error=token_login_failed')
  })

  it('leaves the password-reset token of /reset-password alone', async () => {
    expect(await takeTokensFromUrl('/reset-password', '?token=abc&email=a%40b.dk')).toBeNull()
    expect(signIn).not.toHaveBeenCalled()
  })

  it('leaves the confirmation token of /confirm-email alone', async () => {
    expect(await takeTokensFromUrl('/confirm-email', '?token=abc')).toBeNull()
    expect(signIn).not.toHaveBeenCalled()
  })
})
