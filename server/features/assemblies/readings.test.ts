import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { demo, testApp } from '../../test/harness'
import { sendouts } from '../../db/schema/assemblies'
import { companies } from '../../db/schema/companies'
import { assemblyFixtures, residentEn, tickAt } from './test-helpers'
import { READING_CHECK_MS } from './assemblies.service'

const later = (iso: string, ms: number) => new Date(new Date(iso).getTime() + ms).toISOString()

describe('water and heat reading reminders', () => {
  it('go out at 08:00 on the first and the last day of the heating-and-water period, once a year, to every member in their language', async () => {
    const t = await testApp()
    const f = await assemblyFixtures(t)
    const rows = () => t.db.select().from(sendouts).where(eq(sendouts.companyId, f.main)).orderBy(sendouts.key).all()

    // 23 November 2026; the demo company's period runs 01.06–31.05. Havnehuset has none: nothing for it.
    expect((await tickAt(t, '2026-11-23T09:00:00.000Z')).readings).toBe(2)
    expect((await rows()).map((r) => [r.kind, r.key, r.dueAt, r.sentAt])).toEqual([
      ['READING_END', 'reading:end:2027', '2027-05-31T06:00:00.000Z', null],
      ['READING_START', 'reading:start:2027', '2027-06-01T06:00:00.000Z', null],
    ])
    expect(await t.db.select().from(sendouts).where(eq(sendouts.companyId, f.second)).all()).toEqual([])
    // Again later: still one of each (the key names the year).
    await tickAt(t, later('2026-11-23T09:00:00.000Z', READING_CHECK_MS))
    expect(await rows()).toHaveLength(2)

    const mails = (await t.mails()).length
    expect((await tickAt(t, '2027-05-31T06:00:01.000Z')).sent).toBe(1)
    const sent = (await t.mails()).slice(mails)
    expect(sent).toHaveLength(7)
    const da = sent.find((m) => m.to === demo.residentDa)!
    expect(da.subject).toBe('Husk aflæsning af vand- og varmemålere')
    expect(da.text).toContain('Varme- og vandperioden i Andelsboligforeningen Solgården slutter i dag. Aflæs venligst dine vand- og varmemålere.')
    const en = sent.find((m) => m.to === residentEn)!
    expect(en.subject).toBe('Please read your water and heat meters')
    expect(en.text).toContain('The heating and water period of Andelsboligforeningen Solgården ends today.')
    expect(en.text).toContain('http://localhost:3000/')

    // The next turn (a while later) plans next year's end reminder; this year's went out once.
    await tickAt(t, later('2027-05-31T06:00:01.000Z', READING_CHECK_MS))
    expect((await rows()).map((r) => [r.key, r.sentAt !== null, r.recipients])).toEqual([
      ['reading:end:2027', true, 7],
      ['reading:end:2028', false, null],
      ['reading:start:2027', false, null],
    ])
  })

  it('follow a moved day, and are dropped when the company is no longer active', async () => {
    const t = await testApp()
    const f = await assemblyFixtures(t)
    await tickAt(t, '2026-11-23T09:00:00.000Z')
    const admin = await t.login(demo.admin)
    expect((await t.call('PATCH', `/company/${f.main}/field/heatingWaterPeriodStartDate`, { token: admin, body: { value: '15.06' } })).status).toBe(200)
    await tickAt(t, later('2026-11-23T09:00:00.000Z', READING_CHECK_MS))
    const start = await t.db.select().from(sendouts).where(eq(sendouts.key, 'reading:start:2027')).get()
    expect(start!.dueAt).toBe('2027-06-15T06:00:00.000Z')

    // Suspended before the end of the period: nothing goes out, the reminder is removed.
    await t.db.update(companies).set({ status: 'SUSPENDED' }).where(eq(companies.id, f.main)).run()
    const mails = (await t.mails()).length
    expect((await tickAt(t, '2027-05-31T06:00:01.000Z')).sent).toBe(0)
    expect((await t.mails()).length).toBe(mails)
    expect(await t.db.select().from(sendouts).where(eq(sendouts.key, 'reading:end:2027')).get()).toBeUndefined()
  })
})
