import { eq } from 'drizzle-orm'
import pino from 'pino'
import { describe, expect, it } from 'vitest'
import { mailOutbox } from '../../db/schema/platform'
import { WriteLock } from '../../lib/write-lock'
import { testApp } from '../../test/harness'
import { DEFAULT_CLAIM_LEASE_MS } from '../../env'
import { claimMail, MailWorker, queueMail, settleMail, type MailTransport } from './mail-outbox'

async function setUp() {
  const t = await testApp()
  const sent: string[] = []
  const transport = { down: false } as { down: boolean }
  const send: MailTransport['send'] = async (mail) => {
    if (transport.down) throw new Error('SMTP 421 try later')
    sent.push(mail.subject)
  }
  const worker = new MailWorker({
    db: t.db,
    clock: t.clock,
    lock: new WriteLock(true),
    transport: { send },
    from: 'noreply@boligkasse.dk',
    log: pino({ level: 'silent' }),
  })
  const id = await queueMail(t.db, t.clock, { to: 'beboer01@solgaarden.dk', subject: 'Indkaldelse', text: 'Hej' })
  const row = async () => (await t.db.select().from(mailOutbox).where(eq(mailOutbox.id, id)).get())!
  return { t, worker, sent, transport, row }
}

describe('the mail worker', () => {
  it('sends a queued mail once, and after a failure tries it again a minute later', async () => {
    const { t, worker, sent, transport, row } = await setUp()
    transport.down = true
    expect(await worker.runOnce()).toBe(0)
    expect(await row()).toMatchObject({ status: 'queued', attempts: 1, lastError: 'Error: SMTP 421 try later' })
    expect(await worker.runOnce()).toBe(0)
    t.clock.advance(60_000)
    transport.down = false
    expect(await worker.runOnce()).toBe(1)
    expect(await worker.runOnce()).toBe(0)
    expect(sent).toEqual(['Indkaldelse'])
    expect(await row()).toMatchObject({ status: 'sent', attempts: 2, lastError: null })
  })

  it('leaves a mail another sender claimed to it until the lease runs out, then sends it; the late outcome does not count', async () => {
    const { t, worker, sent, row } = await setUp()
    const theirs = (await claimMail(t.db, await row(), new Date(t.clock.now().getTime() + DEFAULT_CLAIM_LEASE_MS).toISOString()))!
    expect(await claimMail(t.db, { ...(await row()), attempts: 0 }, t.clock.now().toISOString())).toBeUndefined()
    expect(await worker.runOnce()).toBe(0)
    expect(sent).toEqual([])
    t.clock.advance(DEFAULT_CLAIM_LEASE_MS)
    expect(await worker.runOnce()).toBe(1)
    expect(await settleMail(t.db, theirs, { status: 'failed', lastError: 'late' })).toBe(false)
    expect(await row()).toMatchObject({ status: 'sent', attempts: 2, lastError: null })
    expect(sent).toEqual(['Indkaldelse'])
  })

  it('stops after the mail it is sending: that one is sent and settled, the rest stays queued (docs/decisions/0078)', async () => {
    const t = await testApp()
    let release = () => {}
    const sent: string[] = []
    const worker = new MailWorker({
      db: t.db,
      clock: t.clock,
      lock: new WriteLock(true),
      transport: {
        send: (mail) =>
          new Promise<void>((resolve) => {
            sent.push(mail.subject)
            release = resolve
          }),
      },
      from: 'noreply@boligkasse.dk',
      log: pino({ level: 'silent' }),
    })
    const first = await queueMail(t.db, t.clock, { to: 'beboer01@solgaarden.dk', subject: 'first', text: 'Hej' })
    t.clock.advance(1)
    const second = await queueMail(t.db, t.clock, { to: 'beboer02@solgaarden.dk', subject: 'second', text: 'Hej' })
    const run = worker.runOnce()
    await expect.poll(() => sent).toEqual(['first'])
    const stopping = worker.stop()
    release()
    await stopping
    expect(await run).toBe(1)
    const status = async (id: string) => (await t.db.select().from(mailOutbox).where(eq(mailOutbox.id, id)).get())!
    expect(await status(first)).toMatchObject({ status: 'sent', attempts: 1 })
    expect(await status(second)).toMatchObject({ status: 'queued', attempts: 0 })
    expect(await worker.runOnce()).toBe(0)
    expect(sent).toEqual(['first'])
  })
})
