import type { OpenAPIHono } from '@hono/zod-openapi'
import type { SQLiteTable } from 'drizzle-orm/sqlite-core'
import type { AppEnv } from '../http/app-env'
import type { Job } from '../jobs/runner'
import type { SyncedEntity } from '../features/sync/synced-entity'
import type { Kernel } from './kernel'
import type { ActCheck, ScopeCheck } from '../access/scope'

/**
 * Every service of the app by name. Empty here: each module adds its own from its entry
 * (`declare module '../../kernel/module' { interface Services { … } }`), so the list lives with
 * the modules and a factory reads another module's service with its type.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface Services {}

/** Makes one service from the kernel and other modules' services (read them when needed, not ahead). */
export type Factory<S> = (services: Services, kernel: Kernel) => S

/**
 * One server feature as the app sees it (docs/ARCHITECTURE.md "Modules"): its entry,
 * `server/features/<name>/index.ts`, declares its whole surface, and `server/app.ts` is a list of
 * them. Anything a feature serves, syncs or runs in the background is here, or it is not served.
 */
export interface FeatureModule {
  name: string
  /** The tables it owns (server/db/schema): only its own code writes them. */
  tables: readonly SQLiteTable[]
  /** Its services, each made on first use (so the order of the modules does not matter to them). */
  services?: { [K in keyof Services]?: Factory<Services[K]> }
  /** Its routes, mounted under /api; each carries its own rules (server/http/route.ts). */
  routes?: (services: Services, kernel: Kernel) => Array<OpenAPIHono<AppEnv>>
  /** The entities of its rows that clients keep offline (docs/OFFLINE.md). */
  sync?: (services: Services, kernel: Kernel) => SyncedEntity[]
  /** Its periodic jobs (server/jobs/runner.ts), started by server/main.ts. */
  jobs?: (services: Services, kernel: Kernel) => Job[]
  /**
   * The kinds of entity it answers for when a route's `scope` names them (server/access/scope.ts):
   * the entity's company if the actor may know it exists, else 404.
   */
  scopes?: (services: Services) => Record<string, ScopeCheck>
  /**
   * The actions it answers for when a route's scope names them (`act`, server/access/scope.ts): who
   * may act by relation or rule, 403 with the reason if not. Its services call the same checks.
   */
  acts?: (services: Services) => Record<string, ActCheck>
  /** Removes its stored files that no row refers to any longer; answers how many (the housekeeping job). */
  sweepFiles?: (services: Services) => Promise<number>
}

/** Declares a module: the identity, for the type check and the reader. */
export const defineModule = <const M extends FeatureModule>(module: M): M => module
