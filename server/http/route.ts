import { createRoute, z, type OpenAPIHono, type RouteConfig } from '@hono/zod-openapi'
import type { MiddlewareHandler } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { MAX_ATTACHMENT_BYTES } from '../../shared/contract/messages'
import { MAX_DOCUMENT_BYTES } from '../../shared/contract/documents'
import { messages as m } from '../../shared/i18n-messages'
import { DomainError, forbidden } from '../errors'
import { requireActor } from '../access/actor'
import { checkScope, type RouteScope } from '../access/scope'
import type { AppEnv } from './app-env'
import { declaredWithin } from './wire-request'

/**
 * What a route needs from the HTTP layer, stated where the route is declared
 * (docs/ARCHITECTURE.md "Modules", docs/decisions/0076-feature-modules-and-route-rules.md). The
 * rules become the route's own middleware, so nothing elsewhere lists paths; `route()` does not
 * accept a route without them, and a test walks every documented route for its rules.
 */
export interface RouteRules {
  /**
   * Who may call it at all: anyone; a signed-in user (the feature's policy then checks the role in
   * the association, and another association's data answers 404); or the super admin alone.
   */
  access: 'public' | 'signed-in' | 'super-admin'
  /**
   * How it touches the database:
   * - `read`: in a read scope, never the write lock (docs/decisions/0049);
   * - `write`: one transaction under the write lock, with its Idempotency-Key record (docs/API.md "Writes");
   * - `own-steps`: takes the write lock itself, per step: it waits on an outside service (`calls`),
   *   or runs other requests, or must leave no idempotency record (its reason in `why`).
   */
  data: 'read' | 'write' | 'own-steps'
  /** The outside service it waits on while answering (docs/decisions/0009): never under the write lock. */
  calls?: 'vipps' | 'address-register'
  /** Why a route without `calls` takes its own steps (`data: 'own-steps'`). */
  why?: string
  /** A body larger than the usual 1 MiB: an attachment or photo (5 MB) or a document (20 MB). */
  body?: 'attachment' | 'document'
  /** No request log line: its time and session could point to the sender (docs/decisions/0027). */
  unlogged?: true
  /** Never an item of a sync batch (docs/OFFLINE.md): the batch refuses it before any item runs. */
  unbatched?: true
  /** The synced entities a write changes: clients see it at their next pull (docs/OFFLINE.md). */
  syncs?: readonly string[]
  /**
   * Whose data it reaches (server/access/scope.ts): decided before a refused body or query is
   * reported, so a caller without access hears 404 or 403, never 400 (docs/API.md "Refusals").
   */
  scope?: RouteScope
}

/** The 1 MiB every JSON body may have, and the larger uploads (with room for the multipart frame). */
export const BODY_LIMITS = {
  json: 1024 * 1024,
  attachment: MAX_ATTACHMENT_BYTES + 64 * 1024,
  document: MAX_DOCUMENT_BYTES + 64 * 1024,
} as const

const tooLarge = {
  json: 'The request is too large (at most 1 MiB).',
  attachment: m.attachmentTooLarge.id,
  document: m.documentTooLarge.id,
} as const

const limits = Object.fromEntries(
  (Object.keys(BODY_LIMITS) as Array<keyof typeof BODY_LIMITS>).map((kind) => {
    const limit = bodyLimit({
      maxSize: BODY_LIMITS[kind],
      onError: () => {
        throw new DomainError('PAYLOAD_TOO_LARGE', tooLarge[kind])
      },
    })
    // A request off the socket whose headers settle it skips bodyLimit, which reads `c.req.raw.body`
    // and so makes @hono/node-server build a full web Request with streams (docs/BENCHMARKS.md).
    const checked: MiddlewareHandler<AppEnv> = (c, next) => (declaredWithin(c.req.raw, BODY_LIMITS[kind]) ? next() : limit(c, next))
    return [kind, checked]
  }),
) as Record<keyof typeof BODY_LIMITS, MiddlewareHandler<AppEnv>>

/** The middleware that carries out `rules`, in the order a request meets them. */
export function ruled(rules: RouteRules): MiddlewareHandler<AppEnv> {
  const limit = limits[rules.body ?? 'json']
  const data = rules.data
  return async (c, next) => {
    if (rules.access !== 'public') {
      // Guests are refused before the body is read.
      const actor = requireActor(c.var.actor)
      if (rules.access === 'super-admin' && actor.systemRole !== 'SUPERADMIN') throw forbidden()
      // The scope is checked when the body or query is refused (server/http/error-mapper.ts
      // `validationHook`); a request that passes leaves the check to the service, as it reads the entity anyway.
      const scope = rules.scope
      if (scope) c.set('accessProbe', () => checkScope(c, c.var.access, actor, scope))
    }
    if (rules.unlogged) c.set('unlogged', true)
    // HEAD is answered by a GET route's handler: on a GET that changes data or calls out it would
    // run the action from a method that must be safe.
    if (c.req.method === 'HEAD' && data !== 'read') return c.body(null, 405, { Allow: 'GET' })
    return limit(c, async () => {
      if (data === 'own-steps') await next()
      else await c.var.data[data](c, next)
    })
  }
}

/** The rules a route was declared with (`route()` keeps them in the OpenAPI document as `x-rules`). */
export const rulesOf = (config: object): RouteRules | undefined => (config as { 'x-rules'?: RouteRules })['x-rules']

/**
 * The scope of a signed-in route that names an association and states none itself: `{companyId}`
 * in the path (its staff's data), or `companyId` in the query or JSON body (an association the
 * caller lives in or works for). Entity routes state theirs (`scope: { of: 'invoice' }`).
 */
function associationScope(config: { path: string; rules: RouteRules; request?: RouteConfig['request'] }): Pick<RouteRules, 'scope'> {
  if (config.rules.scope || config.rules.access !== 'signed-in') return {}
  if (config.path.includes('{companyId}')) return { scope: { of: 'company', param: 'companyId' } }
  const { query, body } = config.request ?? {}
  if (query instanceof z.ZodObject && 'companyId' in query.shape) return { scope: { of: 'association', in: 'query', param: 'companyId' } }
  const schema: unknown = (body?.content?.['application/json'] as { schema?: unknown } | undefined)?.schema
  if (schema instanceof z.ZodObject && 'companyId' in schema.shape) return { scope: { of: 'association', in: 'body', param: 'companyId' } }
  return {}
}

/**
 * `createRoute` with the route's rules: they are documented (`x-rules` in /api/openapi.json) and
 * run as the route's middleware. Every route of the API is declared through this (or a builder
 * over it, server/http/item-routes.ts); ESLint refuses `createRoute` anywhere else.
 */
export function route<const P extends string, const R extends Omit<RouteConfig, 'path' | 'middleware'> & { path: P }>(config: R & { rules: RouteRules }) {
  const { rules: stated, ...rest } = config
  if (stated.data === 'own-steps' && !stated.calls && !stated.why) throw new Error(`${config.method} ${config.path}: own-steps needs \`calls\` or \`why\``)
  const rules: RouteRules = { ...stated, ...associationScope(config) }
  return createRoute({ ...(rest as unknown as R), 'x-rules': rules, middleware: ruled(rules) as MiddlewareHandler })
}

/** A route of the app as its OpenAPI registry holds it: method, path (with the mount prefix) and rules. */
export interface DocumentedRoute {
  method: string
  path: string
  rules: RouteRules | undefined
}

/** Every route the app documents, with its rules (undefined: declared without `route()`, which a test refuses). */
export function documentedRoutes(app: OpenAPIHono<any>): DocumentedRoute[] {
  return app.openAPIRegistry.definitions.flatMap((d) =>
    d.type === 'route' ? [{ method: d.route.method.toUpperCase(), path: d.route.path, rules: rulesOf(d.route) }] : [],
  )
}

const patternOf = (openApiPath: string) => new RegExp(`^${openApiPath.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^/}]+\}/g, '[^/]+')}$`)

/**
 * The rules of the route a request of `method` to `path` reaches (undefined: none), read from the
 * app's routes once they are all mounted. For checks made before a request runs (a sync batch's items).
 */
export function routeRules(app: OpenAPIHono<any>): (method: string, path: string) => RouteRules | undefined {
  let routes: Array<{ method: string; pattern: RegExp; rules: RouteRules | undefined }> | undefined
  return (method, path) => {
    routes ??= documentedRoutes(app).map((r) => ({ method: r.method, pattern: patternOf(r.path), rules: r.rules }))
    const wanted = method.toUpperCase()
    return routes.find((r) => r.method === wanted && r.pattern.test(path))?.rules
  }
}
