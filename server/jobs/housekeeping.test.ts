import { describe, expect, it } from 'vitest'
import { demo, testApp } from '../test/harness'
import { idempotencyKeys } from '../db/schema/platform'
import { changeLog } from '../db/schema/sync'
import { housekeepingJob } from './housekeeping'

describe('housekeeping job', () => {
  it('removes idempotency keys after 35 days and change-log entries after 30', async () => {
    const t = await testApp()
    const token = await t.login(demo.admin)
    await t.call('PATCH', '/notifications/read-all', { token, headers: { 'Idempotency-Key': 'old' } })
    expect(await t.db.select().from(idempotencyKeys).all()).toHaveLength(1)
    const job = housekeepingJob(t.db, t.clock)
    await job.run()
    expect(await t.db.select().from(idempotencyKeys).all()).toHaveLength(1)
    t.clock.advance(36 * 24 * 3600 * 1000)
    await job.run()
    expect(await t.db.select().from(idempotencyKeys).all()).toHaveLength(0)
    expect(await t.db.select().from(changeLog).all()).toHaveLength(0)
  })
})
