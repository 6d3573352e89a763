import { localeFromHeader } from './i18n/i18n'
import { existsSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { OpenAPIHono } from '@hono/zod-openapi'
import { serveStatic } from '@hono/node-server/serve-static'
import { getConnInfo } from '@hono/node-server/conninfo'
import { bodyLimit } from 'hono/body-limit'
import { declaredWithin } from './http/wire-request'
import { requestId } from 'hono/request-id'
import { secureHeaders } from 'hono/secure-headers'
import type { Logger } from 'pino'
import type { Config } from './env'
import type { Database_ } from './db/client'
import type { Clock } from './lib/clock'
import { WriteLock } from './lib/write-lock'
import { DomainError } from './errors'
import type { AppEnv } from './http/app-env'
import { onError, notFoundHandler } from './http/error-mapper'
import { authenticate, requireAuth } from './http/authenticate'
import { writeTransaction } from './http/write-transaction'
import { getsThatWrite } from './http/gets-that-write'
import { RateLimiter } from './http/rate-limit'
import { renderDocsPage } from './http/docs-page'
import { createUsersService } from './features/users/users.service'
import { createAuthService, type AuthDeps } from './features/auth/auth.service'
import { createAccountService } from './features/account/account.service'
import { createIdentityService } from './features/auth/identity.service'
import { createLogsService } from './features/logs/logs.service'
import { authRoutes } from './features/auth/auth.routes'
import { accountRoutes } from './features/account/account.routes'
import { logsRoutes } from './features/logs/logs.routes'
import { healthRoutes } from './features/health/health.routes'
import { createNotificationsService, notificationSync } from './features/notifications/notifications.service'
import { notificationsRoutes } from './features/notifications/notifications.routes'
import { createSyncService } from './features/sync/sync.service'
import { syncRoutes } from './features/sync/sync.routes'
import { batchRoutes, SYNC_BATCH_PATH } from './features/sync/batch.routes'
import { createSecretBox } from './lib/secret-box'
import { vippsEnvironment, type VippsEnvironment } from './integrations/vipps/vipps-environment'
import { createProvidersService, providerSync } from './features/payment-providers/providers.service'
import { providersRoutes } from './features/payment-providers/providers.routes'
import { addressSync, companySync, createCompaniesService, memberSync } from './features/companies/companies.service'
import { companiesRoutes } from './features/companies/companies.routes'
import { createAddressSearchService } from './features/address-search/address-search.service'
import { addressSearchRoutes } from './features/address-search/address-search.routes'
import { addressProviderFor } from './integrations/addresses/address-provider-for'
import type { AddressProvider } from './integrations/addresses/address-provider'
import { createWebhooksService } from './features/webhooks/webhooks.service'
import { webhooksRoutes } from './features/webhooks/webhooks.routes'
import { createVippsLoginService } from './features/auth/vipps-login.service'
import type { VippsLogin } from './integrations/vipps/vipps-login'
import { agreementSync, createAgreementsService } from './features/agreements/agreements.service'
import { agreementCallsVipps, agreementsRoutes } from './features/agreements/agreements.routes'
import { createVippsObserver } from './features/agreements/vipps-observer'
import { createBillingService, type BillingConfig } from './features/billing/billing.service'
import { chargeSync, createChargesService } from './features/billing/charges.service'
import { createInvoicing } from './features/billing/invoicing'
import { createInvoicesService, invoiceSync } from './features/billing/invoices.service'
import { createNoticesService } from './features/notifications/notices'
import { createProviderOutbox } from './jobs/provider-outbox'
import { createVippsPoll } from './jobs/vipps-poll'
import { billingRoutes } from './features/billing/billing.routes'
import { createStatisticsService } from './features/statistics/statistics.service'
import { statisticsRoutes } from './features/statistics/statistics.routes'
import { createAccountStatementService } from './features/account-statement/account-statement.service'
import { accountStatementRoutes } from './features/account-statement/account-statement.routes'
import { createStatementSendoutsService } from './features/account-statement/statement-sendouts.service'
import { statementSendoutsRoutes } from './features/account-statement/statement-sendouts.routes'
import { createMessagesService, messageSync } from './features/messages/messages.service'
import { createContactService } from './features/messages/contact.service'
import { isAnonymousMessagePath, messagesRoutes } from './features/messages/messages.routes'
import { acceptAll, attachmentStore, type AttachmentScanner } from './features/messages/attachment-store'
import { assemblySync, createAssembliesService, proposalSync } from './features/assemblies/assemblies.service'
import { assembliesRoutes } from './features/assemblies/assemblies.routes'
import { createPersonalDataService } from './features/personal-data/personal-data.service'
import { personalDataRoutes } from './features/personal-data/personal-data.routes'
import { MAX_ATTACHMENT_BYTES } from '../shared/contract/messages'
import { MAX_DOCUMENT_BYTES } from '../shared/contract/documents'
import { messages as m } from '../shared/i18n-messages'
import { createDocumentsService } from './features/documents/documents.service'
import { documentsRoutes } from './features/documents/documents.routes'
import { createMarketService } from './features/market/market.service'
import { marketRoutes } from './features/market/market.routes'
import { createLendingService } from './features/lending/lending.service'
import { createBookkeepingService } from './features/bookkeeping/bookkeeping.service'
import { bookkeepingRoutes } from './features/bookkeeping/bookkeeping.routes'
import { createLoansService } from './features/lending/loans.service'
import { lendingRoutes } from './features/lending/lending.routes'
import { loansRoutes } from './features/lending/loans.routes'
import { loanReminderJob } from './features/lending/loan-reminders'
import { createLoanDeposits } from './features/billing/loan-deposits'
import { createOneTimeCharges } from './features/billing/one-time-charge'
import { createArticlesService } from './features/articles/articles.service'
import { articlesRoutes } from './features/articles/articles.routes'
import { createSpecialistsService } from './features/specialists/specialists.service'
import { specialistsRoutes } from './features/specialists/specialists.routes'
import { createForumService } from './features/forum/forum.service'
import { forumRoutes } from './features/forum/forum.routes'
import { mkdtempSync } from 'node:fs'
import { dirname } from 'node:path'
import { tmpdir } from 'node:os'

export interface AppDeps {
  config: Config
  database: Database_
  clock: Clock
  log: Logger
  lock?: WriteLock
  /** Where Vipps calls go (built-in emulator, VIPPS_BASE_URL or the real environments). */
  vipps?: VippsEnvironment
  /** Extra apps served beside the API, e.g. the built-in Vipps emulator at /vipps-emulator. */
  mounts?: Array<{ path: string; app: { fetch: (request: Request) => Response | Promise<Response> } }>
  /** Vipps Login (OIDC); without it the Vipps button explains that it is unavailable. */
  vippsLogin?: VippsLogin
  /** Address suggestions; default from ADDRESS_PROVIDER (tests inject a fake). */
  addressProvider?: AddressProvider
  /** Folder of the built web client; not served when absent (API-only tests). */
  clientDir?: string
  version?: string
  /** Billing: lead days, overdue steps (defaults from the config), and a clock of its own (the emulator's in demos). */
  /** Messages: where attachments are stored (default `<data dir>/attachments`) and the virus-scanning hook (attachment-store.ts). */
  messages?: { attachmentsDir?: string; scanner?: AttachmentScanner }
  billing?: Partial<BillingConfig> & { clock?: Clock; faultPoint?: Parameters<typeof createBillingService>[0]['faultPoint'] }
  /** Sign-in limits and the slow-down's sleep (tests make the sleep instant). */
  auth?: Pick<AuthDeps, 'limits' | 'sleep'>
}

const MAX_BODY_BYTES = 1024 * 1024

/** Builds the whole HTTP application without listening, so tests can call `app.request()`. */
export function createApp(deps: AppDeps) {
  const { config, database, clock, log } = deps
  const db = database.db
  const lock = deps.lock ?? new WriteLock(database.engine === 'sqlite')
  const version = deps.version ?? '0.1.0'

  const users = createUsersService({ db })
  const notifications = createNotificationsService({ db, clock, users })
  const notices = createNoticesService({ db, clock, publicUrl: config.publicUrl, users, notifications })
  const auth = createAuthService({ db, clock, lock, publicUrl: config.publicUrl, tokenLoginEnabled: !config.isProduction, notifications, users, ...deps.auth })
  const identity = createIdentityService({ db, clock, publicUrl: config.publicUrl, users, sleep: deps.auth?.sleep })
  const account = createAccountService({ db, clock, auth, identity, notifications, users })
  const logs = createLogsService({ db, clock })
  if (!config.appSecretKey) throw new Error('APP_SECRET_KEY is required (main.ts generates one into the data folder)')
  const secrets = createSecretBox(config.appSecretKey)
  // Usage is read from features made below (called only once requests arrive).
  const companies = createCompaniesService({
    db,
    clock,
    auth,
    users,
    usage: {
      agreementsCount: (_db, companyId) => agreements.agreementsCount(companyId),
      invoicesCount: async (_db, companyId) => await invoices.countOfCompany(companyId),
      addressInUse: (_db, addressId) => agreements.addressInUse(addressId),
    },
  })
  const vipps = deps.vipps ?? vippsEnvironment({ clock, baseUrl: config.vippsBaseUrl, version })
  const providers = createProvidersService({ db, secrets, vipps, clock, lock, companies })

  const { clock: billingClock, faultPoint, ...billingConfig } = deps.billing ?? {}
  // Money, top-down: invoices follow charges; charges are made by agreements (a termination's last
  // payment) and billing; what Vipps says reaches agreements and charges through the observer.
  const invoicing = createInvoicing({ database, clock: billingClock ?? clock, notices, faultPoint, log })
  const charges = createChargesService({ db, clock, invoicing })
  const agreements = createAgreementsService({ db, clock, lock, publicUrl: config.publicUrl, companies, providers, auth, users, charges, notices })
  const billing = createBillingService({
    database,
    clock: billingClock ?? clock,
    sendClock: clock,
    lock,
    log,
    agreements,
    charges,
    invoicing,
    companies,
    users,
    notices,
    config: { ...config.billing, ...billingConfig },
    faultPoint,
  })
  const invoices = createInvoicesService({ db })
  const vippsObserver = createVippsObserver({ agreements, charges })
  // The jobs that talk to Vipps (main.ts runs them): send the provider outbox, then read back.
  // Due dates sent to Vipps follow the provider's calendar (the built-in emulator's clock in demos).
  const providerOutbox = createProviderOutbox({
    db,
    clock,
    businessClock: billingClock,
    lock,
    log,
    providers,
    agreements,
    charges,
    observer: vippsObserver,
    invoicing,
    leaseMs: config.claimLeaseMs,
  })
  const vippsPoll = createVippsPoll({ db, lock, log, providers, agreements, charges, observer: vippsObserver })
  const vippsSync = {
    async run(): Promise<void> {
      await providerOutbox.run()
      await vippsPoll.run()
    },
  }
  const statistics = createStatisticsService({ database, clock })
  // Bookkeeping (docs/BOOKKEEPING.md, decision 0067): the journal of the invoices, its exports and closed months.
  const bookkeeping = createBookkeepingService({ db, clock: billingClock ?? clock, companies })
  // Account statements (decision 0068): read-only, from billing's invoices and charges.
  const accountStatements = createAccountStatementService({ database, clock })
  const statementSendouts = createStatementSendoutsService({ db, clock, notices })
  const attachmentsDir =
    deps.messages?.attachmentsDir ??
    config.attachmentsDir ??
    (config.databasePath === ':memory:' ? mkdtempSync(resolve(tmpdir(), 'bk-attachments-')) : resolve(dirname(resolve(config.databasePath)), 'attachments'))
  const messages = createMessagesService({
    db,
    clock,
    lock,
    publicUrl: config.publicUrl,
    companies,
    notifications,
    files: attachmentStore(attachmentsDir),
    scanner: deps.messages?.scanner ?? acceptAll,
  })
  const documents = createDocumentsService({
    db,
    clock,
    companies,
    residency: messages,
    // Beside the messages' folders (those are named by message id, so the sweeps never meet).
    files: attachmentStore(resolve(attachmentsDir, 'documents')),
    scanner: deps.messages?.scanner ?? acceptAll,
  })
  // The market (decision 0063): its photos beside the documents' folder, swept the same way.
  const market = createMarketService({
    db,
    clock,
    companies,
    residency: messages,
    notices,
    files: attachmentStore(resolve(attachmentsDir, 'market')),
    scanner: deps.messages?.scanner ?? acceptAll,
  })
  // The forum (decision 0066): its members as the market's; replies told as the assemblies' notices.
  const forum = createForumService({ db, clock, companies, residency: messages, notices, notifications })
  // The knowledge bank and specialists (decision 0065): members as the market's; attachments beside the market's folder.
  const articles = createArticlesService({
    db,
    clock,
    companies,
    residency: messages,
    files: attachmentStore(resolve(attachmentsDir, 'articles')),
    scanner: deps.messages?.scanner ?? acceptAll,
  })
  const specialists = createSpecialistsService({ db, clock, companies, residency: messages })
  // Lending (decision 0064): its photos beside the market's; a deposit goes through billing's one-time charge and refund paths.
  const lending = createLendingService({
    db,
    clock,
    companies,
    residency: messages,
    files: attachmentStore(resolve(attachmentsDir, 'lending')),
    scanner: deps.messages?.scanner ?? acceptAll,
  })
  const loans = createLoansService({
    db,
    clock,
    companies,
    residency: messages,
    notices,
    deposits: createLoanDeposits({
      db,
      clock: billingClock ?? clock,
      sendClock: clock,
      agreements,
      charges,
      invoicing,
      oneTime: createOneTimeCharges({ clock: billingClock ?? clock, charges }),
      billing,
    }),
  })
  const loanReminders = loanReminderJob({ db, clock, notices })
  const contact = createContactService({ db, clock, contactEmail: config.contactEmail })
  // General assemblies (decision 0061): their sendouts reach whom a message to all members reaches.
  const assemblies = createAssembliesService({ db, clock, companies, notices, membership: messages })
  // Personal data (decision 0069): the download and the erase request; residents keep copies of what an erase changes.
  const personalData = createPersonalDataService({
    db,
    clock,
    actorChanged: users.actorChanged,
    mailFilesDir: config.smtpUrl ? undefined : config.mailOutboxDir,
  })
  const sync = createSyncService({
    db,
    residency: messages,
    entities: [
      notificationSync,
      companySync(companies),
      memberSync,
      addressSync,
      providerSync(secrets),
      agreementSync(agreements),
      chargeSync(charges),
      invoiceSync(invoices),
      messageSync(messages),
      assemblySync(assemblies),
      proposalSync(assemblies),
      documents.syncEntity(),
      market.syncEntity(),
      lending.syncEntity(),
      loans.syncEntity(),
      articles.syncEntity(),
      specialists.syncEntity(),
      forum.threadSync(),
      forum.postSync(),
    ],
  })
  const addressSearch = createAddressSearchService({ provider: deps.addressProvider ?? addressProviderFor(config) })
  // A processed webhook hands Vipps' current state to the observer, in the webhook job's transaction.
  const webhooks = createWebhooksService({ db, clock, lock, secrets, providers, log, observe: (observation) => vippsObserver.observe(observation) })
  const vippsLogin = createVippsLoginService({ db, clock, lock, auth, identity, login: deps.vippsLogin, log, users })
  const services = {
    documents,
    market,
    lending,
    loans,
    loanReminders,
    forum,
    articles,
    specialists,
    users,
    auth,
    identity,
    account,
    logs,
    notifications,
    sync,
    secrets,
    providers,
    webhooks,
    vippsLogin,
    companies,
    addressSearch,
    agreements,
    charges,
    invoicing,
    billing,
    invoices,
    vippsObserver,
    providerOutbox,
    vippsPoll,
    vippsSync,
    statistics,
    bookkeeping,
    accountStatements,
    statementSendouts,
    // The yearly sendouts' crash test tells through it (statement-sendouts.test.ts).
    notices,
    messages,
    contact,
    assemblies,
    personalData,
  }

  const app = new OpenAPIHono<AppEnv>()
  app.onError(onError)

  app.use('*', requestId())
  app.use('*', async (c, next) => {
    const started = performance.now()
    c.set('log', log.child({ requestId: c.var.requestId }))
    // The client's language from the start, so refusals before sign-in (a body too large) use it too.
    c.set('locale', localeFromHeader(c.req.header('Accept-Language')) ?? 'en')
    c.set('clientIp', clientIp(c, config.trustProxy))
    await next()
    // An anonymous message leaves no request log line (docs/decisions/0027-anonymous-messages-leave-no-trace-of-their-sender.md):
    // its time and session could point to the sender.
    if (c.req.path.startsWith('/api/') && !isAnonymousMessagePath(c.req.method, c.req.path))
      c.var.log.info({ method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round(performance.now() - started) }, 'request')
  })
  app.use(
    '*',
    secureHeaders({
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
      strictTransportSecurity: config.publicUrl.startsWith('https://') ? 'max-age=31536000; includeSubDomains' : false,
      xFrameOptions: 'DENY',
      xContentTypeOptions: 'nosniff',
      referrerPolicy: 'strict-origin-when-cross-origin',
      crossOriginEmbedderPolicy: false,
      // A header a route sets itself wins (the attachment download's sandbox CSP: messages.routes.ts).
      overwrite: false,
    }),
  )

  // The API: no CORS headers are ever sent, so other origins cannot call it from a browser.
  app.use('/api/*', async (c, next) => {
    await next()
    // Set on the answer's own headers: `c.header` on a finished answer copies it, reading its body,
    // which makes @hono/node-server build a web Response and stream it instead of writing one
    // string (a tenth of a write's time). Headers that refuse changes (a fetched
    // response's) get the copy as before.
    try {
      c.res.headers.set('Cache-Control', 'no-store')
    } catch {
      c.header('Cache-Control', 'no-store')
    }
  })
  // Attachments (multipart) may be up to 5 MB, documents 20 MB; every other body 1 MiB.
  const attachmentUpload = /^\/api\/messages\/[^/]+\/attachments$/
  const listingPhoto = /^\/api\/(?:market|lending)\/[^/]+\/photo$/
  const documentUpload = (method: string, path: string) =>
    (method === 'POST' && path === '/api/documents') ||
    (method === 'PUT' && /^\/api\/documents\/[^/]+\/file$/.test(path)) ||
    // An article's attachment (decision 0065) is at most 20 MB, as a document.
    (method === 'POST' && /^\/api\/articles\/[^/]+\/attachments$/.test(path))
  const attachmentMax = MAX_ATTACHMENT_BYTES + 64 * 1024
  const documentMax = MAX_DOCUMENT_BYTES + 64 * 1024
  const attachmentLimit = bodyLimit({
    maxSize: attachmentMax,
    onError: () => {
      throw new DomainError('PAYLOAD_TOO_LARGE', m.attachmentTooLarge.id)
    },
  })
  const documentLimit = bodyLimit({
    maxSize: documentMax,
    onError: () => {
      throw new DomainError('PAYLOAD_TOO_LARGE', m.documentTooLarge.id)
    },
  })
  const generalLimit = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: () => {
      throw new DomainError('PAYLOAD_TOO_LARGE', 'The request is too large (at most 1 MiB).')
    },
  })
  // A request off the socket whose headers settle it skips bodyLimit, which reads `c.req.raw.body`
  // and so makes @hono/node-server build a full web Request with streams.
  app.use('/api/*', (c, next) => {
    // A market listing's photo is at most 5 MB, as an attachment.
    const attachment = (c.req.method === 'POST' && attachmentUpload.test(c.req.path)) || (c.req.method === 'PUT' && listingPhoto.test(c.req.path))
    const document = documentUpload(c.req.method, c.req.path)
    if (
      declaredWithin(
        c.req.raw,
        attachment ? attachmentMax
        : document ? documentMax
        : MAX_BODY_BYTES,
      )
    )
      return next()
    return (
      attachment ? attachmentLimit(c, next)
      : document ? documentLimit(c, next)
      : generalLimit(c, next)
    )
  })
  app.use('/api/*', authenticate(auth))
  for (const path of [
    '/api/auth/logout',
    '/api/auth/vipps/link',
    '/api/account/*',
    '/api/logger',
    '/api/notifications',
    '/api/notifications/*',
    '/api/sync',
    '/api/webhook/*',
    '/api/company',
    '/api/company/*',
    '/api/companies/*',
    '/api/address-search',
    '/api/agreement',
    '/api/agreement/*',
    '/api/invoice',
    '/api/invoice/*',
    '/api/messages',
    '/api/messages/*',
    '/api/assemblies',
    '/api/assemblies/*',
  ])
    app.use(path, requireAuth)
  const callsVipps = (method: string, path: string) =>
    (path.startsWith('/api/webhook/') && (method === 'POST' || method === 'DELETE')) ||
    path === '/api/auth/vipps' ||
    path === '/api/auth/vipps/link' ||
    // Sign-in checks the password (and slows an account under attack) without holding the write lock.
    path === '/api/auth/login' ||
    path === '/api/auth/vipps/callback' ||
    (method === 'POST' && /^\/api\/company\/[^/]+\/payment-providers\/[^/]+\/test-connection$/.test(path)) ||
    agreementCallsVipps(method, path) ||
    // Not Vipps: the anonymous message takes the lock itself so that no idempotency record keyed by its sender is written.
    isAnonymousMessagePath(method, path) ||
    // Not Vipps: the batch's items each take the lock in their own request (holding it here would deadlock).
    path === SYNC_BATCH_PATH
  // GET forms of actions kept for compatibility change data: their routes are marked (server/http/gets-that-write.ts).
  const writesByGet = getsThatWrite(app)
  app.use(
    '/api/*',
    writeTransaction({
      db: database.db,
      // On PostgreSQL every connection reads committed rows only: a read never waits for a write.
      readsApart: database.reader !== undefined || database.engine === 'postgres',
      writesByGet,
      clock,
      lock,
      outside: callsVipps,
      rerun: (request, env) => app.fetch(request, env),
      fingerprintKey: `idempotency:${config.appSecretKey}`,
    }),
  )

  app.route('/api', healthRoutes(database, version, config.appEnv))
  app.route('/api', authRoutes(auth, vippsLogin, identity))
  app.route('/api', accountRoutes(account))
  app.route('/api', logsRoutes(logs, new RateLimiter(clock, 60, 60_000)))
  app.route('/api', notificationsRoutes(notifications))
  app.route('/api', syncRoutes(sync))
  app.route(
    '/api',
    batchRoutes((request, env) => app.fetch(request, env)),
  )
  app.route('/api', webhooksRoutes(webhooks))
  app.route('/api', companiesRoutes(companies))
  app.route('/api', providersRoutes(providers))
  app.route('/api', addressSearchRoutes(addressSearch))
  app.route('/api', agreementsRoutes(agreements))
  app.route('/api', billingRoutes(billing, invoices))
  app.route('/api', statisticsRoutes(statistics))
  app.route('/api', bookkeepingRoutes(bookkeeping))
  app.route('/api', accountStatementRoutes(accountStatements))
  app.route('/api', statementSendoutsRoutes(statementSendouts))
  app.route('/api', documentsRoutes(documents))
  app.route('/api', lendingRoutes(lending, loans, { photo: new RateLimiter(clock, 30, 3_600_000) }))
  app.route('/api', loansRoutes(loans))
  app.route('/api', marketRoutes(market, { contact: new RateLimiter(clock, 10, 3_600_000), photo: new RateLimiter(clock, 30, 3_600_000) }))
  app.route('/api', articlesRoutes(articles, { upload: new RateLimiter(clock, 30, 3_600_000), search: new RateLimiter(clock, 120, 60_000) }))
  app.route('/api', specialistsRoutes(specialists))
  app.route('/api', forumRoutes(forum))
  app.route('/api', messagesRoutes(messages, contact, { anonymous: new RateLimiter(clock, 5, 3_600_000), contact: new RateLimiter(clock, 5, 3_600_000) }))
  app.route('/api', assembliesRoutes(assemblies))
  app.route('/api', personalDataRoutes(personalData, { download: new RateLimiter(clock, 10, 3_600_000) }))

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
  app.all(
    '/api/*',
    notFoundHandler(() => app.routes),
  )
  for (const mount of deps.mounts ?? []) app.mount(mount.path, mount.app.fetch)

  if (deps.clientDir && existsSync(deps.clientDir)) serveClient(app, deps.clientDir)
  else app.notFound(notFoundHandler(() => app.routes))

  return { app, services, lock }
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
