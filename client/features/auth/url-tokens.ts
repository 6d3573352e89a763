/**
 * Navigation guard of docs/PRODUCT.md §2: `?token=` signs in with a login token and `?authToken=` adopts an
 * access token (e.g. handed back by the Vipps MobilePay sign-in); both are then removed from the URL.
 */
import { signIn } from './auth-mutations'
import { signInWithAccessToken } from './session'

/** Where to go instead of the current URL, or null when the URL carries no token. */
export async function takeTokensFromUrl(pathname: string, searchStr: string): Promise<string | null> {
  // The reset-password and e-mail confirmation links carry their own tokens under the same name.
  if (pathname === '/reset-password' || pathname === '/confirm-email') return null
  const params = new URLSearchParams(searchStr)
  const loginToken = params.get('token')
  const accessToken = params.get('authToken')
  if (!loginToken && !accessToken) return null
  params.delete('token')
  params.delete('authToken')
  try {
    if (accessToken) await signInWithAccessToken(accessToken)
    else if (loginToken) await signIn({ type: 'token', token: loginToken })
  } catch {
    return '/login?error=token_login_failed'
  }
  const rest = params.toString()
  return `${pathname}${rest ? `?${rest}` : ''}`
}
