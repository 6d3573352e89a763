import pino from 'pino'
import { describe, expect, it } from 'vitest'
import type { ChangeAudience } from '../sync'
import { createLiveHub, mayConcern, type Viewer } from './live-hub'

const viewer = (over: Partial<Viewer> = {}): Viewer => ({ userId: 'u1', superAdmin: false, staffOf: new Set(), residentIn: new Set(), ...over })
const change = (over: Partial<ChangeAudience> = {}): ChangeAudience => ({ companyId: null, userId: null, members: false, ...over })

describe('who a change may concern (as visibleLog reads the change log)', () => {
  it.each([
    ['their own row', viewer(), change({ userId: 'u1' }), true],
    ['someone else’s row', viewer(), change({ userId: 'u2' }), false],
    ['a row for everyone', viewer(), change(), true],
    ['a staff row of their company', viewer({ staffOf: new Set(['c1']) }), change({ companyId: 'c1' }), true],
    ['a staff row of another company', viewer({ staffOf: new Set(['c1']) }), change({ companyId: 'c2' }), false],
    ['a staff row where they only live', viewer({ residentIn: new Set(['c1']) }), change({ companyId: 'c1' }), false],
    ['a members’ row where they live', viewer({ residentIn: new Set(['c1']) }), change({ companyId: 'c1', members: true }), true],
    ['a members’ row elsewhere', viewer({ residentIn: new Set(['c1']) }), change({ companyId: 'c2', members: true }), false],
    ['any company’s row, to the super admin', viewer({ superAdmin: true }), change({ companyId: 'c9' }), true],
  ] as const)('%s', (_name, v, a, expected) => expect(mayConcern(v, a)).toBe(expected))
})

describe('the hub', () => {
  it('owes a client that has not read its last event one `changed`, however many changes come', async () => {
    let tell: (audiences: ChangeAudience[]) => void = () => undefined
    const feed = { start: (fn: typeof tell) => ((tell = fn), Promise.resolve()), stop: () => Promise.resolve() }
    const hub = createLiveHub({ feed, log: pino({ level: 'silent' }) })
    const written: string[] = []
    let take: () => void = () => undefined
    const client = {
      viewer: viewer(),
      write: (text: string) => {
        written.push(text)
        return new Promise<void>((resolve) => (take = resolve))
      },
      end: () => undefined,
      revalidate: () => Promise.resolve(viewer()),
    }
    await hub.ready()
    const ended = hub.add(client)
    expect(written).toHaveLength(1) // retry + ready, not yet taken
    for (let i = 0; i < 10; i++) tell([change({ userId: 'u1' })])
    expect(written).toHaveLength(1)
    take()
    await expect.poll(() => written.length).toBe(2)
    expect(written[1]).toBe('event: changed\ndata: {}\n\n')
    take()
    hub.remove(client)
    await ended
    expect(hub.count()).toBe(0)
  })
})
