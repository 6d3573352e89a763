/**
 * Route search parameters (`validateSearch`) without zod, so the route tree — part of the first
 * route — does not load it (docs/decisions/0072-no-zod-before-the-first-route.md). A value that is
 * missing or not of its kind reads as `undefined`, as zod's `.optional().catch(undefined)` did: a
 * hand-edited address opens the screen without it, never an error page.
 */

type Field<T> = (value: unknown) => T | undefined

/** The router's `validateSearch` for these fields. */
export const searchOf =
  <F extends Record<string, Field<unknown>>>(fields: F) =>
  (search: Record<string, unknown>): { [K in keyof F]?: ReturnType<F[K]> } =>
    Object.fromEntries(Object.entries(fields).map(([key, field]) => [key, field(search[key])])) as { [K in keyof F]?: ReturnType<F[K]> }

/** Any text up to `max` characters. */
export const text =
  (max = 2000): Field<string> =>
  (value) =>
    typeof value === 'string' && value.length <= max ? value : undefined

/** One of the given words. */
export const oneOf =
  <const V extends readonly string[]>(values: V): Field<V[number]> =>
  (value) =>
    typeof value === 'string' && (values as readonly string[]).includes(value) ? value : undefined

/** A whole number from `min` to `max`; the router reads `?year=2026` as a number, a link may carry it as text. */
export const wholeNumber =
  (min: number, max: number): Field<number> =>
  (value) => {
    const n = typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value
    return typeof n === 'number' && Number.isInteger(n) && n >= min && n <= max ? n : undefined
  }

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** A record's id (a UUID). */
export const recordId: Field<string> = (value) => (typeof value === 'string' && UUID.test(value) ? value : undefined)

/** A calendar day `YYYY-MM-DD` (an interim statement's last day). */
export const isoDay: Field<string> = (value) => (typeof value === 'string' && /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/.test(value) ? value : undefined)
