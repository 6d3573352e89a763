/**
 * `npm run billing`: one billing run for operations (docs/decisions/0029-billing-engine.md), against the configured database (DATABASE_URL or DATABASE_PATH): creates
 * the due regular charges with their invoices and provider-outbox rows, takes the overdue steps,
 * prints what it did and exits. Safe beside a running server (SQLite serializes the writers and
 * the unique (agreement, due) index stops a second charge); the server's job sends the outbox.
 */
import { parseConfig } from './env'
import { transaction } from './db/client'
import { openConfiguredDatabase } from './db/open'
import { systemClock } from './lib/clock'
import { createLogger } from './logger'
import { createApp } from './app'
import { secretKey } from './lib/secret-key'

async function main() {
  const config = parseConfig(process.env)
  config.appSecretKey = secretKey(config)
  const database = await openConfiguredDatabase(config)
  const log = createLogger(config.logLevel)
  const { services, lock } = createApp({ config, database, clock: systemClock, log })
  const started = performance.now()
  const result = await services.billing.run()
  const steps = await lock.run(() => transaction(database.db, async () => services.billing.overdueSteps()))
  const ms = Math.round(performance.now() - started)
  process.stdout.write(`billing: ${result.charges} charges for ${result.agreements} agreements, ${steps} overdue steps, ${ms} ms\n`)
  await database.close()
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
