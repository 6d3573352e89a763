import { randomBytes, createHash } from 'node:crypto'
import { v7 } from 'uuid'

/** Entity ids are UUID v7 (time-ordered, so new rows land at the end of indexes). */
export const newId = (): string => v7()

/** An opaque random secret (access tokens, reset tokens, login tokens): 32 bytes, base64url. */
export const randomToken = (bytes = 32): string => randomBytes(bytes).toString('base64url')

export const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex')

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'))
let pool = Buffer.alloc(0)
let at = 0
let lastMs = -1
let counter = 0

/**
 * A UUID v7 like `newId`, for bulk writers (a billing run makes four ids per agreement): random
 * bytes come from a pooled buffer instead of one system call per id. Ids of one millisecond are
 * ordered by a 12-bit counter in rand_a (RFC 9562 method 1), as `uuid`'s v7 does.
 */
export function newBulkId(): string {
  if (at + 8 > pool.length) {
    pool = randomBytes(8192)
    at = 0
  }
  const ms = Date.now()
  if (ms > lastMs) {
    lastMs = ms
    counter = pool[at++]! & 0x3ff
  } else if (++counter > 0xfff) {
    lastMs++
    counter = 0
  }
  const t = lastMs.toString(16).padStart(12, '0')
  const r = pool
  const i = at
  at += 7
  return `${t.slice(0, 8)}-${t.slice(8, 12)}-7${(counter >> 8).toString(16)}${HEX[counter & 0xff]}-${HEX[0x80 | (r[i]! & 0x3f)]}${HEX[r[i + 1]!]}-${HEX[r[i + 2]!]}${HEX[r[i + 3]!]}${HEX[r[i + 4]!]}${HEX[r[i + 5]!]}${HEX[r[i + 6]!]}${HEX[pool[(i + 7) % pool.length]!]}`
}
