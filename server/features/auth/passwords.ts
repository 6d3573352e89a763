import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto'
import { commonPasswords } from './common-passwords'

/** scrypt parameters (OWASP: N=2^15, r=8, p=1 gives ~50 ms here; 2^14 keeps tests quick). */
const defaults = { N: 16384, r: 8, p: 1 }
const KEY_LENGTH = 64

function scryptAsync(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, KEY_LENGTH, { ...options, maxmem: 64 * 1024 * 1024 }, (err, key) => (err ? reject(err) : resolve(key))),
  )
}

/** Hashes a password as `scrypt$N$r$p$salt$hash` (base64), with a fresh 16-byte salt. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16)
  const key = await scryptAsync(password, salt, defaults)
  return ['scrypt', defaults.N, defaults.r, defaults.p, salt.toString('base64'), key.toString('base64')].join('$')
}

/** Checks a password against a stored hash in constant time; a malformed hash never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, saltB64, keyB64] = stored.split('$')
  if (scheme !== 'scrypt' || !n || !r || !p || !saltB64 || !keyB64) return false
  const expected = Buffer.from(keyB64, 'base64')
  const actual = await scryptAsync(password, Buffer.from(saltB64, 'base64'), { N: Number(n), r: Number(r), p: Number(p) })
  return expected.length === actual.length && timingSafeEqual(expected, actual)
}

/** A hash of a random password, verified against when the account does not exist, so timing reveals nothing. */
let dummyHash: Promise<string> | undefined
export const dummyPasswordHash = () => (dummyHash ??= hashPassword(randomBytes(16).toString('hex')))

/** True for passwords on the list of the most common ones (case-insensitive). */
export const isCommonPassword = (password: string): boolean => commonPasswords.has(password.toLowerCase())
