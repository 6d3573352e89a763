/**
 * A 412 through the outbox (docs/OFFLINE.md "Conflicts and refusals"): the drainer merges an offline edit with the server's row
 * field by field and resends it without asking; only a real conflict waits for the user's choice.
 */
import { describe, expect, it } from 'vitest'
import { AGREEMENT_UPDATE, changedFields, updateAgreement } from '../features/agreements/agreement-mutations'
import { COMPANY_FIELD } from '../features/companies/company-mutations'
import { drainOnce } from './drainer'
import { LocalDb, type Row } from './local-db'
import { enqueue, resolveConflict, type NewMutation } from './outbox'
import type { SyncHandle } from './use-sync'
import type { SyncTransport } from './transport'
import { freshLocalDbEachTest } from './fresh-local-db'

const json = (status: number, body?: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

type ServerRow = Record<string, unknown> & { id: string; version: number }

/** A server holding one versioned row: PATCH applies the fields sent when If-Match is current, else 412 with the row. */
function server(row: ServerRow, apply: (row: ServerRow, body: Record<string, unknown>, path: string) => ServerRow = (r, b) => ({ ...r, ...b })) {
  const state = { row, calls: [] as Array<{ path: string; ifMatch?: string; body: Record<string, unknown>; key: string }> }
  const transport: SyncTransport = {
    getToken: () => 'token',
    getLocale: () => 'en',
    fetch: (async (url: string, init: RequestInit) => {
      const headers = init.headers as Record<string, string>
      const body = JSON.parse(String(init.body ?? '{}')) as Record<string, unknown>
      const path = url.replace(/^\/api/, '')
      state.calls.push({ path, ifMatch: headers['If-Match'], body, key: headers['Idempotency-Key']! })
      if (headers['If-Match'] !== `"${state.row.version}"`)
        return json(412, { code: 'VERSION_CONFLICT', message: 'Someone else changed this in the meantime.', current: state.row })
      state.row = { ...apply(state.row, body, path), version: state.row.version + 1 }
      return json(200, state.row)
    }) as typeof fetch,
  }
  return { state, transport }
}

const part = (id: string, type: string, description: string, price: number) => ({ id, type, description, price, vatRate: 0, currency: 'DKK' })
const agreement: ServerRow = {
  id: 'ag1',
  version: 4,
  nextRegularPaymentDate: '2026-12-01',
  paymentPeriod: 'MONTHLY',
  parts: [part('p1', 'HEAT', 'Varme', 45000), part('p2', 'FEE', 'Kontingent', 10000)],
}
const asRow = ({ version, ...r }: ServerRow): Row => ({ ...r, _version: version })
const editOf = (row: Row, change: (r: ServerRow) => Partial<ServerRow>) => ({
  nextRegularPaymentDate: row.nextRegularPaymentDate as string,
  paymentPeriod: row.paymentPeriod as 'MONTHLY',
  parts: row.parts as ReturnType<typeof part>[],
  ...change(agreement),
})

let db: LocalDb
freshLocalDbEachTest((fresh) => (db = fresh))

/** What the edit form queues: the diff against the row it was opened on, with that row as base. */
async function queueAgreementEdit(opened: Row, change: (r: ServerRow) => Partial<ServerRow>) {
  const body = changedFields(opened, editOf(opened, change) as never)!
  return enqueue(db, {
    kind: AGREEMENT_UPDATE,
    method: 'PATCH',
    path: '/agreement/ag1',
    body,
    entity: 'agreement',
    entityId: 'ag1',
    baseVersion: opened._version,
    baseRow: opened,
  })
}

describe('an offline agreement edit answered 412', () => {
  it('sends only the changed fields and records the base', async () => {
    const opened = asRow(agreement)
    await db.agreements.put(opened)
    const m = await queueAgreementEdit(opened, (r) => ({
      parts: [{ ...(r.parts as ReturnType<typeof part>[])[0]!, description: 'Varme 2027' }, (r.parts as ReturnType<typeof part>[])[1]!],
    }))
    expect(Object.keys(m.body as object).sort()).toEqual(['currency', 'parts', 'price'])
    expect(m.base).toMatchObject({ nextRegularPaymentDate: '2026-12-01', paymentPeriod: 'MONTHLY' })
    expect(changedFields(opened, editOf(opened, () => ({})) as never)).toBeNull()
  })

  it('given only the id and version, diffs against the row as it shows now (nothing queued when nothing changed)', async () => {
    const opened = asRow(agreement)
    await db.agreements.put(opened)
    const handle = { db, engine: { mutate: (m: NewMutation) => enqueue(db, m) } } as unknown as SyncHandle
    const m = await updateAgreement(handle, { id: 'ag1', _version: 4 }, editOf(opened, () => ({ paymentPeriod: 'YEARLY' })) as never)
    expect(m?.body).toEqual({ paymentPeriod: 'YEARLY' })
    expect(m?.base).toMatchObject({ paymentPeriod: 'MONTHLY', nextRegularPaymentDate: '2026-12-01' })
    expect(await updateAgreement(handle, opened, editOf(opened, () => ({})) as never)).toBeNull()
  })

  it("is merged without a question: my part description and the administrator's date both end on the server", async () => {
    const opened = asRow(agreement)
    await db.agreements.put(opened)
    await queueAgreementEdit(opened, (r) => ({
      parts: [{ ...(r.parts as ReturnType<typeof part>[])[0]!, description: 'Varme 2027' }, (r.parts as ReturnType<typeof part>[])[1]!],
    }))
    // Meanwhile, online, the administrator moved the next payment date.
    const s = server({ ...agreement, version: 5, nextRegularPaymentDate: '2027-01-15' })

    const first = await drainOnce({ db, transport: s.transport })
    expect(first).toMatchObject({ rejected: 0, waiting: true })
    const queued = await db.outbox.toArray()
    expect(queued).toHaveLength(1)
    expect(queued[0]).toMatchObject({ status: 'queued', baseVersion: 5 })
    expect(queued[0]!.mutationId).not.toBe(s.state.calls[0]!.key)

    await drainOnce({ db, transport: s.transport })
    expect(await db.outbox.count()).toBe(0)
    expect(s.state.calls.map((c) => c.ifMatch)).toEqual(['"4"', '"5"'])
    expect(s.state.calls[1]!.body).not.toHaveProperty('nextRegularPaymentDate')
    expect(s.state.row).toMatchObject({ version: 6, nextRegularPaymentDate: '2027-01-15' })
    expect((s.state.row.parts as { description: string }[]).map((p) => p.description)).toEqual(['Varme 2027', 'Kontingent'])
  })

  it('keeps a part edited differently on both sides for the user, who chooses per part; the rest is merged', async () => {
    const opened = asRow(agreement)
    await db.agreements.put(opened)
    await queueAgreementEdit(opened, (r) => ({
      nextRegularPaymentDate: '2027-02-01',
      parts: [{ ...(r.parts as ReturnType<typeof part>[])[0]!, description: 'Varme 2027' }, (r.parts as ReturnType<typeof part>[])[1]!],
    }))
    const s = server({ ...agreement, version: 5, parts: [part('p1', 'HEAT', 'Fjernvarme', 47000), part('p2', 'FEE', 'Kontingent', 10000)] })

    const res = await drainOnce({ db, transport: s.transport })
    expect(res.rejected).toBe(1)
    const [m] = await db.outbox.toArray()
    expect(m).toMatchObject({ status: 'conflict', conflict: { version: 5 } })

    await resolveConflict(db, m!.mutationId, { 'parts:p1': 'mine' })
    expect((await db.outbox.toArray())[0]).toMatchObject({ status: 'queued', baseVersion: 5 })
    await drainOnce({ db, transport: s.transport })
    expect(await db.outbox.count()).toBe(0)
    // Mine: the description; the server's price of that part stays (only the description conflicted).
    expect(s.state.row).toMatchObject({ nextRegularPaymentDate: '2027-02-01' })
    expect(s.state.row.parts).toEqual([part('p1', 'HEAT', 'Varme 2027', 47000), part('p2', 'FEE', 'Kontingent', 10000)])
  })

  it("choosing the server's side for every conflict sends nothing when nothing else differs", async () => {
    const opened = asRow(agreement)
    await db.agreements.put(opened)
    await queueAgreementEdit(opened, () => ({ nextRegularPaymentDate: '2027-02-01' }))
    const s = server({ ...agreement, version: 5, nextRegularPaymentDate: '2027-03-01' })
    await drainOnce({ db, transport: s.transport })
    const [m] = await db.outbox.toArray()
    expect(m!.status).toBe('conflict')
    await resolveConflict(db, m!.mutationId, { nextRegularPaymentDate: 'server' })
    expect(await db.outbox.count()).toBe(0)
    expect(s.state.calls).toHaveLength(1)
  })

  it('both made the same change: written off, nothing sent again', async () => {
    const opened = asRow(agreement)
    await db.agreements.put(opened)
    await queueAgreementEdit(opened, () => ({ paymentPeriod: 'YEARLY' }))
    const s = server({ ...agreement, version: 5, paymentPeriod: 'YEARLY' })
    const res = await drainOnce({ db, transport: s.transport })
    expect(res.rejected).toBe(0)
    expect(await db.outbox.count()).toBe(0)
    expect(s.state.calls).toHaveLength(1)
    expect((await db.agreements.get('ag1'))?._version).toBe(5)
  })
})

describe('a company field edit answered 412', () => {
  it('goes again when the server changed another field, and waits for a choice when the same', async () => {
    const company = { id: 'c1', version: 2, name: 'Solgården', acronym: 'SG' }
    await db.companies.put(asRow(company))
    await enqueue(db, {
      kind: COMPANY_FIELD,
      method: 'PATCH',
      path: '/company/c1/field/acronym',
      body: { value: 'SOL' },
      entity: 'company',
      entityId: 'c1',
      baseVersion: 2,
    })
    const apply = (r: ServerRow, b: Record<string, unknown>, path: string) => ({ ...r, [path.split('/').at(-1)!]: b.value })
    const other = server({ ...company, version: 3, name: 'Solgården A/S' }, apply)
    await drainOnce({ db, transport: other.transport })
    await drainOnce({ db, transport: other.transport })
    expect(other.state.row).toMatchObject({ name: 'Solgården A/S', acronym: 'SOL' })

    await enqueue(db, {
      kind: COMPANY_FIELD,
      method: 'PATCH',
      path: '/company/c1/field/acronym',
      body: { value: 'SGA' },
      entity: 'company',
      entityId: 'c1',
      baseVersion: 2,
    })
    const same = server({ ...company, version: 3, acronym: 'SGX' }, apply)
    await drainOnce({ db, transport: same.transport })
    expect((await db.outbox.toArray())[0]).toMatchObject({ status: 'conflict', base: { acronym: 'SG' } })
  })
})

describe('a choice that waits, and a merged resend', () => {
  const apply = (r: ServerRow, b: Record<string, unknown>, path: string) => ({ ...r, [path.split('/').at(-1)!]: b.value })
  const company = { id: 'c1', version: 2, name: 'A', acronym: 'SG' }
  const nameEdit = (value: string, baseVersion: number): NewMutation => ({
    kind: COMPANY_FIELD,
    method: 'PATCH',
    path: '/company/c1/field/name',
    body: { value },
    entity: 'company',
    entityId: 'c1',
    baseVersion,
  })

  it('"now on the server" leaves the local copy without the value the user gave up', async () => {
    await db.companies.put(asRow(company))
    const m = await enqueue(db, nameEdit('B', 2))
    const s = server({ ...company, version: 3, name: 'C' }, apply)
    await drainOnce({ db, transport: s.transport })
    await resolveConflict(db, m.mutationId, { name: 'server' })
    expect(await db.outbox.count()).toBe(0)
    expect((await db.companies.get('c1'))?.name).not.toBe('B')
    expect(s.state.calls).toHaveLength(1)
  })

  it('a later change to a row waiting for a choice waits with it', async () => {
    await db.companies.put(asRow(company))
    const first = await enqueue(db, nameEdit('B', 2))
    const s = server({ ...company, version: 3, name: 'C' }, apply)
    await drainOnce({ db, transport: s.transport })
    await enqueue(db, nameEdit('D', 3))
    await drainOnce({ db, transport: s.transport })
    // Not sent: choosing for the first must not be made against the user's own newer change.
    expect(s.state.calls).toHaveLength(1)
    await resolveConflict(db, first.mutationId, { name: 'mine' })
    await drainOnce({ db, transport: s.transport })
    await drainOnce({ db, transport: s.transport })
    // The chosen B went; D, made on a view without B, is asked about again rather than lost.
    expect(s.state.row.name).toBe('B')
    const [second] = await db.outbox.toArray()
    expect(second).toMatchObject({ status: 'conflict', body: { value: 'D' } })
    await resolveConflict(db, second!.mutationId, { name: 'mine' })
    await drainOnce({ db, transport: s.transport })
    expect(s.state.row.name).toBe('D')
  })

  it("a merged resend does not carry the user's later edit past a colleague's change it never saw", async () => {
    // E1 (an edit of p2's description) waits; a pull brings v5 with the admin's price of p1; the
    // view still shows E1's parts over it, so E2 (p2's price) was made on a stale p1.
    const opened = asRow(agreement)
    await db.agreements.put(opened)
    await queueAgreementEdit(opened, (r) => ({
      parts: [(r.parts as ReturnType<typeof part>[])[0]!, { ...(r.parts as ReturnType<typeof part>[])[1]!, description: 'Kontingent 2027' }],
    }))
    const pulled = { ...agreement, version: 5, parts: [part('p1', 'HEAT', 'Varme', 50000), part('p2', 'FEE', 'Kontingent', 10000)] }
    const shown = { ...asRow(pulled), parts: [part('p1', 'HEAT', 'Varme', 45000), part('p2', 'FEE', 'Kontingent 2027', 10000)], _version: 5 }
    await db.agreements.put(asRow(pulled))
    const e2 = changedFields(shown, {
      ...editOf(shown, () => ({})),
      parts: [part('p1', 'HEAT', 'Varme', 45000), part('p2', 'FEE', 'Kontingent 2027', 12000)],
    } as never)!
    await enqueue(db, {
      kind: AGREEMENT_UPDATE,
      method: 'PATCH',
      path: '/agreement/ag1',
      body: e2,
      entity: 'agreement',
      entityId: 'ag1',
      baseVersion: 5,
      baseRow: shown,
    })
    const s = server(pulled)
    for (let i = 0; i < 6 && (await db.outbox.count()) > 0; i++) await drainOnce({ db, transport: s.transport })
    expect(await db.outbox.count()).toBe(0)
    expect(s.state.row.parts).toEqual([part('p1', 'HEAT', 'Varme', 50000), part('p2', 'FEE', 'Kontingent 2027', 12000)])
  })
})
