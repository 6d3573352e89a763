import { createHmac, timingSafeEqual } from 'node:crypto'

/**
 * Signatures of the mail provider's bounce notices (docs/decisions/0091), as the Standard Webhooks
 * specification has them (used by Svix, Resend and others): the headers `webhook-id`,
 * `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,<base64>`, several separated by
 * spaces while a secret is rotated), where the signature is base64(HMAC-SHA256(secret,
 * "<id>.<timestamp>.<body>")). A secret written `whsec_<base64>` is those bytes; any other is its
 * UTF-8 text. node:crypto does it in a few lines; the check is timing-safe and refuses a notice
 * more than 5 minutes off (a replay).
 */
export interface SignedHeaders {
  id?: string | undefined
  timestamp?: string | undefined
  signature?: string | undefined
}

const keyOf = (secret: string): Buffer => (secret.startsWith('whsec_') ? Buffer.from(secret.slice(6), 'base64') : Buffer.from(secret, 'utf8'))

export const bounceSignatureOf = (secret: string, id: string, timestamp: string, body: string): string =>
  createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.${body}`, 'utf8').digest('base64')

/** The headers a provider (or a test, or `scripts/mail-bounce.ts`) sends with a notice. */
export function signBounce(secret: string, id: string, body: string, at: Date): Record<string, string> {
  const timestamp = String(Math.floor(at.getTime() / 1000))
  return { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${bounceSignatureOf(secret, id, timestamp, body)}` }
}

const safeEqual = (a: string, b: string): boolean => {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

/** Whether the notice is signed with the secret and not more than `maxAgeMs` off the clock. */
export function verifyBounce(secret: string, headers: SignedHeaders, body: string, now: Date, maxAgeMs = 5 * 60 * 1000): boolean {
  const { id, timestamp, signature } = headers
  if (!id || !timestamp || !signature || !/^\d{1,12}$/.test(timestamp)) return false
  if (Math.abs(now.getTime() - Number(timestamp) * 1000) > maxAgeMs) return false
  const expected = bounceSignatureOf(secret, id, timestamp, body)
  return signature.split(' ').some((part) => part.startsWith('v1,') && safeEqual(part.slice(3), expected))
}
