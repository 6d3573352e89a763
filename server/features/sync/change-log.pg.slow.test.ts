/**
 * The sync cursor never skips a change on PostgreSQL (decision 0058): with concurrent
 * transactions, commit order is not seq order, so a puller that read seq 105 before 104 committed
 * would never see 104. Eight writers on two instances (two pools, as two servers would have) log
 * changes in transactions of varied length while a puller reads `seq > cursor` throughout, in
 * snapshots as GET /api/sync does; afterwards the puller has seen every change exactly once.
 * Skipped without PostgreSQL's binaries unless REQUIRE_POSTGRES=1 (CI).
 */
import { and, asc, gt, max } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { snapshot, transaction, type Db } from '../../db/client'
import { openPostgres } from '../../db/postgres'
import { changeLog } from '../../db/schema/sync'
import { postgresBinDir, startPgCluster, type PgCluster } from '../../test/pg-cluster'
import { writeChange } from './change-log'
import type { Database_ } from '../../db/client'

const required = process.env.REQUIRE_POSTGRES === '1'
const WRITERS = 8
const TRANSACTIONS = 40

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe.skipIf(!postgresBinDir() && !required)('the change log on PostgreSQL', () => {
  let cluster: PgCluster
  let instances: Database_[]
  beforeAll(async () => {
    cluster = await startPgCluster()
    const url = await cluster.createDatabase('changes')
    // Two instances starting together: the migrations run once, under the advisory lock.
    instances = await Promise.all([openPostgres(url, { max: 6 }), openPostgres(url, { max: 6 })])
  }, 60_000)
  afterAll(async () => {
    for (const instance of instances ?? []) await instance.close()
    await cluster?.stop()
  })

  it('gives a puller every change exactly once while 8 writers on 2 instances commit out of seq order', async () => {
    const seen: string[] = []
    let cursor = 0
    let writing = true
    const pull = async (db: Db) => {
      const rows = await snapshot(db, async () =>
        db
          .select({ seq: changeLog.seq, id: changeLog.entityId })
          .from(changeLog)
          .where(and(gt(changeLog.seq, cursor)))
          .orderBy(asc(changeLog.seq))
          .limit(50)
          .all(),
      )
      for (const row of rows) seen.push(row.id)
      if (rows.length) cursor = rows[rows.length - 1]!.seq
      return rows.length
    }
    const puller = (async () => {
      let polls = 0
      while (writing) {
        await pull(instances[polls++ % 2]!.db)
        await pause(1)
      }
      // Drain what committed after the last poll.
      while ((await pull(instances[0]!.db)) > 0);
      return polls
    })()

    const writer = async (w: number) => {
      const { db } = instances[w % 2]!
      for (let n = 0; n < TRANSACTIONS; n++) {
        await transaction(db, async () => {
          // Some log several changes, and some stay open long after logging: their rows are
          // written at the end, in commit order (decision 0058).
          for (let k = 0; k <= n % 3; k++) await writeChange(db, 'agreement', `w${w}-t${n}-c${k}`, 'upsert', { companyId: 'c' }, new Date().toISOString())
          await pause((w * 7 + n * 13) % 11)
        })
        // A rolled-back transaction logs nothing.
        if (n % 10 === 0)
          await transaction(db, async () => {
            await writeChange(db, 'agreement', `w${w}-t${n}-rolled-back`, 'upsert', { companyId: 'c' }, new Date().toISOString())
            throw new Error('undo')
          }).catch(() => undefined)
      }
    }
    await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)))
    writing = false
    const polls = await puller

    const expected = Array.from({ length: WRITERS }, (_, w) =>
      Array.from({ length: TRANSACTIONS }, (_, n) => Array.from({ length: (n % 3) + 1 }, (_, k) => `w${w}-t${n}-c${k}`)),
    ).flat(2)
    expect(seen.length).toBe(expected.length)
    expect(new Set(seen).size).toBe(seen.length)
    expect([...seen].sort()).toEqual([...expected].sort())
    // Not vacuous: the puller read while the writers wrote, and seqs are one per change.
    expect(polls).toBeGreaterThan(20)
    const head = await instances[0]!.db
      .select({ seq: max(changeLog.seq) })
      .from(changeLog)
      .get()
    expect(head?.seq).toBe(expected.length)
  }, 120_000)
})
