import { z } from 'zod'

/**
 * Cursor paging of a list (docs/API.md "Lists"): the answer stays a JSON array, and the next page
 * is the `Link: <…?cursor=…>; rel="next"` header, absent on the last page. The cursor is opaque to
 * clients (server/http/paging.ts makes and reads it); a client follows the link as it is.
 */
export const PAGE_LIMIT_MAX = 200

/** The query fields every paged list accepts; `.extend()` a list's filters with them. */
export const pageQueryFields = {
  /** Rows per page, 1–200; 200 when absent. */
  limit: z.coerce.number().int().min(1).max(PAGE_LIMIT_MAX).default(PAGE_LIMIT_MAX).meta({ description: 'Rows per page, 1–200 (default 200)' }),
  /** From the previous page's `Link` header; absent for the first page. */
  cursor: z.string().max(500).optional().meta({ description: "Where the page starts: taken from the previous answer's `Link` header" }),
}

export const PageQuery = z.object(pageQueryFields)
export type PageQuery = z.output<typeof PageQuery>
