import { z } from 'zod'

/** The default of CLAIM_LEASE_SECONDS: a Vipps call with its four tries and a charge's re-read, or an SMTP exchange, with room to spare. */
export const DEFAULT_CLAIM_LEASE_MS = 120_000

/** Runtime configuration (docs/API.md "Runtime configuration"), parsed once at boot. */
const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  DATABASE_PATH: z.string().min(1).default('./data/app.db'),
  /** PostgreSQL instead of the SQLite file (decision 0054): postgres://user:password@host:port/database. */
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'A PostgreSQL URL: postgres://user:password@host:5432/database')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** Connections each instance keeps to PostgreSQL at most (instances × this must stay under the server's max_connections). */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(2).max(500).default(20),
  /** Where uploaded attachments are kept; every instance must see the same directory. Default: beside the SQLite file. */
  ATTACHMENTS_DIR: z.string().min(1).optional(),
  APP_ENV: z.enum(['development', 'test', 'production']).default('development'),
  PUBLIC_URL: z.url().optional(),
  APP_SECRET_KEY: z.string().optional(),
  SUPERADMIN_EMAIL: z.email().optional(),
  SUPERADMIN_PASSWORD: z.string().min(6).optional(),
  DEMO_DATA: z.enum(['0', '1']).optional(),
  SMTP_URL: z.string().optional(),
  MAIL_OUTBOX_DIR: z.string().default('./data/mail'),
  MAIL_FROM: z.string().default('Boligkasse <no-reply@boligkasse.dk>'),
  CONTACT_EMAIL: z.email().default('kontakt@boligkasse.dk'),
  VIPPS_BASE_URL: z.url().optional(),
  VIPPS_LOGIN_CLIENT_ID: z.string().optional(),
  VIPPS_LOGIN_CLIENT_SECRET: z.string().optional(),
  ADDRESS_PROVIDER: z.enum(['builtin', 'dataforsyningen']).default('builtin'),
  ADDRESS_API_TOKEN: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** The most log lines (in KiB) kept in memory while stdout is not read; beyond it lines are dropped and counted (docs/decisions/0078). */
  LOG_BUFFER_KB: z.coerce
    .number()
    .int()
    .min(16)
    .max(1024 * 1024)
    .default(1024),
  TRUST_PROXY: z.enum(['0', '1']).default('0'),
  /** Bearer token for GET /metrics on the public port (README "Running at scale"); unset: no /metrics there. */
  METRICS_TOKEN: z.string().min(16).optional(),
  /** A private listener answering /metrics without a token; unset: none. */
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  CLIENT_DIR: z.string().min(1).optional(),
  /**
   * The shared secret the mail provider signs its bounce notices with (POST /api/webhooks/mail-bounce,
   * Standard Webhooks signatures; docs/decisions/0091): at least 16 characters, or `whsec_<base64>`; unset: the route answers 404.
   */
  MAIL_WEBHOOK_SECRET: z.string().min(16).optional(),
  /** Billing (docs/DOMAIN.md "Billing rules"): days before the due date a regular charge is created (Vipps needs ≥ 1). */
  BILLING_LEAD_DAYS: z.coerce.number().int().min(1).max(14).default(3),
  /** Days after a failed charge on which the member is reminded, comma-separated. */
  BILLING_REMINDER_DAYS: z
    .string()
    .regex(/^\s*\d+(\s*,\s*\d+)*\s*$/, 'Comma-separated days, e.g. 3,10')
    .default('3,10'),
  /** Days after a failed charge on which the agreement is flagged for debt collection. */
  BILLING_DEBT_COLLECTION_DAYS: z.coerce.number().int().min(1).default(30),
  /**
   * The storage quota of an association without one of its own, in MB (1 MB = 1024 × 1024 bytes,
   * as the upload limits count): what its documents, attachments and photos may take together
   * (docs/decisions/0082).
   */
  STORAGE_QUOTA_MB: z.coerce
    .number()
    .int()
    .min(1)
    .max(1024 * 1024)
    .default(1024),
  /**
   * How long a send the Vipps outbox or the mail worker claimed stays that instance's before
   * another instance takes it over (an instance that died mid-send): longer than a send with its
   * retries takes (docs/decisions/0058).
   */
  /**
   * The VAPID key pair push messages are signed with (base64url, as `web-push generate-vapid-keys`
   * writes them), both or neither; unset: one is made once and kept in the database, so every
   * instance shares it (docs/decisions/0088).
   */
  VAPID_PUBLIC_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{87}$/, 'A base64url P-256 public key (87 characters)')
    .optional(),
  VAPID_PRIVATE_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/, 'A base64url P-256 private key (43 characters)')
    .optional(),
  /** Who push services may contact about this server's pushes (a mailto: or https: URL); default: mailto: CONTACT_EMAIL. */
  VAPID_SUBJECT: z
    .string()
    .regex(/^(mailto:|https:\/\/)/, 'A mailto: or https:// URL')
    .optional(),
  /**
   * The push services a device's subscription may point at (host names; a name also covers its
   * subdomains): the browsers' own services by default. The server calls nothing else, so a
   * subscription cannot make it call an address inside the network (docs/decisions/0088).
   */
  PUSH_SERVICE_HOSTS: z
    .string()
    .default('fcm.googleapis.com,updates.push.services.mozilla.com,push.services.mozilla.com,push.apple.com,notify.windows.com')
    .transform((v) =>
      v
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
    ),
  CLAIM_LEASE_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(3600)
    .default(DEFAULT_CLAIM_LEASE_MS / 1000),
})

export interface Config {
  port: number
  databasePath: string
  /** PostgreSQL (DATABASE_URL); undefined: the SQLite file at `databasePath`. */
  databaseUrl: string | undefined
  /** DATABASE_POOL_SIZE: each instance's PostgreSQL connections at most. */
  databasePoolSize: number
  /** Where attachments are kept (ATTACHMENTS_DIR); undefined: beside the SQLite file. */
  attachmentsDir: string | undefined
  appEnv: 'development' | 'test' | 'production'
  isProduction: boolean
  publicUrl: string
  appSecretKey: string | undefined
  superAdmin: { email: string; password: string } | undefined
  demoData: boolean
  smtpUrl: string | undefined
  mailOutboxDir: string
  mailFrom: string
  /** Where the contact form's messages go (docs/PRODUCT.md §2 Contact). */
  contactEmail: string
  vippsBaseUrl: string | undefined
  /** Vipps Login client; outside production the built-in emulator's demo client is used when unset. */
  vippsLogin: { clientId: string; clientSecret: string } | undefined
  addressProvider: 'builtin' | 'dataforsyningen'
  addressApiToken: string | undefined
  logLevel: string
  /** LOG_BUFFER_KB in bytes. */
  logBufferBytes: number
  trustProxy: boolean
  /** Who may read /metrics (server/observability/metrics-route.ts). */
  metrics: { token: string | undefined; port: number | undefined; host: string }
  /** The built web client to serve; undefined: dist/client of this checkout. */
  clientDir: string | undefined
  /** MAIL_WEBHOOK_SECRET: bounce notices of the mail provider are taken only with it (docs/decisions/0091). */
  mailWebhookSecret: string | undefined
  billing: { leadDays: number; reminderDays: number[]; debtCollectionDays: number }
  /** CLAIM_LEASE_SECONDS in milliseconds. */
  claimLeaseMs: number
  /** STORAGE_QUOTA_MB in bytes: an association's storage quota unless the super admin set its own. */
  storageQuotaBytes: number
  /** VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY; undefined: the pair kept in the database (docs/decisions/0088). */
  vapid?: { publicKey: string; privateKey: string } | undefined
  /** VAPID_SUBJECT, else mailto: the contact address. */
  vapidSubject?: string
  /** PUSH_SERVICE_HOSTS: the push services subscriptions may name. */
  pushServiceHosts: readonly string[]
}

export function parseConfig(env: Record<string, string | undefined>): Config {
  const e = EnvSchema.parse(env)
  const isProduction = e.APP_ENV === 'production'
  return {
    port: e.PORT,
    databasePath: e.DATABASE_PATH,
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    attachmentsDir: e.ATTACHMENTS_DIR,
    appEnv: e.APP_ENV,
    isProduction,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    appSecretKey: e.APP_SECRET_KEY,
    superAdmin: e.SUPERADMIN_EMAIL && e.SUPERADMIN_PASSWORD ? { email: e.SUPERADMIN_EMAIL.toLowerCase(), password: e.SUPERADMIN_PASSWORD } : undefined,
    demoData: e.DEMO_DATA ? e.DEMO_DATA === '1' : !isProduction,
    smtpUrl: e.SMTP_URL || undefined,
    mailOutboxDir: e.MAIL_OUTBOX_DIR,
    mailFrom: e.MAIL_FROM,
    contactEmail: e.CONTACT_EMAIL,
    vippsBaseUrl: e.VIPPS_BASE_URL,
    vippsLogin:
      e.VIPPS_LOGIN_CLIENT_ID && e.VIPPS_LOGIN_CLIENT_SECRET ? { clientId: e.VIPPS_LOGIN_CLIENT_ID, clientSecret: e.VIPPS_LOGIN_CLIENT_SECRET } : undefined,
    addressProvider: e.ADDRESS_PROVIDER,
    addressApiToken: e.ADDRESS_API_TOKEN,
    logLevel: e.LOG_LEVEL,
    logBufferBytes: e.LOG_BUFFER_KB * 1024,
    trustProxy: e.TRUST_PROXY === '1',
    metrics: { token: e.METRICS_TOKEN, port: e.METRICS_PORT, host: e.METRICS_HOST },
    clientDir: e.CLIENT_DIR,
    mailWebhookSecret: e.MAIL_WEBHOOK_SECRET,
    billing: {
      leadDays: e.BILLING_LEAD_DAYS,
      reminderDays: e.BILLING_REMINDER_DAYS.split(',').map((d) => Number(d.trim())),
      debtCollectionDays: e.BILLING_DEBT_COLLECTION_DAYS,
    },
    claimLeaseMs: e.CLAIM_LEASE_SECONDS * 1000,
    storageQuotaBytes: e.STORAGE_QUOTA_MB * 1024 * 1024,
    vapid: vapidOf(e.VAPID_PUBLIC_KEY, e.VAPID_PRIVATE_KEY),
    vapidSubject: e.VAPID_SUBJECT ?? `mailto:${e.CONTACT_EMAIL}`,
    pushServiceHosts: e.PUSH_SERVICE_HOSTS,
  }
}

/** Both VAPID keys or neither: one alone is a mistake that must not pass as "make a pair". */
function vapidOf(publicKey: string | undefined, privateKey: string | undefined): Config['vapid'] {
  if (!publicKey && !privateKey) return undefined
  if (!publicKey || !privateKey) throw new Error('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are set together, or neither')
  return { publicKey, privateKey }
}
