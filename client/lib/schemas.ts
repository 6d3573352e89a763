/**
 * The answers the first route's own calls read (sign-in, the session's user, the profile, errors)
 * are checked with their zod schemas, loaded on first use beside the request instead of with the
 * first route (docs/decisions/0072-no-zod-before-the-first-route.md). The service worker keeps the
 * chunk, so this works offline too.
 */
import type * as Schemas from './schema-set'

type SchemaSet = typeof Schemas

let loading: Promise<SchemaSet> | undefined

/** The schema set; loaded once. A failed load (a new deployment's missing chunk) is tried again next time. */
export function loadSchemas(): Promise<SchemaSet> {
  loading ??= import('./schema-set').catch((err: unknown) => {
    loading = undefined
    throw err
  })
  return loading
}

/** `schema` for `api()`: the named schema, loaded when the call is made. */
export const lazySchema =
  <K extends keyof SchemaSet>(name: K) =>
  (): Promise<SchemaSet[K]> =>
    loadSchemas().then((set) => set[name])
