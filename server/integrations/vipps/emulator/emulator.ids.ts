import { createHash, randomBytes } from 'node:crypto'

const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'

/** Random letters and digits, like the ids Vipps hands out (`agr_5kSeqz`, `chr-WxrjAd`). */
export function randomAlnum(length: number): string {
  const bytes = randomBytes(length * 2)
  let out = ''
  // 248 = 4 × 62: bytes at or above it are skipped so every character is equally likely.
  for (const b of bytes) if (b < 248 && out.length < length) out += ALPHABET[b % 62]
  return out.length === length ? out : out + randomAlnum(length - out.length)
}

/** A stable UUID-shaped subject for a phone number that is not one of the demo users. */
export function subjectForPhone(phoneNumber: string): string {
  const h = createHash('sha256').update(`vipps-emulator-sub:${phoneNumber}`).digest('hex')
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`
}

/** Phone numbers as Vipps stores them (MSISDN: country code and number, digits only). */
export function normalizePhone(value: string): string | null {
  const digits = value
    .replace(/[\s()-]/g, '')
    .replace(/^\+/, '')
    .replace(/^00/, '')
  return /^\d{8,15}$/.test(digits) ? digits : null
}
