import type { Server } from 'node:http'
import { dirname, resolve } from 'node:path'
import { parseConfig, type Config } from './env'
import { openConfiguredDatabase } from './db/open'
import { demoAgreementsAwaitingVipps, ensureSuperAdmin, seedDemoData, DEMO_LOGIN_TOKEN, type DemoLogin } from './db/seed'
import { seedDemoHistory } from './db/seed-history'
import { systemClock, type Clock } from './lib/clock'
import type { Database_ } from './db/client'
import { WriteLock } from './lib/write-lock'
import type { Logger } from 'pino'
import { batchedStdout, createLogger, stdoutLog } from './logger'
import { metrics } from './observability/metrics'
import { serveMetrics } from './observability/metrics-route'
import { outboxDepths } from './observability/outbox-depths'
import { createApp } from './app'
import { createNodeServer } from './http/node-server'
import { createSecretBox } from './lib/secret-box'
import { EMULATOR_PATH, wireVipps } from './integrations/vipps/built-in'
import { createLogsService, systemLogSink } from './features/logs/logs.service'
import { MailWorker, emlFileTransport, smtpTransport } from './integrations/mail/mail-outbox'
import { JobRunner, type Job } from './jobs/runner'
import { housekeepingJob } from './jobs/housekeeping'
import { secretKey } from './lib/secret-key'
import { startEventLoopProbe } from './lib/event-loop-probe'
import { fromRoot } from './lib/project-root'

function printLogins(config: Config, logins: DemoLogin[], emulator: string | undefined) {
  const lines = [
    '',
    `Boligkasse is running on ${config.publicUrl}`,
    '',
    'Demo logins (password for all):',
    ...logins.map((l) => `  ${l.role.padEnd(13)} ${l.email.padEnd(30)} ${l.password}`),
    '  Residents beboer03–08@solgaarden.dk have running agreements (members of Solgården); beboer02 has one',
    '  to accept; beboer01 and beboer09–15 have none yet, so they are not members and see no shared lists.',
    ...(config.isProduction ? [] : [`  Token login (administrator): ${DEMO_LOGIN_TOKEN}`]),
    '',
    ...(emulator ? [`Vipps MobilePay: ${emulator}`] : []),
    `Mail is written to ${config.smtpUrl ? 'SMTP' : resolve(config.mailOutboxDir)}; API docs at ${config.publicUrl}/api/docs`,
    '',
  ]
  process.stdout.write(lines.join('\n') + '\n')
}

/**
 * The seeded running agreements get their Vipps agreement in the emulator (decision 0036), as a
 * member's acceptance makes one, so billing collects them; a fresh demo with the built-in emulator
 * gets its last three months of charges (decision 0070).
 */
async function demoWithVipps(ctx: {
  database: Database_
  lock: WriteLock
  clock: Clock
  log: Logger
  vipps: Awaited<ReturnType<typeof wireVipps>>
  services: ReturnType<typeof createApp>['services']
}) {
  const { database, lock, clock, log, vipps, services } = ctx
  if (!vipps.approve) return
  const seeded = await demoAgreementsAwaitingVipps(database.db)
  if (seeded.length)
    await services.agreements
      .connectSeeded(seeded, vipps.approve)
      .catch((err: unknown) => log.error({ err }, 'demo agreements could not be connected to the Vipps emulator'))
  // Billed and collected by the engine before the jobs start (server/db/seed-history.ts).
  // DEMO_HISTORY=0 leaves them out (browser journeys that write a history of their own).
  if (vipps.emulator && process.env.DEMO_HISTORY !== '0')
    await seedDemoHistory({ db: database.db, lock, clock, log, emulator: vipps.emulator, services }).catch((err: unknown) =>
      log.error({ err }, 'the demo history of charges could not be made'),
    )
}

/** The mail outbox's worker and the jobs (housekeeping first, then every module's); answers how to stop them. */
function startWorkers(
  ctx: { config: Config; database: Database_; clock: Clock; lock: WriteLock; log: Logger },
  moduleJobs: Job[],
  sweepFiles: () => Promise<number>,
) {
  const { config, database, clock, lock, log } = ctx
  const mail = new MailWorker({
    db: database.db,
    clock,
    lock,
    from: config.mailFrom,
    log,
    transport: config.smtpUrl ? smtpTransport(config.smtpUrl) : emlFileTransport(config.mailOutboxDir),
    leaseMs: config.claimLeaseMs,
  })
  mail.start(1000)
  const jobs = new JobRunner({ lock, log, db: database.db })
  // Every module's stored files that no row refers to go with the housekeeping.
  const housekeeping = housekeepingJob(database.db, clock, sweepFiles)
  void jobs.runNow(housekeeping)
  // Each module declares its jobs (server/features/<name>/index.ts; docs/ARCHITECTURE.md "Jobs").
  jobs.start([housekeeping, ...moduleJobs])

  // Each resolves when its run under way has ended; nothing new starts.
  return () => Promise.all([mail.stop(), jobs.stop()]).then(() => undefined)
}

/** Stopping, requests under way and the job and mail runs get this long to end… */
const SHUTDOWN_GRACE_MS = 5000
/** …and the process is gone by this time, whatever still runs and whatever stdout does (a supervisor's SIGKILL comes at 10 s). */
const HARD_EXIT_MS = 7000

/**
 * SIGTERM and SIGINT stop the server within 10 s (docs/decisions/0078): no new connections, no new
 * job or mail runs; the requests and runs under way may end within the grace time, then the
 * database is closed and the process exits. Work still running then is left: jobs and the mail
 * worker claim their work in transactions and leases, so what was not committed is taken up again
 * at the next start or by another instance. A timer (unref'd: it alone keeps nothing alive) exits
 * in any case; logging never holds the exit (server/logger.ts gives stdout a second at most).
 */
function stopOnSignals(ctx: {
  server: Server
  log: Logger
  stopWorkers: () => Promise<void>
  stopVipps: () => void
  stopLive: () => Promise<void>
  closeDatabase: () => unknown
  metricsServer?: Server
}) {
  const { server, log } = ctx
  let stopping = false
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) return
    stopping = true
    setTimeout(() => {
      log.warn({ signal }, 'stopping took too long: exiting without waiting further')
      process.exit(1)
    }, HARD_EXIT_MS).unref()
    log.info({ signal }, 'stopping')
    ctx.stopVipps()
    ctx.metricsServer?.close()
    ctx.metricsServer?.closeAllConnections()
    // Live streams never end on their own: each is told `stopping` and closed, so `server.close`
    // waits only for real requests (decision 0086); their clients reconnect to another instance.
    const live = ctx.stopLive().catch((err: unknown) => log.warn({ err }, 'stopping the live streams failed'))
    const requests = new Promise<void>((done) => server.close(() => done()))
    // A keep-alive connection is closed as soon as it has no request under way.
    server.closeIdleConnections()
    setInterval(() => server.closeIdleConnections(), 100).unref()
    const work = Promise.all([requests, ctx.stopWorkers(), live]).then(() => true)
    const grace = new Promise<false>((done) => setTimeout(() => done(false), SHUTDOWN_GRACE_MS).unref())
    void Promise.race([work, grace])
      .then(async (finished) => {
        if (!finished) {
          log.warn({ signal }, 'stopping: requests or jobs still running after the grace time are left to be taken up again')
          server.closeAllConnections()
        } else await ctx.closeDatabase()
        log.info({ signal }, 'stopped')
      })
      .catch((err: unknown) => log.error({ err }, 'stopping failed'))
      .finally(() => process.exit(0))
  }
  process.on('SIGINT', shutdown)
  process.on('SIGTERM', shutdown)
}

async function main() {
  // bench/api.ts reads the event-loop delay under load (server/lib/event-loop-probe.ts).
  if (process.env.BENCH_EVENT_LOOP === '1') startEventLoopProbe()
  const config = parseConfig(process.env)
  const clock = systemClock
  const database = await openConfiguredDatabase(config)
  const lock = new WriteLock(database.engine === 'sqlite')
  const logs = createLogsService({ db: database.db, clock })
  // Production writes its log lines in batches (server/logger.ts); development shows each at once.
  // Either way at most LOG_BUFFER_KB wait for stdout (docs/decisions/0078).
  const stdout = config.appEnv === 'production' ? batchedStdout(config.logBufferBytes) : stdoutLog({ limitBytes: config.logBufferBytes })
  const log = createLogger(config.logLevel, systemLogSink(logs, lock), stdout)
  config.appSecretKey = secretKey(config)

  if (config.superAdmin) await ensureSuperAdmin(database.db, clock, config.superAdmin.email, config.superAdmin.password)
  const logins = config.demoData ? await seedDemoData(database.db, clock, createSecretBox(config.appSecretKey)) : []

  let appRef: { fetch: (request: Request) => Response | Promise<Response> } | undefined
  const vipps = await wireVipps({
    publicUrl: config.publicUrl,
    vippsBaseUrl: config.vippsBaseUrl,
    isProduction: config.isProduction,
    loginClient: config.vippsLogin,
    clock,
    db: database.db,
    dataDir: dirname(resolve(config.databasePath)),
    log,
    version: process.env.npm_package_version,
    deliverTo: () => (request) => appRef!.fetch(request),
  })
  const {
    app,
    services,
    jobs: moduleJobs,
    sweepFiles,
  } = createApp({
    config,
    database,
    clock,
    log,
    lock,
    vipps: vipps.environment,
    vippsLogin: vipps.login,
    mounts: vipps.emulator ? [{ path: EMULATOR_PATH, app: vipps.emulator.app }] : [],
    // With an emulator (built-in, or standalone outside production), billing follows its business
    // clock, so moving it (/_control/clock) lets a demo or a browser journey reach the next period.
    billing: vipps.businessClock ? { clock: vipps.businessClock } : undefined,
    clientDir: resolve(config.clientDir ?? fromRoot('dist', 'client')),
    version: process.env.npm_package_version,
  })
  appRef = app
  // What /metrics reads at each scrape (server/observability/metrics.ts).
  metrics().watch({ depths: () => outboxDepths(database.db), pool: database.pool })
  const metricsServer =
    config.metrics.port ?
      serveMetrics({ port: config.metrics.port, host: config.metrics.host }, () =>
        log.info({ port: config.metrics.port, host: config.metrics.host }, 'metrics listening'),
      )
    : undefined
  // A standalone emulator (VIPPS_BASE_URL outside production): its clock offset read, and this
  // instance's Vipps sign-in people registered, before anything is billed (docs/decisions/0055).
  await vipps.remote?.start()
  if (config.demoData) await demoWithVipps({ database, lock, clock, log, vipps, services })
  const stopWorkers = startWorkers({ config, database, clock, lock, log }, moduleJobs, sweepFiles)

  // Keep-alive after early answers, 414/431 as JSON, no reset on close: server/http/node-server.ts.
  const server = createNodeServer(app.fetch)
  server.listen(config.port, () => {
    log.info({ port: config.port, env: config.appEnv }, 'listening')
    const emulatorLine =
      vipps.emulator ? `built-in emulator at ${config.publicUrl}${EMULATOR_PATH} (no network needed)`
      : vipps.remote ? `standalone emulator at ${vipps.remote.baseUrl}`
      : undefined
    if (logins.length) printLogins(config, logins, emulatorLine)
  })

  stopOnSignals({
    server,
    log,
    stopWorkers,
    stopVipps: () => vipps.stop(),
    stopLive: () => services.live.stop(),
    closeDatabase: () => database.close(),
    metricsServer,
  })
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
