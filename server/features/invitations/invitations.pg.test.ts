/**
 * Two instances sending invitations at once on PostgreSQL (docs/decisions/0091): each instance's
 * `invitations` job on its own pool, their transactions truly concurrent (no write lock between
 * them), claims each row for one of them only, and two planners plan a reminder round once. Runs
 * with `npm run test:pg`; on SQLite (one writer under the write lock) there is nothing to race.
 */
import { describe, expect, it } from 'vitest'
import { v7 } from 'uuid'
import { openPostgres } from '../../db/postgres'
import type { Database_ } from '../../db/client'
import { invitationSends } from '../../db/schema/invitations'
import { demo, testApp } from '../../test/harness'
import { onPostgres } from '../../test/template-db'
import { companyIds } from '../companies/test-helpers'
import { createInvitationsService } from './invitations.service'
import { mailsTo, residents } from './test-helpers'

const DAY = 24 * 60 * 60 * 1000

describe.skipIf(!onPostgres)('invitations on two instances (PostgreSQL)', () => {
  it('sends each person one mail while two instances send at once, and plans each reminder round once', async () => {
    const t = await testApp()
    const { main } = await companyIds(t)
    const people = await residents(t, 40)
    const res = await t.call('POST', `/companies/${main}/invitations`, { token: await t.login(demo.admin), headers: { 'Idempotency-Key': v7() } })
    expect(res.json).toEqual({ queued: 40, alreadyInvited: 0 })
    const url = (t.database as Database_ & { url: string }).url
    const other = await openPostgres(url, { max: 4, migrate: false })
    try {
      // The links are not what is raced here: each instance writes its own, on its own connection.
      const links = { invitationLinks: async (ps: readonly { id: string }[]) => new Map(ps.map((p) => [p.id, 'http://localhost:3000/reset-password?token=t'])) }
      const make = (db: Database_['db']) =>
        createInvitationsService({ db, clock: t.clock, publicUrl: 'http://localhost:3000', auth: links, webhookSecret: undefined, batch: { size: 15 } })
      const a = make(t.db)
      const b = make(other.db)
      const claimed = await Promise.all([a.deliverBatch(), b.deliverBatch(), a.deliverBatch(), b.deliverBatch()])
      while ((await a.deliverBatch()) + (await b.deliverBatch()) > 0);
      expect(claimed.reduce((x, y) => x + y, 0)).toBeLessThanOrEqual(40)
      for (const p of people) expect(await mailsTo(t, p.email, 'invites you'), p.email).toHaveLength(1)

      t.clock.advance(7 * DAY + 1000)
      await Promise.all([a.planReminders(), b.planReminders(), a.planReminders()])
      const rounds = (await t.db.select().from(invitationSends).all()).filter((s) => s.round === 1)
      expect(rounds).toHaveLength(40)
      await Promise.all([a.deliverBatch(), b.deliverBatch()])
      while ((await a.deliverBatch()) + (await b.deliverBatch()) > 0);
      for (const p of people) expect(await mailsTo(t, p.email, 'Reminder:'), p.email).toHaveLength(1)
    } finally {
      await other.close()
    }
  }, 120_000)
})
