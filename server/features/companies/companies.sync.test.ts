import { describe, expect, it } from 'vitest'
import { demo, testApp, type TestApp } from '../../test/harness'
import { DEMO_VIPPS } from '../../db/seed'
import { companyIds } from './test-helpers'

type Change = { entity: string; id: string; op: string; version?: number; data?: Record<string, unknown> }

async function pullAll(t: TestApp, token: string, cursor?: string) {
  const changes: Change[] = []
  let reset = false
  for (;;) {
    const res = await t.call('GET', `/sync?limit=50${cursor ? `&cursor=${cursor}` : ''}`, { token })
    expect(res.status).toBe(200)
    changes.push(...res.json.changes)
    reset ||= res.json.reset
    cursor = res.json.cursor
    if (!res.json.hasMore) return { changes, cursor: cursor!, reset }
  }
}
const of = (changes: Change[], entity: string) => changes.filter((c) => c.entity === entity)

describe('sync of companies, members, addresses and providers', () => {
  it('sends staff their company with members, addresses and the provider, and nothing of other companies', async () => {
    const t = await testApp()
    const { main } = await companyIds(t)
    const snap = await pullAll(t, await t.login(demo.boardmember))
    expect(of(snap.changes, 'company').map((c) => c.id)).toEqual([main])
    expect(of(snap.changes, 'company')[0]).toMatchObject({ version: 1, data: { name: 'Andelsboligforeningen Solgården', membersCount: 4 } })
    expect(of(snap.changes, 'member')).toHaveLength(4)
    expect(of(snap.changes, 'address')).toHaveLength(20)
    expect(of(snap.changes, 'paymentProvider')).toHaveLength(1)
    expect(snap.changes.filter((c) => c.data && 'companyId' in c.data).every((c) => c.data!.companyId === main)).toBe(true)
    const sa = await pullAll(t, await t.login(demo.superadmin))
    expect(of(sa.changes, 'company')).toHaveLength(2)
    const resident = await pullAll(t, await t.login(demo.resident))
    expect(resident.changes.filter((c) => c.entity !== 'notification')).toEqual([])
  })

  it('sends changes made through the API: a company edit, a new address, a deleted address, a new member', async () => {
    const t = await testApp()
    const { main } = await companyIds(t)
    const admin = await t.login(demo.admin)
    const board = await t.login(demo.boardmember)
    const start = await pullAll(t, board)
    await t.call('PATCH', `/company/${main}/field/heatingWaterPeriodStartDate`, { token: board, body: { value: '15.03' } })
    const added = (
      await t.call('POST', `/company/${main}/addresses`, { token: admin, body: { street: 'Vestergade', number: '3', zip: '8000', city: 'Aarhus C' } })
    ).json
    const gone = (await t.call('GET', `/company/${main}/addresses`, { token: admin })).json[0].id
    await t.call('DELETE', `/company/${main}/addresses/${gone}`, { token: admin })
    const member = (
      await t.call('POST', `/company/${main}/member`, { token: admin, body: { user: { name: 'Ny', email: 'ny@example.dk' }, role: 'ACCOUNTANT' } })
    ).json
    const next = await pullAll(t, board, start.cursor)
    expect(next.reset).toBe(false)
    expect(of(next.changes, 'company')).toMatchObject([{ id: main, op: 'upsert', version: 2, data: { heatingWaterPeriodStartDate: '15.03', membersCount: 5 } }])
    expect(of(next.changes, 'address')).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: added.id, op: 'upsert' }), { entity: 'address', id: gone, op: 'delete' }]),
    )
    expect(of(next.changes, 'member')).toMatchObject([{ id: member.id, op: 'upsert', data: { email: 'ny@example.dk', role: 'ACCOUNTANT' } }])
  })

  it('sends a member whose role changed, with the new version', async () => {
    const t = await testApp()
    const { main } = await companyIds(t)
    const admin = await t.login(demo.admin)
    const chairman = await t.login(demo.chairman)
    const start = await pullAll(t, chairman)
    const member = of(start.changes, 'member').find((c) => c.data!.role === 'BOARDMEMBER')!
    expect(member.version).toBe(1)
    expect((await t.call('PATCH', `/company/${main}/member/${member.id}`, { token: admin, body: { role: 'ACCOUNTANT' } })).status).toBe(200)
    const next = await pullAll(t, chairman, start.cursor)
    expect(next.reset).toBe(false)
    expect(of(next.changes, 'member')).toMatchObject([{ id: member.id, op: 'upsert', version: 2, data: { role: 'ACCOUNTANT', version: 2 } }])
  })

  it("resets a removed member's next pull, which no longer holds the company's rows", async () => {
    const t = await testApp()
    const { main } = await companyIds(t)
    const admin = await t.login(demo.admin)
    const board = await t.login(demo.boardmember)
    const start = await pullAll(t, board)
    expect(of(start.changes, 'company')).toHaveLength(1)
    const members = (await t.call('GET', `/company/${main}/members`, { token: admin })).json as { id: string; role: string }[]
    await t.call('DELETE', `/company/${main}/member/${members.find((m) => m.role === 'BOARDMEMBER')!.id}`, { token: admin })
    const after = await pullAll(t, board, start.cursor)
    expect(after.reset).toBe(true)
    expect(after.changes.filter((c) => c.entity !== 'notification')).toEqual([])
    // The others keep pulling normally and see the member go.
    const adminNext = await pullAll(t, admin, (await pullAll(t, admin)).cursor)
    expect(adminNext.changes).toEqual([])
  })

  it('never puts provider secrets in the sync data, only the masked form', async () => {
    const t = await testApp()
    const { main, second } = await companyIds(t)
    const sa = await t.login(demo.superadmin)
    const start = await pullAll(t, sa)
    const created = await t.call('POST', `/company/${second}/payment-providers`, {
      token: sa,
      body: {
        config: {
          providerName: 'Havnehuset',
          merchantSerialNumber: '7',
          subscriptionKey: 'havnehuset-subscription-7777',
          clientId: 'h',
          clientSecret: 'havnehuset-client-secret-8888',
        },
      },
    })
    const provider = (await t.call('GET', `/company/${main}/payment-providers`, { token: sa })).json[0]
    await t.call('PATCH', `/company/${main}/payment-providers/${provider.id}/toggle-active`, { token: sa })
    const next = await pullAll(t, sa, start.cursor)
    const all = JSON.stringify([...start.changes, ...next.changes, ...(await pullAll(t, await t.login(demo.admin))).changes])
    for (const secret of [DEMO_VIPPS.clientSecret, DEMO_VIPPS.subscriptionKey, 'havnehuset-subscription-7777', 'havnehuset-client-secret-8888'])
      expect(all).not.toContain(secret)
    expect(
      of(next.changes, 'paymentProvider')
        .map((c) => c.id)
        .sort(),
    ).toEqual([created.json.id, provider.id].sort())
    expect(of(next.changes, 'paymentProvider').find((c) => c.id === created.json.id)!.data!.config).toMatchObject({
      clientSecret: '••••8888',
      subscriptionKey: '••••7777',
    })
  })
})
