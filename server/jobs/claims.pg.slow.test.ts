/**
 * Jobs run on one instance at a time on PostgreSQL (docs/decisions/0058-postgresql-writes-change-log-and-jobs.md): `alone` (server/db/client.ts) on
 * two instances' pools lets one run a job while the other skips its turn, and an instance that
 * dies while running it (its connection gone) leaves the job free for the other. Skipped without
 * PostgreSQL's binaries unless REQUIRE_POSTGRES=1 (CI).
 */
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { alone, type Database_ } from '../db/client'
import { JOB_LOCKS } from '../db/pg-executor'
import { openPostgres } from '../db/postgres'
import { postgresBinDir, startPgCluster, type PgCluster } from '../test/pg-cluster'

const required = process.env.REQUIRE_POSTGRES === '1'

describe.skipIf(!postgresBinDir() && !required)('jobs claimed on PostgreSQL', () => {
  let cluster: PgCluster
  let url: string
  let a: Database_
  let b: Database_
  beforeAll(async () => {
    cluster = await startPgCluster()
    url = await cluster.createDatabase('claims')
    ;[a, b] = await Promise.all([openPostgres(url, { max: 4 }), openPostgres(url, { max: 4 })])
  }, 60_000)
  afterAll(async () => {
    await a?.close()
    await b?.close()
    await cluster?.stop()
  })

  it('runs a job on one instance at a time; the other skips its turn, and runs it once it is free', async () => {
    let running = 0
    let most = 0
    const runs: string[] = []
    // A job runs until the other instance's turn has been decided (or both are running, a failure),
    // so the two turns overlap however slowly either starts.
    let free!: () => void
    const turnDecided = new Promise<void>((resolve) => (free = resolve))
    const job = (who: string) => async () => {
      running++
      most = Math.max(most, running)
      runs.push(who)
      if (running > 1) free()
      await turnDecided
      running--
    }
    const both = [alone(a.db, 'job:billing', job('a')), alone(b.db, 'job:billing', job('b'))]
    void Promise.race(both).then(free, free)
    const turns = await Promise.all(both)
    expect(turns.filter(Boolean)).toHaveLength(1)
    expect(most).toBe(1)
    // Another job's name is not held by the first.
    expect(await Promise.all([alone(a.db, 'job:billing', job('a')), alone(b.db, 'job:mail', job('b'))])).toEqual([true, true])
    // Free again afterwards, for either.
    expect(await alone(b.db, 'job:billing', job('b'))).toBe(true)
    expect(runs).toHaveLength(4)
  })

  it('frees the job when the instance running it dies (its connection closes)', async () => {
    // A third "instance" takes the job's lock on its own connection and dies holding it.
    const dying = new pg.Client({ connectionString: url })
    await dying.connect()
    dying.on('error', () => undefined) // its end is the point
    await dying.query(`SELECT pg_advisory_lock(${JOB_LOCKS}, hashtext('job:webhooks'))`)
    let ran = 0
    expect(await alone(a.db, 'job:webhooks', async () => void ran++)).toBe(false)
    // kill -9 of the process: the server sees the connection end and releases its locks.
    ;(dying as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy()
    const until = Date.now() + 10_000
    while (!(await alone(a.db, 'job:webhooks', async () => void ran++)) && Date.now() < until) await new Promise((r) => setTimeout(r, 50))
    expect(ran).toBe(1)
  })
})
