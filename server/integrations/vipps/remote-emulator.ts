import type { Logger } from 'pino'
import type { Clock } from '../../lib/clock'

/**
 * The standalone emulator (`npm run emulator`) as a product instance sees it through
 * VIPPS_BASE_URL outside production (docs/decisions/0055): the levers the built-in emulator gives
 * in-process, over HTTP. Its business clock is this instance's clock plus the emulator's offset,
 * re-read every `refreshMs` (Clock.now() is synchronous, so the offset is cached), so every
 * instance bills on the emulator's time. A base that answers `/_control/clock` unlike the emulator
 * (the real Vipps test API) leaves the offset at 0 and is not asked again; one that cannot be
 * reached yet (the emulator starts later) is asked again on the next round.
 */
export interface RemoteEmulator {
  baseUrl: string
  /** This instance's clock plus the emulator's offset (what billing follows). */
  clock: Clock
  /** Starts the refresh rounds; resolves after the first (never rejects). */
  start(): Promise<void>
  /** Re-reads the offset; also registers the sign-in page's people until that has worked once. */
  refresh(): Promise<void>
  /** Stands in for a member approving an agreement on the confirmation page (the demo seed). */
  approve(vippsAgreementId: string): Promise<void>
  stop(): void
}

interface LoginUserInput {
  phoneNumber: string
  name?: string
  email?: string
}

const CALL_TIMEOUT_MS = 2000

export function remoteEmulator(opts: {
  baseUrl: string
  clock: Clock
  log: Pick<Logger, 'info' | 'warn'>
  /** The product's people with a phone number, offered on the emulator's sign-in page. */
  loginUsers: LoginUserInput[]
  refreshMs?: number
  fetch?: typeof fetch
}): RemoteEmulator {
  const baseUrl = opts.baseUrl.replace(/\/+$/, '')
  const doFetch = opts.fetch ?? globalThis.fetch
  let offsetMs = 0
  let isEmulator = true
  let usersRegistered = opts.loginUsers.length === 0
  let unreachable = false
  let timer: ReturnType<typeof setInterval> | undefined

  const call = (path: string, init?: RequestInit) =>
    doFetch(`${baseUrl}/_control/${path}`, {
      ...init,
      headers: { 'Content-Type': 'application/json', ...init?.headers },
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    })

  async function refresh(): Promise<void> {
    if (!isEmulator) return
    let answer: unknown
    try {
      const res = await call('clock')
      answer = res.ok ? await res.json().catch(() => undefined) : undefined
    } catch (err) {
      if (!unreachable) opts.log.warn({ err, baseUrl }, 'Vipps emulator not reachable; its clock is read again shortly')
      unreachable = true
      return
    }
    unreachable = false
    const offset = (answer as { offsetMs?: unknown } | undefined)?.offsetMs
    if (typeof offset !== 'number') {
      isEmulator = false
      offsetMs = 0
      if (timer) clearInterval(timer)
      opts.log.info({ baseUrl }, 'VIPPS_BASE_URL has no emulator controls; billing follows this server’s clock')
      return
    }
    offsetMs = offset
    if (!usersRegistered) {
      const res = await call('login-users', { method: 'PUT', body: JSON.stringify({ users: opts.loginUsers }) }).catch(() => undefined)
      // An answer is final: a refused list (e.g. more people than the emulator takes) would be
      // refused again every round. Only a request that got no answer is tried again.
      usersRegistered = res !== undefined
      if (res && !res.ok)
        opts.log.warn(
          { baseUrl, status: res.status, problem: await res.text().catch(() => '') },
          'Vipps emulator refused this instance’s sign-in people; its sign-in page does not list them',
        )
      else await res?.body?.cancel().catch(() => undefined)
    }
  }

  return {
    baseUrl,
    clock: { now: () => new Date(opts.clock.now().getTime() + offsetMs) },
    async start() {
      await refresh()
      if (!isEmulator || timer) return
      timer = setInterval(() => void refresh(), opts.refreshMs ?? 2000)
      timer.unref()
    },
    refresh,
    async approve(vippsAgreementId) {
      const res = await call(`approve/${encodeURIComponent(vippsAgreementId)}`, { method: 'POST', body: '{}' })
      if (!res.ok) throw new Error(`the emulator did not approve ${vippsAgreementId}: ${res.status} ${await res.text()}`)
      await res.body?.cancel().catch(() => undefined)
    },
    stop() {
      if (timer) clearInterval(timer)
      timer = undefined
    },
  }
}
