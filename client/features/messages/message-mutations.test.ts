/**
 * Editing a draft offline (docs/OFFLINE.md "Conflicts and refusals"): the form sends only what the user changed against the draft
 * as it was when the form opened, on that version, so a change made meanwhile on another device is
 * merged after the 412, not silently taken back.
 */
import { describe, expect, it } from 'vitest'
import { drainOnce } from '../../sync/drainer'
import { freshLocalDbEachTest } from '../../sync/fresh-local-db'
import type { LocalDb, Row } from '../../sync/local-db'
import { enqueue, type NewMutation } from '../../sync/outbox'
import type { SyncTransport } from '../../sync/transport'
import type { SyncHandle } from '../../sync/use-sync'
import { changedDraftFields, updateDraft } from './message-mutations'

const id = '33333333-3333-4333-8333-333333333333'
const serverDraft = {
  id,
  version: 2,
  companyId: '11111111-1111-4111-8111-111111111111',
  type: 'NOTICE',
  subject: 'Generalforsamling',
  body: 'Vi mødes tirsdag.',
  status: 'DRAFT',
  recipient: { kind: 'ALL_MEMBERS', userId: null, addressId: null, label: null },
  scheduledAt: null,
}
const asRow = ({ version, ...r }: typeof serverDraft): Row => ({ ...r, _version: version })

/** What the form passes: every field as it is in the form. */
const formOf = (row: Row, change: Record<string, unknown> = {}) => ({
  type: row.type as 'NOTICE',
  subject: row.subject as string,
  body: row.body as string,
  recipient: { kind: 'ALL_MEMBERS' as const },
  scheduledAt: null,
  ...change,
})

let db: LocalDb
freshLocalDbEachTest((fresh) => (db = fresh))
const handleOf = () => ({ db, engine: { mutate: (m: NewMutation) => enqueue(db, m) } }) as unknown as SyncHandle

/** A server holding the draft: PATCH applies the fields sent when If-Match is current, else 412 with its row. */
function server(start: Record<string, unknown> & { version: number }) {
  const state = { row: start, calls: [] as Array<{ ifMatch?: string; body: Record<string, unknown> }> }
  const transport: SyncTransport = {
    getToken: () => 'token',
    getLocale: () => 'en',
    fetch: (async (_url: string, init: RequestInit) => {
      const headers = init.headers as Record<string, string>
      const body = JSON.parse(String(init.body ?? '{}')) as Record<string, unknown>
      state.calls.push({ ifMatch: headers['If-Match'], body })
      const answer = (status: number, json: unknown) => new Response(JSON.stringify(json), { status, headers: { 'Content-Type': 'application/json' } })
      if (headers['If-Match'] !== `"${state.row.version}"`) return answer(412, { code: 'VERSION_CONFLICT', message: 'Changed meanwhile.', current: state.row })
      state.row = { ...state.row, ...body, version: state.row.version + 1 }
      return answer(200, state.row)
    }) as typeof fetch,
  }
  return { state, transport }
}

describe('a draft edit', () => {
  it('sends only the changed fields, on the version and with the base of the draft as the form opened it', async () => {
    const opened = asRow(serverDraft)
    // Meanwhile a pull brought another device's body (version 3) into the local copy.
    await db.messages.put({ ...opened, body: 'Vi mødes onsdag.', _version: 3 })

    const m = await updateDraft(handleOf(), opened, formOf(opened, { subject: 'Ekstraordinær generalforsamling' }), null)
    expect(m?.body).toEqual({ subject: 'Ekstraordinær generalforsamling' })
    expect(m?.baseVersion).toBe(2)
    expect(m?.base).toMatchObject({ subject: 'Generalforsamling', body: 'Vi mødes tirsdag.', recipient: { kind: 'ALL_MEMBERS' } })
  })

  it('queues nothing when nothing changed (whitespace and the recipient label aside)', async () => {
    const opened = asRow(serverDraft)
    expect(changedDraftFields(opened, formOf(opened, { subject: ' Generalforsamling ' }))).toBeNull()
    expect(await updateDraft(handleOf(), opened, formOf(opened), null)).toBeNull()
    expect(await db.outbox.count()).toBe(0)
    expect(changedDraftFields(opened, formOf(opened, { recipient: { kind: 'BOARD' }, scheduledAt: '2027-01-05T10:00' }))).toEqual({
      recipient: { kind: 'BOARD' },
      scheduledAt: '2027-01-05T10:00',
    })
  })

  it("answered 412, is merged: my subject and the other device's body both end on the server", async () => {
    const opened = asRow(serverDraft)
    await db.messages.put({ ...opened, body: 'Vi mødes onsdag.', _version: 3 })
    await updateDraft(handleOf(), opened, formOf(opened, { subject: 'Ekstraordinær generalforsamling' }), null)

    const s = server({ ...serverDraft, version: 3, body: 'Vi mødes onsdag.' })
    await drainOnce({ db, transport: s.transport })
    await drainOnce({ db, transport: s.transport })
    expect(await db.outbox.count()).toBe(0)
    expect(s.state.calls.map((c) => c.ifMatch)).toEqual(['"2"', '"3"'])
    expect(s.state.calls[1]!.body).not.toHaveProperty('body')
    expect(s.state.row).toMatchObject({ version: 4, subject: 'Ekstraordinær generalforsamling', body: 'Vi mødes onsdag.' })
  })
})
