import { measureRequests } from './observability/http-metrics'
import { metricsRoute } from './observability/metrics-route'
import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, resolve } from 'node:path'
import { OpenAPIHono } from '@hono/zod-openapi'
import { serveStatic } from '@hono/node-server/serve-static'
import { getConnInfo } from '@hono/node-server/conninfo'
import { requestId } from 'hono/request-id'
import { secureHeaders } from 'hono/secure-headers'
import { localeFromHeader } from './i18n/i18n'
import { WriteLock } from './lib/write-lock'
import { createSecretBox } from './lib/secret-box'
import type { AppEnv } from './http/app-env'
import { onError, notFoundHandler } from './http/error-mapper'
import { authenticate } from './http/authenticate'
import { dataAccess } from './http/write-transaction'
import { renderDocsPage } from './http/docs-page'
import { routeRules } from './http/route'
import { vippsEnvironment } from './integrations/vipps/vipps-environment'
import { acceptAll } from './integrations/files/attachment-store'
import { idempotencyKeys, mailOutbox } from './db/schema/platform'
import type { AppDeps, Kernel } from './kernel/kernel'
import type { FeatureModule, Services } from './kernel/module'
import type { AccessChecks, ActCheck, ScopeCheck } from './access/scope'
import { makeServices } from './kernel/container'
import type { Job } from './jobs/runner'
import { healthModule } from './features/health'
import { usersModule } from './features/users'
import { notificationsModule } from './features/notifications'
import { authModule } from './features/auth'
import { accountModule } from './features/account'
import { logsModule } from './features/logs'
import { syncModule } from './features/sync'
import { webhooksModule } from './features/webhooks'
import { companiesModule } from './features/companies'
import { paymentProvidersModule } from './features/payment-providers'
import { addressSearchModule } from './features/address-search'
import { agreementsModule } from './features/agreements'
import { billingModule } from './features/billing'
import { statisticsModule } from './features/statistics'
import { bookkeepingModule } from './features/bookkeeping'
import { accountStatementModule } from './features/account-statement'
import { messagesModule } from './features/messages'
import { assembliesModule } from './features/assemblies'
import { documentsModule } from './features/documents'
import { marketModule } from './features/market'
import { lendingModule } from './features/lending'
import { articlesModule } from './features/articles'
import { specialistsModule } from './features/specialists'
import { forumModule } from './features/forum'
import { personalDataModule } from './features/personal-data'
import { invitationsModule } from './features/invitations'
import { storageModule } from './features/storage'
import { liveModule } from './features/live'
import { pushModule } from './features/push'
import { householdsModule } from './features/households'
import { createPushEmulator, PUSH_EMULATOR_PATH } from './integrations/push/push-emulator'

export type { AppDeps } from './kernel/kernel'

/**
 * The app: a list of modules (docs/ARCHITECTURE.md "Modules"). Their routes are mounted in this
 * order and their synced entities are pulled in this order: a sync cursor counts entities by
 * position, so a new module with synced entities goes at the end.
 */
export const modules: readonly FeatureModule[] = [
  healthModule,
  usersModule,
  notificationsModule,
  authModule,
  accountModule,
  logsModule,
  syncModule,
  webhooksModule,
  companiesModule,
  paymentProvidersModule,
  addressSearchModule,
  agreementsModule,
  billingModule,
  statisticsModule,
  bookkeepingModule,
  accountStatementModule,
  messagesModule,
  assembliesModule,
  documentsModule,
  marketModule,
  lendingModule,
  articlesModule,
  specialistsModule,
  forumModule,
  personalDataModule,
  storageModule,
  pushModule,
  liveModule,
  invitationsModule,
  // Last: its synced entity (households) is the newest; a snapshot cursor counts entities by position.
  householdsModule,
]

/** Tables of the platform itself, owned by no feature: the write middleware's Idempotency-Keys and the mail outbox. */
export const platformTables = [idempotencyKeys, mailOutbox] as const

/** Builds the whole HTTP application without listening, so tests can call `app.request()`. */
export function createApp(deps: AppDeps & { modules?: readonly FeatureModule[] }) {
  const app = new OpenAPIHono<AppEnv>()
  const list = deps.modules ?? modules
  const kernel = kernelOf(app, deps, list)
  const services = makeServices(list, kernel)
  const jobs: Job[] = list.flatMap((m) => m.jobs?.(services, kernel) ?? [])
  const sweeps = list.flatMap((m) => (m.sweepFiles ? [m.sweepFiles] : []))
  /** Removes every module's stored files that no row refers to; answers how many (the housekeeping job). */
  const sweepFiles = async () => {
    let removed = 0
    for (const sweep of sweeps) removed += await sweep(services)
    return removed
  }

  useMiddleware(app, kernel, services, list)
  for (const module of list) for (const routes of module.routes?.(services, kernel) ?? []) app.route('/api', routes)
  serveApiDocs(app, kernel.version)
  app.all(
    '/api/*',
    notFoundHandler(() => app.routes),
  )
  // Only with METRICS_TOKEN: otherwise the path is not there at all (server/observability/metrics-route.ts).
  if (deps.config.metrics.token) app.get('/metrics', metricsRoute(deps.config.metrics.token))
  for (const mount of deps.mounts ?? []) app.mount(mount.path, mount.app.fetch)
  // A push service on this machine for the demo and the tests (docs/decisions/0088); never in production.
  if (!kernel.config.isProduction) app.route(PUSH_EMULATOR_PATH, createPushEmulator({ baseUrl: `${kernel.config.publicUrl}${PUSH_EMULATOR_PATH}` }).app)

  if (deps.clientDir && existsSync(deps.clientDir)) serveClient(app, deps.clientDir)
  else app.notFound(notFoundHandler(() => app.routes))

  return { app, services, lock: kernel.lock, jobs, sweepFiles }
}

/** What every module is built with (server/kernel/kernel.ts). */
function kernelOf(app: OpenAPIHono<AppEnv>, deps: AppDeps, list: readonly FeatureModule[]): Kernel {
  const { config, database, clock, log } = deps
  if (!config.appSecretKey) throw new Error('APP_SECRET_KEY is required (main.ts generates one into the data folder)')
  const version = deps.version ?? '0.1.0'
  const kernel: Kernel = {
    config,
    database,
    db: database.db,
    clock,
    businessClock: deps.billing?.clock ?? clock,
    log,
    lock: deps.lock ?? new WriteLock(database.engine === 'sqlite'),
    version,
    secrets: createSecretBox(config.appSecretKey),
    vipps: deps.vipps ?? vippsEnvironment({ clock, baseUrl: config.vippsBaseUrl, version }),
    filesDir: filesDirOf(deps),
    scanner: deps.messages?.scanner ?? acceptAll,
    options: deps,
    fetch: (request, env) => app.fetch(request, env),
    routeRules: routeRules(app),
    syncEntities: (s) => list.flatMap((m) => m.sync?.(s, kernel) ?? []),
  }
  return kernel
}

/** The chain every request passes before its route: request id and log, language, security headers, sign-in, data access. */
function useMiddleware(app: OpenAPIHono<AppEnv>, kernel: Kernel, services: Services, list: readonly FeatureModule[]) {
  const { config, database, clock, log, lock } = kernel
  app.onError(onError)
  app.use('*', measureRequests())
  app.use('*', requestId())
  app.use('*', async (c, next) => {
    const started = performance.now()
    c.set('log', log.child({ requestId: c.var.requestId }))
    // The client's language from the start, so refusals before sign-in (a body too large) use it too.
    c.set('locale', localeFromHeader(c.req.header('Accept-Language')) ?? 'en')
    c.set('clientIp', clientIp(c, config.trustProxy))
    await next()
    // A route whose rules say `unlogged` leaves no request log line (docs/decisions/0027).
    if (c.req.path.startsWith('/api/') && !c.var.unlogged)
      c.var.log.info({ method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round(performance.now() - started) }, 'request')
  })
  app.use('*', secureHeaders(securityHeaders(config.publicUrl)))

  // The API: no CORS headers are ever sent, so other origins cannot call it from a browser.
  app.use('/api/*', async (c, next) => {
    await next()
    // Set on the answer's own headers: `c.header` on a finished answer copies it, reading its body,
    // which makes @hono/node-server build a web Response and stream it instead of writing one
    // string (docs/BENCHMARKS.md). Headers that refuse changes (a fetched response's) get the copy as before.
    try {
      c.res.headers.set('Cache-Control', 'no-store')
    } catch {
      c.header('Cache-Control', 'no-store')
    }
  })
  app.use('/api/*', authenticate(services.auth))
  // How each route reads or writes is its own rule (server/http/route.ts); this is what carries it out.
  const data = dataAccess({
    db: database.db,
    // On PostgreSQL every connection reads committed rows only: a read never waits for a write.
    readsApart: database.reader !== undefined || database.engine === 'postgres',
    clock,
    lock,
    rerun: (request, env) => app.fetch(request, env),
    fingerprintKey: `idempotency:${config.appSecretKey}`,
  })
  const access = accessChecksOf(list, services)
  app.use('/api/*', async (c, next) => {
    c.set('data', data)
    c.set('access', access)
    await next()
  })
}

/** Each module's scope checks by kind and action checks by name (server/access/scope.ts); one answered twice is a mistake. */
function accessChecksOf(list: readonly FeatureModule[], services: Services): AccessChecks {
  const scopes = new Map<string, ScopeCheck>()
  const acts = new Map<string, ActCheck>()
  for (const module of list) {
    for (const [kind, check] of Object.entries(module.scopes?.(services) ?? {})) {
      if (scopes.has(kind)) throw new Error(`Two modules answer for the scope "${kind}"`)
      scopes.set(kind, check)
    }
    for (const [action, check] of Object.entries(module.acts?.(services) ?? {})) {
      if (acts.has(action)) throw new Error(`Two modules answer for the action "${action}"`)
      acts.set(action, check)
    }
  }
  return { scopes, acts }
}

/** /api/openapi.json (each route's rules as `x-rules`) and its reading page /api/docs. */
function serveApiDocs(app: OpenAPIHono<AppEnv>, version: string) {
  app.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description: 'Opaque access token from POST /api/auth/login',
  })
  const openApiConfig = {
    openapi: '3.1.0',
    info: {
      title: 'Boligkasse API',
      version,
      description:
        'Money is integer øre; dates are YYYY-MM-DD (Europe/Copenhagen); timestamps are UTC ISO 8601. Every write accepts Idempotency-Key. Errors: {message, code, issues?}.',
    },
  }
  app.doc31('/api/openapi.json', openApiConfig)
  app.get('/api/docs', (c) => c.html(renderDocsPage(app.getOpenAPI31Document(openApiConfig) as never)))
}

/** Where stored files live: given, configured, beside the database file, or (in-memory databases) a temporary folder. */
function filesDirOf(deps: AppDeps): string {
  const { config } = deps
  return (
    deps.messages?.attachmentsDir ??
    config.attachmentsDir ??
    (config.databasePath === ':memory:' ? mkdtempSync(resolve(tmpdir(), 'bk-attachments-')) : resolve(dirname(resolve(config.databasePath)), 'attachments'))
  )
}

/** The security headers of every answer (docs/security/http.md). */
function securityHeaders(publicUrl: string): Parameters<typeof secureHeaders>[0] {
  return {
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      // blob: a document's file shown in its page from the device's copy (client/features/documents).
      imgSrc: ["'self'", 'data:', 'blob:'],
      frameSrc: ["'self'", 'blob:'],
      connectSrc: ["'self'"],
      fontSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
      workerSrc: ["'self'"],
      manifestSrc: ["'self'"],
    },
    strictTransportSecurity: publicUrl.startsWith('https://') ? 'max-age=31536000; includeSubDomains' : false,
    xFrameOptions: 'DENY',
    xContentTypeOptions: 'nosniff',
    referrerPolicy: 'strict-origin-when-cross-origin',
    crossOriginEmbedderPolicy: false,
    // A header a route sets itself wins (the attachment download's sandbox CSP: messages.routes.ts).
    overwrite: false,
  }
}

function clientIp(c: Parameters<typeof getConnInfo>[0], trustProxy: boolean): string {
  if (trustProxy) {
    // The right-most address is the one our own proxy appended; anything left of it the client
    // may have written itself (README "Security").
    const forwarded = c.req.header('X-Forwarded-For')?.split(',').at(-1)?.trim()
    if (forwarded) return forwarded
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown'
  } catch {
    return 'local'
  }
}

/**
 * Serves the built PWA: hashed assets cached for a year; index.html, sw.js and the manifest
 * always revalidated (docs/OFFLINE.md), and every other path answers the app shell.
 */
function serveClient(app: OpenAPIHono<AppEnv>, dir: string) {
  const root = resolve(dir)
  // Read on each request (it is small): a new build is served without restarting the server.
  const shell = () => readFileSync(resolve(root, 'index.html'), 'utf8')
  const noCache = /(^\/$|index\.html$|sw\.js$|registerSW\.js$|manifest\.webmanifest$|workbox-[^/]+\.js$)/
  app.use('*', async (c, next) => {
    await next()
    if (c.res.status !== 200) return
    if (noCache.test(c.req.path)) c.header('Cache-Control', 'no-cache')
    else if (c.req.path.startsWith('/assets/')) c.header('Cache-Control', 'public, max-age=31536000, immutable')
  })
  app.use('*', serveStatic({ root }))
  app.get('*', (c) => {
    c.header('Cache-Control', 'no-cache')
    return c.html(shell())
  })
}
