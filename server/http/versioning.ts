import type { Context } from 'hono'
import { validation } from '../errors'

/** The version named by `If-Match: "<version>"` (or W/"…"), undefined when absent. */
export function ifMatchVersion(c: Context): number | undefined {
  const header = c.req.header('If-Match')
  if (header === undefined || header === '*') return undefined
  const m = header.match(/^(?:W\/)?"?(\d{1,10})"?$/)
  if (!m) throw validation([{ path: 'If-Match', message: 'If-Match must be a version such as "3".' }])
  return Number(m[1])
}

/** Sets `ETag: "<version>"` for a versioned entity. */
export const setETag = (c: Context, version: number) => c.header('ETag', `"${version}"`)
