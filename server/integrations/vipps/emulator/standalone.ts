import { serve } from '@hono/node-server'
import pino from 'pino'
import { systemClock } from '../../../lib/clock'
import { createVippsEmulator } from './emulator.app'
import { subjectForPhone } from './emulator.ids'

/**
 * The emulator on its own port, for client tests and demos without the product:
 *   node --import tsx server/integrations/vipps/emulator/standalone.ts
 * PORT (default 3900); VIPPS_EMULATOR_BASE_URL (default http://localhost:PORT, what browsers and
 * the client use); VIPPS_EMULATOR_STATE (a JSON file to keep state across restarts; none by
 * default); LOG_LEVEL. Point the product at it with VIPPS_BASE_URL=http://localhost:3900.
 */
const port = Number(process.env.PORT ?? 3900)
const baseUrl = process.env.VIPPS_EMULATOR_BASE_URL ?? `http://localhost:${port}`
// pino directly: server/logger.ts's createLogger needs a system-log sink the emulator does not have.
const log = pino({ level: process.env.LOG_LEVEL ?? 'info', base: undefined })

const demoUsers = [
  { phoneNumber: '4512345678', name: 'Mette Hansen', email: 'mette.hansen@example.dk' },
  { phoneNumber: '4523456789', name: 'Lars Nielsen', email: 'lars.nielsen@example.dk' },
  { phoneNumber: '4534567890', name: 'Sofie Jensen', email: 'sofie.jensen@example.dk' },
].map((u) => ({ ...u, sub: subjectForPhone(u.phoneNumber) }))

const emulator = createVippsEmulator({
  clock: systemClock,
  baseUrl,
  persistPath: process.env.VIPPS_EMULATOR_STATE || undefined,
  loginUsers: demoUsers,
  tickMs: 2000,
  log,
})

const server = serve({ fetch: emulator.app.fetch, port }, () => {
  log.info({ port, baseUrl }, 'Vipps MobilePay emulator listening')
})

const shutdown = () => {
  emulator.stop()
  server.close(() => process.exit(0))
  setTimeout(() => process.exit(0), 2000).unref()
}
process.on('SIGINT', shutdown)
process.on('SIGTERM', shutdown)
