import { afterEach, describe, expect, it } from 'vitest'
import { testApp, type TestApp } from '../../test/harness'
import { callers, classOf, documentedRoutes, tokenFor } from '../../test/authorization'
import { openStream } from './test-helpers'

/**
 * Who may open GET /api/live: every signed-in user (the stream only tells them to pull, and the
 * pull shows each what they may see); a guest is refused. One column per caller
 * (server/test/authorization.ts). What each stream is told is live.test.ts's.
 */
//                                S C A K B R N O -
const table = [['GET', '/live', 'oooooooo1']] as const

const apps: TestApp[] = []
afterEach(async () => {
  for (const t of apps.splice(0)) await t.services.live.stop()
})

describe('authorization matrix (live)', () => {
  it('has a row for every route under /live', async () => {
    const t = await testApp()
    apps.push(t)
    expect([...(await documentedRoutes(t, '/live'))].sort()).toEqual(table.map(([method, path]) => `${method} ${path}`).sort())
  })

  it.each(callers.map((caller) => [caller] as const))('%s', async (caller) => {
    const t = await testApp()
    apps.push(t)
    const token = await tokenFor(t, caller)
    const got: string[] = []
    const want: string[] = []
    for (const [method, path, expected] of table) {
      const s = await openStream((p, init) => t.app.request(p, init), token)
      await s.cancel()
      got.push(`${method} ${path} → ${classOf(s.status)}`)
      want.push(`${method} ${path} → ${expected[callers.indexOf(caller)]}`)
    }
    expect(got).toEqual(want)
  })
})
