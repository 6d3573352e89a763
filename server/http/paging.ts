import type { Context } from 'hono'
import { z } from 'zod'
import { validation } from '../errors'
import { messages } from '../../shared/i18n-messages'

/**
 * Cursor paging of lists (docs/API.md "Lists", query fields in shared/contract/paging.ts). The
 * cursor is the last row's sort key as base64url JSON: opaque to clients, stable under inserts
 * (keyset paging, no OFFSET), and read back strictly so a cursor that is not one of ours is a
 * 400 naming the field instead of a wrong page.
 */

type KeyPart = 'string' | 'number'
type KeyOf<T extends readonly KeyPart[]> = { -readonly [K in keyof T]: T[K] extends 'string' ? string : number }

export const encodeCursor = (key: readonly (string | number)[]): string => Buffer.from(JSON.stringify(key)).toString('base64url')

/** The sort key in `raw` (undefined for the first page); one of another shape is 400 VALIDATION_FAILED on `cursor`. */
export function decodeCursor<const T extends readonly KeyPart[]>(raw: string | undefined, shape: T): KeyOf<T> | undefined {
  if (raw === undefined || raw === '') return undefined
  let parsed: unknown
  try {
    parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'))
  } catch {
    parsed = undefined
  }
  const fits =
    Array.isArray(parsed) &&
    parsed.length === shape.length &&
    parsed.every((v, i) => (shape[i] === 'number' ? Number.isSafeInteger(v) : typeof v === 'string' && v.length <= 200))
  if (!fits) throw validation([{ path: 'cursor', message: messages.valueInvalid.id }])
  return parsed as KeyOf<T>
}

/**
 * A page from rows read with `LIMIT limit + 1`: the extra row only says that another page exists,
 * so the last page never links to an empty one.
 */
export function pageOf<R>(rows: R[], limit: number, keyOf: (row: R) => readonly (string | number)[]): { rows: R[]; next: string | null } {
  if (rows.length <= limit) return { rows, next: null }
  const page = rows.slice(0, limit)
  return { rows: page, next: encodeCursor(keyOf(page[page.length - 1]!)) }
}

/** `Link: </api/…?…&cursor=…>; rel="next"` (RFC 8288): this request's path and query with the next cursor; nothing on the last page. */
export function setNextLink(c: Context, next: string | null): void {
  if (next === null) return
  const url = new URL(c.req.url)
  url.searchParams.set('cursor', next)
  c.header('Link', `<${url.pathname}${url.search}>; rel="next"`)
}

/** The `Link` header of a paged list's answer, for its OpenAPI response (`headers`). */
export const nextLinkHeader = z.object({
  link: z.string().optional().meta({ description: 'The next page: `<path?…&cursor=…>; rel="next"` (RFC 8288); absent on the last page' }),
})
