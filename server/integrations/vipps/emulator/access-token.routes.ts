import { Hono } from 'hono'
import type { Clock } from '../../../lib/clock'
import { randomToken } from '../../../lib/ids'
import type { EmulatorEnv } from './api.guard'
import type { EmulatorState } from './emulator.state'
import { ProblemError } from './problems'

/**
 * POST /accesstoken/get (https://developer.vippsmobilepay.com/api/access-token/): any non-empty
 * credentials are accepted; the token is bound to the Merchant-Serial-Number it was asked for.
 */
export function accessTokenRoutes(deps: { state: EmulatorState; transportClock: Clock; ttlSeconds: number }) {
  const required = ['client_id', 'client_secret', 'Ocp-Apim-Subscription-Key', 'Merchant-Serial-Number'] as const
  return new Hono<EmulatorEnv>().post('/accesstoken/get', (c) => {
    const missing = required.filter((name) => !c.req.header(name))
    if (missing.length)
      throw new ProblemError(
        401,
        'not-authorized',
        'Missing credentials',
        missing.map((name) => ({ name, reason: 'Required' })),
      )
    const now = deps.transportClock.now().getTime()
    const tokens = deps.state.data.accessTokens
    for (const [t, record] of Object.entries(tokens)) if (record.expiresAt <= now) delete tokens[t]
    const accessToken = randomToken()
    const expiresAt = now + deps.ttlSeconds * 1000
    tokens[accessToken] = { msn: c.req.header('Merchant-Serial-Number') ?? '', expiresAt }
    deps.state.changed()
    return c.json({
      token_type: 'Bearer',
      expires_in: deps.ttlSeconds,
      ext_expires_in: deps.ttlSeconds,
      expires_on: String(Math.floor(expiresAt / 1000)),
      not_before: String(Math.floor(now / 1000)),
      resource: '00000002-0000-0000-c000-000000000000',
      access_token: accessToken,
    })
  })
}
