/**
 * Cancelling and marking held from the assembly page: sent on the version the user saw (If-Match),
 * after an edit still waiting on the same version (moved on when the server answers it), and the
 * page always says how it went — a refusal or a conflict too.
 */
import { setupI18n } from '@lingui/core'
import { describe, expect, it } from 'vitest'
import { drainOnce } from '../../sync/drainer'
import { freshLocalDbEachTest } from '../../sync/fresh-local-db'
import type { LocalDb, Mutation } from '../../sync/local-db'
import { enqueue, type NewMutation } from '../../sync/outbox'
import type { SyncTransport } from '../../sync/transport'
import type { SyncHandle } from '../../sync/use-sync'
import { actionAnswer } from './action-outcome'
import { cancelAssembly, markAssemblyHeld, updateAssembly } from './assembly-mutations'

const i18n = setupI18n({ locale: 'en', messages: { en: {} } })
const id = '44444444-4444-4444-8444-444444444444'

let db: LocalDb
freshLocalDbEachTest((fresh) => (db = fresh))
const handleOf = () => ({ db, engine: { mutate: (m: NewMutation) => enqueue(db, m) } }) as unknown as SyncHandle

/** A server holding the assembly at `version`: every write needs the current If-Match, else 412 with its row. */
function server(version: number) {
  const state = {
    row: { id, version, status: 'PLANNED', place: 'Fælleshuset' } as Record<string, unknown>,
    calls: [] as Array<{ path: string; ifMatch?: string }>,
  }
  const transport: SyncTransport = {
    getToken: () => 'token',
    getLocale: () => 'en',
    fetch: (async (url: string, init: RequestInit) => {
      const headers = init.headers as Record<string, string>
      const path = new URL(url, 'http://x').pathname
      state.calls.push({ path, ifMatch: headers['If-Match'] })
      const answer = (status: number, json: unknown) => new Response(JSON.stringify(json), { status, headers: { 'Content-Type': 'application/json' } })
      if (headers['If-Match'] !== `"${state.row.version as number}"`)
        return answer(412, { code: 'VERSION_CONFLICT', message: 'Changed meanwhile.', current: state.row })
      const body = JSON.parse(String(init.body ?? '{}')) as Record<string, unknown>
      const status =
        path.endsWith('/cancel') ? { status: 'CANCELLED' }
        : path.endsWith('/held') ? { status: 'HELD' }
        : {}
      state.row = { ...state.row, ...body, ...status, version: (state.row.version as number) + 1 }
      return answer(200, state.row)
    }) as typeof fetch,
  }
  return { state, transport }
}

describe('cancel and mark held', () => {
  it('carry the version the user saw as If-Match', async () => {
    const cancel = await cancelAssembly(handleOf(), { id, _version: 3 })
    expect(cancel.baseVersion).toBe(3)
    const held = await markAssemblyHeld(handleOf(), { id, _version: 3 })
    expect(held.baseVersion).toBe(3)
    expect(held.dependsOn).toBe(cancel.mutationId)
  })

  it('follow an edit still waiting: the server answers both, the cancel on the version the edit made', async () => {
    const row = { id, _version: 2, place: 'Fælleshuset' }
    await updateAssembly(handleOf(), row, { place: 'Kælderen' })
    await cancelAssembly(handleOf(), row)
    const s = server(2)
    for (let i = 0; i < 3 && (await db.outbox.count()) > 0; i++) await drainOnce({ db, transport: s.transport })
    expect(await db.outbox.count()).toBe(0)
    expect(s.state.calls.map((c) => c.ifMatch)).toEqual(['"2"', '"3"'])
    expect(s.state.row).toMatchObject({ status: 'CANCELLED', place: 'Kælderen', version: 4 })
  })

  it('on a version changed elsewhere is a conflict, not a silent cancel', async () => {
    await cancelAssembly(handleOf(), { id, _version: 2 })
    const s = server(5)
    await drainOnce({ db, transport: s.transport })
    const [stored] = await db.outbox.toArray()
    expect(stored?.status).toBe('conflict')
    expect(s.state.row.status).toBe('PLANNED')
  })
})

describe('what the page says after an action', () => {
  const m = (over: Partial<Mutation>) => ({ seq: 1, mutationId: 'm1', kind: 'assembly.cancel', status: 'rejected', lastError: '', ...over }) as Mutation
  it('is never nothing: success, queued, the refusal in words, or the conflict to resolve', () => {
    expect(actionAnswer({ outcome: 'accepted' }, 'Cancelled.', i18n)).toEqual({ kind: 'success', text: 'Cancelled.' })
    expect(actionAnswer({ outcome: 'queued', waitingFor: 'connection' }, 'Cancelled.', i18n)).toEqual({
      kind: 'info',
      text: 'Queued — will be sent when online.',
    })
    expect(actionAnswer({ outcome: 'rejected', mutation: m({ lastError: 'Only a planned general assembly can be changed.' }) }, 'x', i18n)).toEqual({
      kind: 'error',
      text: 'Only a planned general assembly can be changed.',
    })
    expect(actionAnswer({ outcome: 'rejected', mutation: m({}) }, 'x', i18n)).toEqual({ kind: 'error', text: 'The server refused the request.' })
    expect(
      actionAnswer(
        {
          outcome: 'rejected',
          mutation: m({
            refusal: { code: 'NO_ACCESS', companyId: 'c', companyName: 'Solgården', subject: { entity: 'assembly', name: '' } },
          } as Partial<Mutation>),
        },
        'x',
        i18n,
      ).text,
    ).toBe("You no longer have access to Solgården; your change to this association's data was not applied.")
    const conflict = actionAnswer({ outcome: 'conflict', mutation: m({ status: 'conflict' }) }, 'x', i18n)
    expect(conflict.kind).toBe('error')
    expect(conflict.text).toMatch(/^Someone changed this general assembly meanwhile/)
  })
})
