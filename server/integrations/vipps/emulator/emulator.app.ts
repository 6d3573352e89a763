import { randomUUID } from 'node:crypto'
import { Hono } from 'hono'
import type { Clock } from '../../../lib/clock'
import { accessTokenRoutes } from './access-token.routes'
import { idempotency, injectedFaults, requireAccessToken, type EmulatorEnv, type GuardDeps } from './api.guard'
import { confirmationRoutes } from './confirmation.routes'
import { controlRoutes } from './control.routes'
import { EmulatorClock } from './emulator.clock'
import { EmulatorState } from './emulator.state'
import { createLoginService, type LoginService, type LoginUser } from './login.service'
import { loginRoutes } from './login.routes'
import { ProblemError, problemResponse } from './problems'
import { createRecurringService, type RecurringService } from './recurring.service'
import { recurringRoutes } from './recurring.routes'
import { createWebhookDelivery, type WebhookDelivery } from './webhooks.delivery'
import { createWebhookRegistry, type WebhookRegistry } from './webhooks.registry'
import { webhooksRoutes } from './webhooks.routes'

/**
 * The built-in Vipps MobilePay emulator: the Access Token, Recurring v3, Webhooks v1 and Login
 * (OIDC) APIs with the real paths and rules, the landing page behind `vippsConfirmationUrl`, and
 * `/_control` levers for tests and demos. The app's routes are relative to the emulator's base
 * (`baseUrl`), so it can be mounted inside the product (`app.route('/vipps-emulator', emulator.app)`)
 * or served alone (server/emulator-main.ts, `npm run emulator`).
 */
export interface EmulatorLog {
  info(obj: object, msg?: string): void
  warn(obj: object, msg?: string): void
  error(obj: object, msg?: string): void
}

export interface VippsEmulatorOptions {
  /** "Now" for everything; `/_control/clock` adds an offset for business time only (see EmulatorClock). */
  clock: Clock
  /** Absolute URL of the emulator's base, e.g. http://localhost:3000/vipps-emulator (no trailing slash). */
  baseUrl: string
  /** Used to deliver webhooks; tests pass one that calls a receiver app. Default: global fetch. */
  fetch?: typeof fetch
  /** JSON file that keeps the state across restarts (written atomically after each change). */
  persistPath?: string
  log?: EmulatorLog
  /** Offered on the Vipps Login page; without them, those a product registered through `/_control/login-users`. */
  loginUsers?: LoginUser[]
  /** When > 0, charges are processed and webhooks delivered on this interval, and events are delivered at once. Off in tests. */
  tickMs?: number
  /** How long a `fail-next-calls` timeout hangs unless the caller gives up first. Default 30 s. */
  hangMs?: number
  /** Lifetime of access tokens from POST /accesstoken/get. Default 3600 s. */
  tokenTtlSeconds?: number
}

export interface VippsEmulator {
  app: Hono<EmulatorEnv>
  state: EmulatorState
  /** The emulator's business clock (the injected clock plus the control offset). */
  clock: Clock
  /** Sends every webhook delivery that is due (all queued ones with `{ all: true }`). */
  deliverWebhooksNow(options?: { all?: boolean }): Promise<void>
  /** The processing run: expiries, PENDING → DUE, due charges → CHARGED / RESERVED / FAILED. */
  processDue(options?: { hold?: boolean }): Promise<void>
  stop(): void
}

const silent: EmulatorLog = { info() {}, warn() {}, error() {} }

export function createVippsEmulator(options: VippsEmulatorOptions): VippsEmulator {
  const baseUrl = options.baseUrl.replace(/\/+$/, '')
  const log = options.log ?? silent
  const baseClock = options.clock
  const state = new EmulatorState(options.persistPath, log)
  const clock = new EmulatorClock(baseClock, () => state.data.clockOffsetMs)
  const tickMs = options.tickMs ?? 0

  const registry = createWebhookRegistry({ state, clock })
  const delivery = createWebhookDelivery({ state, registry, clock: baseClock, fetch: options.fetch ?? globalThis.fetch, log })
  const login = createLoginService({ clock: baseClock, baseUrl, users: () => options.loginUsers ?? state.data.loginUsers })

  async function deliverWebhooksNow(opts: { all?: boolean } = {}): Promise<void> {
    await delivery.deliverDue(opts)
  }

  const soon = deliverSoon(tickMs, deliverWebhooksNow)
  const recurring = createRecurringService({
    state,
    clock,
    baseUrl,
    subjectFor: login.subjectFor,
    emit: (payload) => {
      const queued = delivery.enqueue(state.recordEvent(payload, randomUUID()))
      // With timers on (the running product), send at once rather than on the next tick.
      if (queued) soon.schedule()
    },
  })

  const hangs = hangingCalls(options.hangMs ?? 30_000)

  function runDue(opts: { hold?: boolean } = {}): number {
    const moved = recurring.processDue(opts)
    state.flush()
    return moved
  }

  const app = emulatorApp({ options, log, state, baseClock, clock, hang: hangs.hang, registry, delivery, login, recurring, runDue })
  const timer = startTicks(tickMs, log, runDue, deliverWebhooksNow)

  return {
    app,
    state,
    clock,
    deliverWebhooksNow,
    processDue: async (opts) => {
      runDue(opts)
    },
    stop() {
      if (timer) clearInterval(timer)
      soon.cancel()
      hangs.releaseAll()
    },
  }
}

/** With timers on (`tickMs > 0`), one delivery run queued right after an event, at most one at a time. */
function deliverSoon(tickMs: number, deliverWebhooksNow: () => Promise<void>) {
  let pending: ReturnType<typeof setTimeout> | undefined
  return {
    schedule() {
      if (tickMs > 0 && !pending)
        pending = setTimeout(() => {
          pending = undefined
          void deliverWebhooksNow()
        }, 0)
    },
    cancel() {
      if (pending) clearTimeout(pending)
    },
  }
}

/** The `fail-next-calls` timeouts: each call hangs until its caller gives up, `hangMs` passes, or the emulator stops. */
function hangingCalls(hangMs: number) {
  const hangs = new Set<() => void>()
  const hang = (signal: AbortSignal) =>
    new Promise<void>((resolve) => {
      // A caller that gave up before the call got here (a slow machine) is not kept waiting.
      if (signal.aborted) return resolve()
      const done = () => {
        clearTimeout(timer)
        signal.removeEventListener('abort', done)
        hangs.delete(done)
        resolve()
      }
      const timer = setTimeout(done, hangMs)
      signal.addEventListener('abort', done)
      hangs.add(done)
    })
  return {
    hang,
    releaseAll() {
      for (const done of [...hangs]) done()
    },
  }
}

interface EmulatorParts {
  options: VippsEmulatorOptions
  log: EmulatorLog
  state: EmulatorState
  baseClock: Clock
  clock: EmulatorClock
  hang: (signal: AbortSignal) => Promise<void>
  registry: WebhookRegistry
  delivery: WebhookDelivery
  login: LoginService
  recurring: RecurringService
  runDue: (opts?: { hold?: boolean }) => number
}

/** The Hono app: error answers, the per-request expiry and state write, the guards, and every route. */
function emulatorApp(parts: EmulatorParts): Hono<EmulatorEnv> {
  const { options, log, state, baseClock, clock, registry, delivery, login, recurring } = parts
  const guard: GuardDeps = { state, transportClock: baseClock, hang: parts.hang }
  const app = new Hono<EmulatorEnv>()
  app.onError((err, c) => {
    if (err instanceof ProblemError) return problemResponse(err, c.req.path)
    log.error({ err, path: c.req.path }, 'Vipps emulator failed')
    return problemResponse(new ProblemError(500, 'internal-error', 'The emulator failed'), c.req.path)
  })
  // Every request first lets overdue PENDING agreements expire, and writes what it changed.
  app.use('*', async (_c, next) => {
    recurring.expirePending()
    await next()
    try {
      state.flush()
    } catch (err) {
      log.error({ err }, 'Vipps emulator could not write its state')
    }
  })

  app.use('/accesstoken/*', injectedFaults(guard, true))
  for (const path of ['/recurring/*', '/webhooks/*']) {
    app.use(path, injectedFaults(guard, false))
    app.use(path, requireAccessToken(guard))
  }
  app.use('/recurring/*', idempotency(guard, { required: true }))
  app.use('/webhooks/*', idempotency(guard, { required: false }))

  app.route('/', accessTokenRoutes({ state, transportClock: baseClock, ttlSeconds: options.tokenTtlSeconds ?? 3600 }))
  app.route('/', recurringRoutes(recurring))
  app.route('/', webhooksRoutes(registry))
  app.route('/', confirmationRoutes({ state, recurring }))
  app.route('/', loginRoutes(login))
  app.route(
    '/',
    controlRoutes({
      state,
      baseClock,
      clock,
      recurring,
      processDue: parts.runDue,
      deliver: (opts) => delivery.deliverDue(opts),
      reset: () => {
        state.reset()
        login.reset()
      },
    }),
  )
  app.all('*', (c) => problemResponse(new ProblemError(404, 'resource-not-found', `No emulator endpoint ${c.req.method} ${c.req.path}`), c.req.path))
  return app
}

/** When `tickMs > 0`: the processing run and a webhook delivery run on that interval (not keeping the process alive). */
function startTicks(tickMs: number, log: EmulatorLog, runDue: () => number, deliverWebhooksNow: () => Promise<void>) {
  const timer =
    tickMs > 0 ?
      setInterval(() => {
        try {
          runDue()
        } catch (err) {
          log.error({ err }, 'Vipps emulator processing run failed')
        }
        void deliverWebhooksNow().catch((err: unknown) => log.error({ err }, 'Vipps emulator webhook delivery failed'))
      }, tickMs)
    : undefined
  timer?.unref()
  return timer
}
