import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { invoiceLines, invoices } from '../../db/schema/invoices'
import { notifications } from '../../db/schema/notifications'
import { newId } from '../../lib/ids'
import { testApp } from '../../test/harness'
import { memberWithDataEverywhere } from './test-helpers'

/** At real size (decision 0069): a member with 5,000 notifications and 500 invoices downloads their data. */
describe('the personal-data download at size', () => {
  it('answers 5,000 notifications and 500 invoices in a few set-based reads, in JSON and HTML', async () => {
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

    // Reads are counted on the connection (SQLite): a query per row would be thousands. How long
    // the download takes at this size is a figure of `npm run bench` (bench/sizes.ts), not a bound here.
    const sqlite = (t.db as unknown as { $client?: { prepare: (s: string) => unknown } }).$client
    const counted = async (path: string, headers: Record<string, string> = {}) => {
      let statements = 0
      const prepare = sqlite?.prepare.bind(sqlite)
      if (sqlite && prepare)
        sqlite.prepare = (s: string) => {
          statements++
          return prepare(s)
        }
      try {
        const res = await t.app.request(path, { headers: { Authorization: `Bearer ${m.member}`, ...headers } })
        return { res, statements }
      } finally {
        if (sqlite && prepare) sqlite.prepare = prepare
      }
    }
    const json = await counted('/api/account/personal-data')
    expect(json.res.status).toBe(200)
    const data = await json.res.json()
    expect(data.notifications.length).toBeGreaterThanOrEqual(5000)
    expect(data.invoices.length).toBeGreaterThanOrEqual(500)
    expect(data.invoiceLines.length).toBeGreaterThanOrEqual(500)
    if (sqlite) expect(json.statements).toBeLessThan(100)

    const html = await counted('/api/account/personal-data.html', { 'Accept-Language': 'da' })
    expect(html.res.status).toBe(200)
    expect((await html.res.text()).length).toBeGreaterThan(100_000)
    if (sqlite) expect(html.statements).toBeLessThan(100)
  })
})
