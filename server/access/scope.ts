import type { Context } from 'hono'
import { z } from 'zod'
import type { CompanyRole } from '../../shared/domain/roles'
import { messages as m } from '../../shared/i18n-messages'
import { forbidden, notFound } from '../errors'
import type { Actor } from './actor'
import { isSuperAdmin, roleIn } from './policy'

/**
 * Whose data a route reaches, declared with the route (`rules.scope`, server/http/route.ts) so that
 * access is decided before the body is judged (docs/API.md "Refusals"): a caller who may not know
 * the entity exists gets 404, one whose role may not act 403 — never a 400 about a body they may
 * not send at all. `of` names the kind of entity a module answers for (`FeatureModule.scopes`).
 */
export interface RouteScope {
  of: string
  /** Where its id is: a path parameter (the default), a query parameter or a field of the JSON body. */
  in?: 'path' | 'query' | 'body'
  /** The parameter or field holding the id; `id` by default. */
  param?: string
  /** The company roles that may act (the super admin always may); others who may see it get 403. */
  roles?: readonly CompanyRole[]
  /**
   * Who may act when that is not a list of roles but a relation to the entity (its author, a party
   * of a loan, a member of the association) or a rule of its own: the name of a check the owning
   * module declares beside its scopes (`FeatureModule.acts`), run after the scope with the same id.
   * The service runs the very same check, so the rule lives in one place.
   */
  act?: string
  /** Fields of the JSON body the `act` check reads besides the id: a choice that changes who may act (an item lent for the association). */
  reads?: readonly string[]
  /** With `in: 'body'`: the body may name no id (a platform-wide entity); `act` then decides with the id ''. */
  optional?: true
}

/**
 * Answers the company of an entity the actor may know exists, or throws 404. Each module answers
 * for its own kinds with the same visibility its reads use.
 */
export type ScopeCheck = (actor: Actor, id: string) => Promise<string>

/**
 * Throws 403 with the reason unless the actor may take a route's action on the entity `id` names
 * (or the association, for a route whose scope is one). `request` holds the path's parameters and
 * the body's fields the scope `reads`, both unvalidated: a check uses what it needs and leaves a
 * value it cannot use to the 400. Declared by the module that owns the rule and called by its
 * service too.
 */
export type ActCheck = (actor: Actor, id: string, request: ActRequest) => Promise<void>

/** What an action check reads of the request besides the id (unvalidated). */
export interface ActRequest {
  params: Readonly<Record<string, string>>
  body: Readonly<Record<string, unknown>>
}

/** The checks of every module by kind and by action (built once by the app from the modules' `scopes` and `acts`). */
export interface AccessChecks {
  scopes: ReadonlyMap<string, ScopeCheck>
  acts: ReadonlyMap<string, ActCheck>
}

/** The request's JSON body or multipart form (an upload's fields), parsed once and kept by Hono; {} when it is neither. */
async function bodyOf(c: Context): Promise<Record<string, unknown>> {
  const multipart = c.req.header('Content-Type')?.startsWith('multipart/form-data')
  const body: unknown = await (multipart ? c.req.parseBody() : c.req.json()).catch(() => undefined)
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {}
}

/** The id the scope names in this request; undefined when the caller did not send one (the body's own 400 then). */
async function idOf(c: Context, scope: RouteScope): Promise<string | undefined> {
  const name = scope.param ?? 'id'
  if ((scope.in ?? 'path') === 'path') return c.req.param(name)
  if (scope.in === 'query') return c.req.query(name)
  const value = (await bodyOf(c))[name]
  return typeof value === 'string' ? value : undefined
}

/**
 * Decides the caller's access to the scope of `c`'s request: 404 for an entity they may not know,
 * 403 with the reason for a role, relation or choice that may not act; nothing when they may.
 */
export async function checkScope(c: Context, checks: AccessChecks, actor: Actor, scope: RouteScope): Promise<void> {
  const check = checks.scopes.get(scope.of)
  if (!check) throw new Error(`No module answers for the scope "${scope.of}"`)
  const act = scope.act === undefined ? undefined : checks.acts.get(scope.act)
  if (scope.act !== undefined && !act) throw new Error(`No module answers for the action "${scope.act}"`)
  const id = await idOf(c, scope)
  const request = async (): Promise<ActRequest> => {
    const body = scope.reads ? await bodyOf(c) : {}
    return {
      params: c.req.param() as Record<string, string>,
      body: Object.fromEntries(scope.reads?.filter((name) => name in body).map((name) => [name, body[name]]) ?? []),
    }
  }
  // A body that names none where none is a platform-wide entity: only the action's own rule decides.
  if (id === undefined && scope.optional && scope.in === 'body') return await act?.(actor, '', await request())
  // No id, or one that is not an id at all: the 400 that follows says so and reveals nothing.
  if (id === undefined || !z.uuid().safeParse(id).success) return
  const companyId = await check(actor, id)
  if (scope.roles && !isSuperAdmin(actor)) {
    const role = roleIn(actor, companyId)
    if (!role || !scope.roles.includes(role)) throw forbidden(m.roleMayNotAct.id)
  }
  await act?.(actor, id, await request())
}

/**
 * An association as a scope: known to the super admin and its staff, and with `residents` to those
 * who live there too; 404 to anyone else (as the services answer, docs/PRODUCT.md §6).
 */
export const companyScope =
  (residents?: (userId: string, companyId: string) => Promise<boolean>): ScopeCheck =>
  async (actor, companyId) => {
    if (isSuperAdmin(actor) || roleIn(actor, companyId) || (residents && (await residents(actor.userId, companyId)))) return companyId
    throw notFound(m.companyNotFound.id)
  }

/**
 * A kind whose module reads it with the caller's visibility already (`view`, `get`): the entity's
 * company (a platform-wide one has none, so only the super admin may act on it), or that read's 404.
 */
export const viewedScope =
  <T extends { companyId: string | null }>(view: (actor: Actor, id: string) => Promise<T>): ScopeCheck =>
  async (actor, id) =>
    (await view(actor, id)).companyId ?? ''
