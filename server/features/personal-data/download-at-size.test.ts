import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { invoiceLines, invoices } from '../../db/schema/invoices'
import { notifications } from '../../db/schema/notifications'
import { newId } from '../../lib/ids'
import { testApp } from '../../test/harness'
import { memberWithDataEverywhere } from './test-helpers'

/** At real size (decision 0069): a member with 5,000 notifications and 500 invoices downloads their data. */
describe('the personal-data download at size', () => {
  it('answers 5,000 notifications and 500 invoices in a few set-based reads, quickly, in JSON and HTML', async () => {
    const t = await testApp()
    const m = await memberWithDataEverywhere(t)
    const [notice] = await t.db.select().from(notifications).where(eq(notifications.userId, m.userId)).limit(1).all()
    const [invoice] = await t.db.select().from(invoices).where(eq(invoices.memberUserId, m.userId)).limit(1).all()
    const [line] = await t.db.select().from(invoiceLines).where(eq(invoiceLines.invoiceId, invoice!.id)).limit(1).all()
    const manyNotices = Array.from({ length: 5000 }, () => ({ ...notice!, id: newId() }))
    for (let i = 0; i < manyNotices.length; i += 200)
      await t.db
        .insert(notifications)
        .values(manyNotices.slice(i, i + 200))
        .run()
    const manyInvoices = Array.from({ length: 500 }, (_, i) => ({ ...invoice!, id: newId(), number: 900_000 + i }))
    for (let i = 0; i < manyInvoices.length; i += 100)
      await t.db
        .insert(invoices)
        .values(manyInvoices.slice(i, i + 100))
        .run()
    const lines = manyInvoices.map((inv) => ({ ...line!, invoiceId: inv.id, ...('id' in line! ? { id: newId() } : {}) }))
    for (let i = 0; i < lines.length; i += 100)
      await t.db
        .insert(invoiceLines)
        .values(lines.slice(i, i + 100))
        .run()

    // Reads are counted on the connection: a query per row would be thousands.
    const sqlite = (t.db as unknown as { $client?: { prepare: (s: string) => unknown } }).$client
    let statements = 0
    const prepare = sqlite?.prepare.bind(sqlite)
    if (sqlite && prepare)
      sqlite.prepare = (s: string) => {
        statements++
        return prepare(s)
      }
    const started = performance.now()
    const res = await t.app.request('/api/account/personal-data', { headers: { Authorization: `Bearer ${m.member}` } })
    const ms = performance.now() - started
    if (sqlite && prepare) sqlite.prepare = prepare
    expect(res.status).toBe(200)
    const data = await res.json()
    expect(data.notifications.length).toBeGreaterThanOrEqual(5000)
    expect(data.invoices.length).toBeGreaterThanOrEqual(500)
    expect(data.invoiceLines.length).toBeGreaterThanOrEqual(500)
    console.info(`personal-data JSON at size: ${Math.round(ms)} ms, ${statements} statements`)
    if (sqlite) expect(statements).toBeLessThan(100)
    expect(ms).toBeLessThan(3000)

    const htmlStarted = performance.now()
    const html = await t.app.request('/api/account/personal-data.html', { headers: { Authorization: `Bearer ${m.member}`, 'Accept-Language': 'da' } })
    const htmlMs = performance.now() - htmlStarted
    expect(html.status).toBe(200)
    expect((await html.text()).length).toBeGreaterThan(100_000)
    console.info(`personal-data HTML at size: ${Math.round(htmlMs)} ms`)
    expect(htmlMs).toBeLessThan(3000)
  })
})
