/**
 * Live streams across instances on PostgreSQL (decision 0086): two apps on one database, each
 * with its own pool and its own LISTEN connection, as two servers behind a load balancer. A write
 * on one wakes the stream a user holds on the other within the NOTIFY sent at COMMIT; after the
 * LISTEN connection is killed, the instance connects again and still tells the next write.
 * Skipped without PostgreSQL's binaries unless REQUIRE_POSTGRES=1 (CI).
 */
import pino from 'pino'
import { v7 } from 'uuid'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../app'
import type { Database_ } from '../../db/client'
import { openPostgres } from '../../db/postgres'
import { demo } from '../../test/harness'
import { seedDemoData } from '../../db/seed'
import { parseConfig } from '../../env'
import { systemClock } from '../../lib/clock'
import { createSecretBox } from '../../lib/secret-box'
import { onServer, postgresBinDir, startPgCluster, type PgCluster } from '../../test/pg-cluster'
import { TEST_SECRET_KEY } from '../../test/template-db'
import { authRepository } from '../auth/auth.repository'
import { openStream, type Stream } from './test-helpers'

const required = process.env.REQUIRE_POSTGRES === '1'

describe.skipIf(!postgresBinDir() && !required)('live streams on two instances on PostgreSQL', () => {
  let cluster: PgCluster
  let url: string
  const databases: Database_[] = []
  const apps: ReturnType<typeof createApp>[] = []
  const streams: Stream[] = []

  beforeAll(async () => {
    cluster = await startPgCluster()
    url = await cluster.createDatabase('live')
    for (let i = 0; i < 2; i++) databases.push(await openPostgres(url, { max: 4 }))
    await seedDemoData(databases[0]!.db, systemClock, createSecretBox(TEST_SECRET_KEY), { demoAgreements: false })
    for (const database of databases) {
      const config = parseConfig({ APP_ENV: 'test', DATABASE_URL: url, PUBLIC_URL: 'http://localhost:3000', APP_SECRET_KEY: TEST_SECRET_KEY })
      apps.push(createApp({ config, database, clock: systemClock, log: pino({ level: 'silent' }) }))
    }
  }, 120_000)

  afterAll(async () => {
    for (const s of streams) await s.cancel()
    for (const app of apps) await app.services.live.stop()
    for (const database of databases) await database.close()
    await cluster?.stop()
  })

  const [a, b] = [0, 1]
  const login = async (instance: number, email: string) => {
    const { db } = databases[instance]!
    const method = (await authRepository.verifiedMethod(db, 'EMAIL_PASSWORD', email))!
    return (await apps[instance]!.services.auth.startSession(method.userId, 'password')).accessToken
  }
  const call = async (instance: number, method: string, path: string, token: string, body?: unknown) => {
    const res = await apps[instance]!.app.request(`/api${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'Idempotency-Key': v7() },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    return { status: res.status, json: (await res.json()) as any }
  }
  const stream = async (instance: number, token: string) => {
    const s = await openStream((path, init) => apps[instance]!.app.request(path, init), token)
    streams.push(s)
    return s
  }
  const addAddress = async (token: string, companyId: string, street: string) =>
    expect((await call(a, 'POST', `/company/${companyId}/addresses`, token, { street, number: '3', zip: '8000', city: 'Aarhus C' })).status).toBe(201)

  it('a write on one instance wakes the stream on the other; after its LISTEN connection is killed, it listens again', async () => {
    const admin = await login(a, demo.admin)
    const board = await login(b, demo.boardmember)
    const other = await login(b, demo.otherAdmin)
    const main = (await call(a, 'GET', '/account/info', admin)).json.companies[0].id as string
    const onB = await stream(b, board)
    const otherOnB = await stream(b, other)
    await expect.poll(() => onB.named('ready').length + otherOnB.named('ready').length).toBe(2)

    await addAddress(admin, main, 'Vestergade')
    await expect.poll(() => onB.named('changed').length).toBe(1)
    expect(onB.named('changed')[0]!.data).toBe('{}')

    // The LISTEN connection of instance B breaks (a failover, an idle timeout): it connects again.
    // Instance A has no stream open, so it does not listen (the feed runs while a stream is open).
    const listeners = async () =>
      (await onServer(url, (c) => c.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE application_name = 'boligkasse-live'"))).rows.map(
        (r) => r.pid,
      )
    const before = await listeners()
    expect(before).toHaveLength(1)
    await onServer(url, (c) => c.query('SELECT pg_terminate_backend($1)', [before[0]]))
    await expect.poll(async () => (await listeners()).filter((pid) => pid !== before[0])).toHaveLength(1)
    await addAddress(admin, main, 'Østergade')
    await expect.poll(() => onB.named('changed').length).toBeGreaterThanOrEqual(2)
    // Another association's administrator was told nothing of Solgården's addresses.
    expect(otherOnB.named('changed')).toHaveLength(0)
  })
})
