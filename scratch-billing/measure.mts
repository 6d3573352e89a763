// node --import tsx scratch-billing/measure.mts <root> <db>: CPU and wall time of the first billing run (bench/billing.ts's measure, with CPU time).
import pino from 'pino'
const [root, path] = process.argv.slice(2)
const { openDatabase } = await import(`${root}/server/db/client.ts`)
const { createApp } = await import(`${root}/server/app.ts`)
const { parseConfig } = await import(`${root}/server/env.ts`)
const { TestClock } = await import(`${root}/server/lib/clock.ts`)
const database = openDatabase(path)
const clock = new TestClock('2026-11-28T09:00:00.000Z')
const config = parseConfig({ APP_ENV: 'test', DATABASE_PATH: path, APP_SECRET_KEY: 'bench', PUBLIC_URL: 'http://localhost:3000' })
const { services } = createApp({ config, database, clock, log: pino({ level: 'silent' }) })
const c0 = process.cpuUsage()
const t0 = performance.now()
const first = await services.billing.run()
const wall = performance.now() - t0
const cpu = process.cpuUsage(c0)
console.log(JSON.stringify({ charges: first.charges, wallMs: Math.round(wall), userMs: Math.round(cpu.user / 1000), sysMs: Math.round(cpu.system / 1000) }))
database.close()
