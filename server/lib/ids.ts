import { randomBytes, createHash } from 'node:crypto'
import { v7 } from 'uuid'

/** Entity ids are UUID v7 (time-ordered, so new rows land at the end of indexes). */
export const newId = (): string => v7()

/** An opaque random secret (access tokens, reset tokens, login tokens): 32 bytes, base64url. */
export const randomToken = (bytes = 32): string => randomBytes(bytes).toString('base64url')

export const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex')
