import { createHash, createHmac, timingSafeEqual } from 'node:crypto'

/**
 * Vipps webhook signatures (Webhooks API, docs/DOMAIN.md):
 *   x-ms-date, x-ms-content-sha256 = base64(SHA-256(body)),
 *   Authorization: HMAC-SHA256 SignedHeaders=x-ms-date;host;x-ms-content-sha256&Signature=<b64>
 * where Signature = base64(HMAC-SHA256(secret, "POST\n" + pathAndQuery + "\n" + date + ";" + host + ";" + contentHash)).
 */
export const contentHash = (body: string) => createHash('sha256').update(body, 'utf8').digest('base64')

export function signatureOf(secret: string, pathAndQuery: string, date: string, host: string, hash: string): string {
  const toSign = `POST\n${pathAndQuery}\n${date};${host};${hash}`
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(toSign, 'utf8').digest('base64')
}

/** The headers Vipps (and our emulator) sends with a webhook. */
export function signWebhook(secret: string, url: string, body: string, date: Date): Record<string, string> {
  const u = new URL(url)
  const hash = contentHash(body)
  const xDate = date.toUTCString()
  const signature = signatureOf(secret, u.pathname + u.search, xDate, u.host, hash)
  return {
    'x-ms-date': xDate,
    'x-ms-content-sha256': hash,
    Authorization: `HMAC-SHA256 SignedHeaders=x-ms-date;host;x-ms-content-sha256&Signature=${signature}`,
  }
}

export type VerifyFailure = 'missing-headers' | 'content-hash' | 'signature' | 'stale-date'

/** Checks a received webhook; `maxAgeMs` bounds how old x-ms-date may be (replays). */
export function verifyWebhook(
  secret: string,
  req: { pathAndQuery: string; host: string; body: string; headers: { date?: string; contentSha?: string; authorization?: string } },
  now: Date,
  maxAgeMs = 5 * 60 * 1000,
): { ok: true } | { ok: false; reason: VerifyFailure } {
  const { date, contentSha, authorization } = req.headers
  if (!date || !contentSha || !authorization) return { ok: false, reason: 'missing-headers' }
  const hash = contentHash(req.body)
  if (!safeEqual(hash, contentSha)) return { ok: false, reason: 'content-hash' }
  const given = /Signature=([A-Za-z0-9+/=]+)/.exec(authorization)?.[1]
  if (!given || !safeEqual(given, signatureOf(secret, req.pathAndQuery, date, req.host, hash))) return { ok: false, reason: 'signature' }
  const at = Date.parse(date)
  if (!Number.isFinite(at) || Math.abs(now.getTime() - at) > maxAgeMs) return { ok: false, reason: 'stale-date' }
  return { ok: true }
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}
