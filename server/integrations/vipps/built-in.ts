import { join } from 'node:path'
import type { Logger } from 'pino'
import type { Db } from '../../db/client'
import { users } from '../../db/schema/users'
import type { Clock } from '../../lib/clock'
import { createVippsEmulator, type VippsEmulator } from './emulator/emulator.app'
import { subjectForPhone } from './emulator/emulator.ids'
import type { LoginUser } from './emulator/login.service'
import { remoteEmulator, type RemoteEmulator } from './remote-emulator'
import { vippsEnvironment, type VippsEnvironment } from './vipps-environment'
import { createVippsLogin, type VippsLogin } from './vipps-login'

export const EMULATOR_PATH = '/vipps-emulator'
/** The Vipps Login client the built-in emulator knows (outside production only). */
export const EMULATOR_LOGIN_CLIENT = { clientId: 'boligkasse-login', clientSecret: 'boligkasse-login-secret' }

export interface VippsWiring {
  environment: VippsEnvironment
  login: VippsLogin | undefined
  /** The built-in emulator (in this process). */
  emulator: VippsEmulator | undefined
  /** The standalone emulator behind VIPPS_BASE_URL, outside production (docs/decisions/0055). */
  remote: RemoteEmulator | undefined
  /** The clock billing follows: an emulator's business clock; undefined at the real Vipps. */
  businessClock: Clock | undefined
  /** Stands in for a member on the confirmation page (demo data); undefined at the real Vipps. */
  approve: ((vippsAgreementId: string) => Promise<void>) | undefined
  stop(): void
}

export interface WireVippsOptions {
  publicUrl: string
  vippsBaseUrl: string | undefined
  isProduction: boolean
  loginClient: { clientId: string; clientSecret: string } | undefined
  clock: Clock
  db: Db
  dataDir: string
  log: Logger
  version?: string
  deliverTo: () => (request: Request) => Response | Promise<Response>
  /** Emulator timers (charge processing, webhook delivery); 0 in tests, which drive it by hand. */
  tickMs?: number
  /** Tests: how long an injected timeout hangs, and the client's timeout and backoff. */
  hangMs?: number
  clientOptions?: Parameters<typeof vippsEnvironment>[0]['clientOptions']
}

/**
 * Chooses where Vipps lives (README "Vipps"): VIPPS_BASE_URL when set; otherwise, outside
 * production, the built-in emulator mounted at /vipps-emulator — the server calls it in-process,
 * browsers reach its pages through PUBLIC_URL, and its webhooks are delivered in-process to
 * `deliverTo` (our own app), signed exactly like Vipps does. With several instances,
 * VIPPS_BASE_URL points at one standalone emulator (`npm run emulator`) that they all share;
 * outside production its clock, approvals and sign-in page are then reached over HTTP.
 */
export async function wireVipps(opts: WireVippsOptions): Promise<VippsWiring> {
  const redirectUri = `${opts.publicUrl}/api/auth/vipps/callback`
  const loginUsers = () => demoLoginUsers(opts.db)
  if (opts.vippsBaseUrl || opts.isProduction) return remoteWiring(opts, redirectUri, loginUsers)
  return builtInWiring(opts, redirectUri, await loginUsers())
}

const demoLoginUsers = async (db: Db) =>
  (await db.select({ name: users.fullName, email: users.emailAddress, mobile: users.mobileNumber }).from(users).all())
    .filter((u) => u.mobile)
    .map((u) => {
      const phoneNumber = u.mobile!.replace(/\D/g, '')
      return { phoneNumber, name: u.name, email: u.email, sub: subjectForPhone(phoneNumber) }
    })

/** VIPPS_BASE_URL (a standalone emulator outside production) or the real Vipps. */
async function remoteWiring(opts: WireVippsOptions, redirectUri: string, loginUsers: () => Promise<LoginUser[]>): Promise<VippsWiring> {
  const environment = vippsEnvironment({ clock: opts.clock, baseUrl: opts.vippsBaseUrl, version: opts.version })
  const base = opts.vippsBaseUrl ?? 'https://api.vipps.no'
  const remote =
    opts.vippsBaseUrl && !opts.isProduction ?
      remoteEmulator({
        baseUrl: base,
        clock: opts.clock,
        log: opts.log.child({ component: 'vipps-emulator' }),
        loginUsers: (await loginUsers()).map(({ phoneNumber, name, email }) => ({ phoneNumber, name, email })),
      })
    : undefined
  // Outside production the emulator's demo client stands in, as with the built-in emulator (any
  // client is accepted there); the real Vipps needs VIPPS_LOGIN_CLIENT_*.
  const client = opts.loginClient ?? (remote ? EMULATOR_LOGIN_CLIENT : undefined)
  const login = client ? createVippsLogin({ apiBaseUrl: base, browserBaseUrl: base, ...client, redirectUri, now: () => opts.clock.now() }) : undefined
  return {
    environment,
    login,
    emulator: undefined,
    remote,
    businessClock: remote?.clock,
    approve: remote?.approve,
    stop: () => remote?.stop(),
  }
}

/** The built-in emulator mounted at /vipps-emulator, called in-process. */
function builtInWiring(opts: WireVippsOptions, redirectUri: string, loginUsers: LoginUser[]): VippsWiring {
  const baseUrl = `${opts.publicUrl}${EMULATOR_PATH}`
  const emulator = createVippsEmulator({
    clock: opts.clock,
    baseUrl,
    persistPath: join(opts.dataDir, 'vipps-emulator.json'),
    loginUsers,
    tickMs: opts.tickMs ?? 2000,
    hangMs: opts.hangMs,
    log: opts.log.child({ component: 'vipps-emulator' }),
    fetch: ((input: string | URL | Request, init?: RequestInit) => opts.deliverTo()(new Request(input, init))) as typeof fetch,
  })
  // Calls from the server to the emulator never leave the process.
  const inProcess = inProcessFetch(emulator)
  const environment = vippsEnvironment({ clock: opts.clock, emulator: { baseUrl, fetch: inProcess }, version: opts.version, clientOptions: opts.clientOptions })
  const login = createVippsLogin({
    apiBaseUrl: baseUrl,
    browserBaseUrl: baseUrl,
    ...(opts.loginClient ?? EMULATOR_LOGIN_CLIENT),
    redirectUri,
    fetch: inProcess,
    now: () => opts.clock.now(),
  })
  return { environment, login, emulator, remote: undefined, businessClock: emulator.clock, approve: approveInEmulator(emulator), stop: () => emulator.stop() }
}

/** A fetch to the emulator that never leaves the process. */
function inProcessFetch(emulator: VippsEmulator): typeof fetch {
  return ((input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : input)
    const path = url.pathname.slice(EMULATOR_PATH.length) || '/'
    const answer = Promise.resolve(emulator.app.request(path + url.search, init))
    // Like a real fetch, a caller that gives up (timeout) gets an AbortError, even when the
    // emulator answers afterwards: that is how a lost answer looks to the client.
    const signal = init?.signal
    if (!signal) return answer
    return new Promise<Response>((resolve, reject) => {
      const abort = () => reject(new DOMException('The operation was aborted', 'AbortError'))
      if (signal.aborted) return abort()
      signal.addEventListener('abort', abort, { once: true })
      answer.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort))
    })
  }) as typeof fetch
}

/**
 * Stands in for a member approving an agreement on the emulator's confirmation page (demo data:
 * `agreements.connectSeeded`), through the emulator's `/_control/approve`.
 */
export const approveInEmulator =
  (emulator: VippsEmulator) =>
  async (vippsAgreementId: string): Promise<void> => {
    const res = await emulator.app.request(`/_control/approve/${encodeURIComponent(vippsAgreementId)}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    })
    if (!res.ok) throw new Error(`the emulator did not approve ${vippsAgreementId}: ${res.status} ${await res.text()}`)
  }
