import { z, type RouteConfig } from '@hono/zod-openapi'
import { route as ruledRoute, type RouteRules } from './route'
import type { RouteScope } from '../access/scope'
import { bearer, errorResponses, json, jsonBody, versionedWriteHeaders, writeHeaders } from './openapi'
import { nextLinkHeader } from './paging'

/** An error answer a route documents (the descriptions are `errorResponses`'). */
export type ErrorCode = keyof typeof errorResponses

/** The documented error answers of `codes`, in the shape `responses` takes. */
export const errors = <const C extends readonly ErrorCode[]>(codes: C) =>
  Object.fromEntries(codes.map((code) => [code, errorResponses[code]])) as Pick<typeof errorResponses, C[number]>

/** `{id}` in the path: a UUID. */
export const IdParam = z.object({ id: z.uuid() })

/** The sentence a paged list's description ends with (docs/API.md "Paging"). */
export const PAGED = 'A page of at most `limit` (1–200, default 200); the next page is in the `Link` header.'

/** What a route states itself: the rest of its frame (tags, bearer security, the error schemas) is the feature's. */
export interface RouteSpec {
  method: RouteConfig['method']
  path: string
  summary: string
  description?: string
  request?: RouteConfig['request']
  /** The successful answer(s), by status. */
  ok: RouteConfig['responses']
  errors: readonly ErrorCode[]
  /** What it needs from the HTTP layer (server/http/route.ts); the builders below state theirs. */
  rules: RouteRules
}

/** The item routes' rules: signed in; the feature's policy checks the role in the association. */
const READ = { access: 'signed-in', data: 'read' } as const satisfies RouteRules
const WRITE = { access: 'signed-in', data: 'write' } as const satisfies RouteRules

/** A route's own words in the document. */
interface Text {
  summary: string
  description?: string
}
const text = ({ summary, description }: Text): Text => ({ summary, description })
type Codes = readonly ErrorCode[]

const binary = z.any().meta({ type: 'string', format: 'binary' })
/** A multipart body of one field `file` (the uploaded bytes). */
export const fileUpload = { body: { content: { 'multipart/form-data': { schema: z.object({ file: binary }) } }, required: true } }
/** A successful answer of raw bytes. */
export const bytes = (description: string) => ({ description, content: { 'application/octet-stream': { schema: binary } } })

/** The frame the routes of one kind of item share: its schema, its plural, `route` and `one`. */
interface ItemFrame<E extends z.ZodType> {
  entity: E
  plural: string
  route: ReturnType<typeof framedRoute>
  one: ReturnType<typeof itemAnswer<E>>
}

/** Any route of the item in the feature's frame: its tags, bearer security and the shared error schemas. */
function framedRoute(tags: string[], scope: string | undefined) {
  // The keys in the order the hand-written definitions had, so the generated document reads the same.
  return <const S extends RouteSpec>(spec: S) =>
    ruledRoute({
      rules: { ...spec.rules, ...scopeOf(spec, scope) },
      method: spec.method as S['method'],
      path: spec.path as S['path'],
      tags,
      security: bearer,
      summary: spec.summary,
      ...(spec.description === undefined ? {} : { description: spec.description }),
      request: spec.request as S['request'],
      responses: { ...(spec.ok as S['ok']), ...errors(spec.errors as S['errors']) },
    })
}

/** Whose data an item route reaches, unless it states its own: the item its `{id}` names (server/access/scope.ts). */
function scopeOf(spec: RouteSpec, kind: string | undefined): Pick<RouteRules, 'scope'> {
  return kind && !spec.rules.scope && spec.rules.access === 'signed-in' && spec.path.includes('{id}') ? { scope: { of: kind } } : {}
}

/** The item as an answer, with its version in the ETag. */
function itemAnswer<E extends z.ZodType>(entity: E, The: string) {
  return (description: string = The) => ({ description: `${description} (ETag: its version)`, ...json(entity) })
}

/** GET a page of items (or of `items`), the next page in the `Link` header. */
function pageRoute<E extends z.ZodType>({ entity, plural, route }: ItemFrame<E>) {
  return <const P extends string, Q extends z.ZodObject, I extends z.ZodType = E, Prm extends z.ZodObject | undefined = undefined>(
    path: P,
    spec: Text & { query: Q; params?: Prm; items?: I; of?: string; errors?: Codes },
  ) =>
    route({
      method: 'get',
      path,
      rules: READ,
      ...text(spec),
      request: { params: spec.params as Prm, query: spec.query },
      ok: { 200: { description: `A page of ${spec.of ?? plural}`, headers: nextLinkHeader, ...json(z.array((spec.items ?? entity) as I)) } },
      errors: spec.errors ?? [400, 401, 404],
    })
}

/** POST a new item (a client-made `id` makes a retry one item): 201 with it; `scope` when the association's default is not enough (server/access/scope.ts). */
function createRoute<E extends z.ZodType>({ route, one }: ItemFrame<E>) {
  return <const P extends string, B extends z.ZodType>(path: P, spec: Text & { body: B; errors?: Codes; scope?: RouteScope }) =>
    route({
      method: 'post',
      path,
      rules: spec.scope ? { ...WRITE, scope: spec.scope } : WRITE,
      ...text(spec),
      request: { headers: writeHeaders, ...jsonBody(spec.body) },
      ok: { 201: one() },
      errors: spec.errors ?? [400, 401, 403, 404, 409, 422],
    })
}

/** GET one item by `{id}`. */
function readRoute<E extends z.ZodType>({ route, one }: ItemFrame<E>) {
  return <const P extends string>(path: P, spec: Text) =>
    route({ method: 'get', path, rules: READ, ...text(spec), request: { params: IdParam }, ok: { 200: one() }, errors: [401, 404] })
}

/** PATCH an item by `{id}` with If-Match: 200 with it. */
function updateRoute<E extends z.ZodType>({ route, one }: ItemFrame<E>) {
  return <const P extends string, B extends z.ZodType>(path: P, spec: Text & { body: B }) =>
    route({
      method: 'patch',
      path,
      rules: WRITE,
      ...text(spec),
      request: { params: IdParam, headers: versionedWriteHeaders, ...jsonBody(spec.body) },
      ok: { 200: one() },
      errors: [400, 401, 403, 404, 409, 412, 422],
    })
}

/** DELETE an item by `{id}` with If-Match: 204. */
function removeRoute<E extends z.ZodType>({ route }: ItemFrame<E>) {
  return <const P extends string>(path: P, spec: Text & { errors?: Codes }) =>
    route({
      method: 'delete',
      path,
      rules: WRITE,
      ...text(spec),
      request: { params: IdParam, headers: versionedWriteHeaders },
      ok: { 204: { description: 'Deleted' } },
      errors: spec.errors ?? [401, 403, 404, 409, 412],
    })
}

/** GET the bytes of an item's file (a photo, an attachment) by `{id}` or `params`: 404 when there is none. */
function fileRoute<E extends z.ZodType>({ route }: ItemFrame<E>) {
  return <const P extends string, Prm extends z.ZodObject = typeof IdParam>(path: P, spec: Text & { what: string; params?: Prm }) =>
    route({
      method: 'get',
      path,
      rules: READ,
      ...text(spec),
      request: { params: (spec.params ?? IdParam) as Prm },
      ok: { 200: bytes(spec.what) },
      errors: [401, 404],
    })
}

/** PUT an item's file (multipart field `file`, a photo or attachment up to 5 MB, a document up to 20 MB) with If-Match: 200 with the item. */
function setFileRoute<E extends z.ZodType>({ route, one }: ItemFrame<E>) {
  return <const P extends string>(path: P, spec: Text & { size: 'attachment' | 'document'; errors?: Codes }) =>
    route({
      method: 'put',
      path,
      rules: { ...WRITE, body: spec.size },
      ...text(spec),
      request: { params: IdParam, headers: versionedWriteHeaders, ...fileUpload },
      ok: { 200: one() },
      errors: spec.errors ?? [400, 401, 403, 404, 409, 412, 413, 422, 429],
    })
}

/**
 * The OpenAPI route definitions of one kind of item a feature serves (a lending item, a listing,
 * a document…): every route is signed in (bearer) under the feature's tags, and its error answers
 * are the shared `errorResponses`. The common routes of an item (a page of them, create, read,
 * update with If-Match, delete, its photo) are one call each; anything else goes through `route`,
 * which adds the same frame. `name` is the item in the answers' descriptions ("The item", "A page
 * of items").
 */
export function itemRoutes<E extends z.ZodType>(frame: { tags: string[]; entity: E; name: string; plural?: string; scope?: string }) {
  const { tags, entity, name } = frame
  const f: ItemFrame<E> = { entity, plural: frame.plural ?? `${name}s`, route: framedRoute(tags, frame.scope), one: itemAnswer(entity, `The ${name}`) }
  return {
    route: f.route,
    one: f.one,
    page: pageRoute(f),
    create: createRoute(f),
    read: readRoute(f),
    update: updateRoute(f),
    remove: removeRoute(f),
    file: fileRoute(f),
    setFile: setFileRoute(f),
  }
}
