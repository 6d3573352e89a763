import { createVippsClient, type VippsClient, type VippsClientOptions, type VippsCredentials } from './vipps.client'
import type { Clock } from '../../lib/clock'

/**
 * Where Vipps calls go: VIPPS_BASE_URL when set; otherwise the built-in emulator outside
 * production (called in-process, so it works without network and behind any proxy); otherwise
 * the real test or production environment chosen by the provider's `isTest`.
 */
export interface VippsEnvironment {
  clientFor(credentials: VippsCredentials): VippsClient
  /** Base URL the browser is sent to for Vipps pages (confirmation, login). */
  publicBaseUrl(isTest: boolean): string
}

export function vippsEnvironment(opts: {
  clock: Clock
  baseUrl?: string
  emulator?: { baseUrl: string; fetch: typeof fetch }
  version?: string
  /** Tests: a short timeout and no real backoff waits. */
  clientOptions?: Pick<VippsClientOptions, 'timeoutMs' | 'sleep' | 'maxAttempts'>
}): VippsEnvironment {
  return {
    clientFor(credentials) {
      if (opts.baseUrl) return createVippsClient(credentials, { clock: opts.clock, baseUrl: opts.baseUrl, systemVersion: opts.version })
      if (opts.emulator)
        return createVippsClient(credentials, {
          clock: opts.clock,
          baseUrl: opts.emulator.baseUrl,
          fetch: opts.emulator.fetch,
          systemVersion: opts.version,
          ...opts.clientOptions,
        })
      return createVippsClient(credentials, { clock: opts.clock, systemVersion: opts.version })
    },
    publicBaseUrl(isTest) {
      return opts.baseUrl ?? opts.emulator?.baseUrl ?? (isTest ? 'https://apitest.vipps.no' : 'https://api.vipps.no')
    },
  }
}
