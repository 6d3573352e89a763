import type { Logger } from 'pino'
import type { Config } from '../env'
import type { Database_, Db } from '../db/client'
import type { Clock } from '../lib/clock'
import type { WriteLock } from '../lib/write-lock'
import type { SecretBox } from '../lib/secret-box'
import type { VippsEnvironment } from '../integrations/vipps/vipps-environment'
import type { VippsLogin } from '../integrations/vipps/vipps-login'
import type { AddressProvider } from '../integrations/addresses/address-provider'
import type { AttachmentScanner } from '../integrations/files/attachment-store'
import type { BillingConfig, createBillingService } from '../features/billing/billing.service'
import type { AuthDeps } from '../features/auth/auth.service'
import type { SyncedEntity } from '../features/sync/synced-entity'
import type { RouteRules } from '../http/route'
import type { Services } from './module'

/** What `createApp` is given (server/app.ts): the running process's parts, and choices tests make. */
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
  /** Messages: where attachments are stored (default `<data dir>/attachments`) and the virus-scanning hook (attachment-store.ts). */
  messages?: { attachmentsDir?: string; scanner?: AttachmentScanner }
  /** Billing: lead days, overdue steps (defaults from the config), and a clock of its own (the emulator's in demos). */
  billing?: Partial<BillingConfig> & { clock?: Clock; faultPoint?: Parameters<typeof createBillingService>[0]['faultPoint'] }
  /** Sign-in limits and the slow-down's sleep (tests make the sleep instant). */
  auth?: Pick<AuthDeps, 'limits' | 'sleep'>
}

/**
 * What every module's factories get besides the other modules' services: the process's parts,
 * each made once by `createApp` (docs/ARCHITECTURE.md "Modules").
 */
export interface Kernel {
  config: Config
  database: Database_
  /** The app's handle (inside a read scope it reads on the read-only connection). */
  db: Db
  clock: Clock
  /** The clock money follows: the emulator's business clock in demos, else `clock`. */
  businessClock: Clock
  log: Logger
  lock: WriteLock
  version: string
  /** Encrypts provider secrets at rest (APP_SECRET_KEY). */
  secrets: SecretBox
  vipps: VippsEnvironment
  /** The folder stored files live under: each module keeps its own subfolder. */
  filesDir: string
  /** Scans an uploaded file before it is kept (messages, documents, market, lending, articles). */
  scanner: AttachmentScanner
  /** What `createApp` was given, for the choices only one module cares about. */
  options: AppDeps
  /** The app's own fetch: every middleware runs, as for a request of its own (the sync batch). */
  fetch(request: Request, env?: unknown): Response | Promise<Response>
  /** The rules of the route a request reaches (server/http/route.ts), for checks made before it runs. */
  routeRules(method: string, path: string): RouteRules | undefined
  /** Every module's synced entities, in the order of the modules (the sync cursor counts on it). */
  syncEntities(services: Services): SyncedEntity[]
}
