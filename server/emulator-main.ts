import { resolve } from 'node:path'
import { serve } from '@hono/node-server'
import pino from 'pino'
import { z } from 'zod'
import { systemClock } from './lib/clock'
import { createVippsEmulator } from './integrations/vipps/emulator/emulator.app'

/**
 * `npm run emulator`: the Vipps MobilePay emulator alone, for several product instances that all
 * point at it with VIPPS_BASE_URL (docs/decisions/0055), or for client work without the product.
 * It calls the product only at the URLs the product gave it (registered webhooks, the agreement's
 * merchantRedirectUrl), as Vipps does. SIGTERM/SIGINT stop its timers and write its state.
 */
const Env = z.object({
  EMULATOR_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /** What browsers and the product use to reach it (behind a proxy or another host name). */
  EMULATOR_PUBLIC_URL: z.url().optional(),
  /** The JSON state file; the built-in emulator's file with the default DATABASE_PATH. */
  EMULATOR_STATE_PATH: z.string().min(1).default('./data/vipps-emulator.json'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
})

const env = Env.parse(process.env)
const port = env.EMULATOR_PORT ?? env.PORT ?? 3900
const baseUrl = (env.EMULATOR_PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, '')
const statePath = resolve(env.EMULATOR_STATE_PATH)
// pino directly: server/logger.ts's createLogger needs a system-log sink the emulator does not have.
const log = pino({ level: env.LOG_LEVEL, base: undefined })

const emulator = createVippsEmulator({ clock: systemClock, baseUrl, persistPath: statePath, tickMs: 2000, log })

const server = serve({ fetch: emulator.app.fetch, port }, (info) => {
  log.info({ port: info.port, baseUrl, statePath }, 'Vipps MobilePay emulator listening')
  process.stdout.write(`Vipps MobilePay emulator listening on ${baseUrl} (port ${info.port}); state in ${statePath}\n`)
})

let stopping = false
const shutdown = () => {
  if (stopping) return
  stopping = true
  emulator.stop()
  // Written now, whatever the server's close does: the state is what the product's database points at.
  const write = () => {
    try {
      emulator.state.changed()
      emulator.state.flush()
    } catch (err) {
      log.error({ err }, 'Vipps emulator could not write its state')
    }
  }
  write()
  server.close(() => {
    write()
    process.exit(0)
  })
  setTimeout(() => {
    write()
    process.exit(0)
  }, 2000).unref()
}
process.on('SIGINT', shutdown)
process.on('SIGTERM', shutdown)
