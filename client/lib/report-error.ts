/**
 * Sends client errors to the server log (POST /logger, docs/PRODUCT.md §7). Reporting must never cause new
 * trouble: failures are ignored, repeats of the same message are dropped, and one page sends at
 * most a handful so an error in a render loop cannot flood the server.
 */
import { api } from './api'

const MAX_REPORTS_PER_PAGE = 20
const MAX_MESSAGE = 2000
const seen = new Set<string>()

export function reportError(error: unknown, context: Record<string, unknown> = {}): void {
  const message = (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).slice(0, MAX_MESSAGE) || 'Unknown error'
  if (seen.has(message) || seen.size >= MAX_REPORTS_PER_PAGE) return
  seen.add(message)
  const stack = error instanceof Error && error.stack ? error.stack.slice(0, 4000) : undefined
  const body = { level: 'ERROR' as const, message, context: { ...context, stack, url: location.pathname, userAgent: navigator.userAgent } }
  void api('POST', '/logger', { body }).catch(() => undefined)
}

/** Reports uncaught errors and unhandled promise rejections of the page. */
export function installGlobalErrorReporting(): void {
  window.addEventListener('error', (event) => reportError(event.error ?? event.message, { source: 'window.onerror' }))
  window.addEventListener('unhandledrejection', (event) => reportError(event.reason, { source: 'unhandledrejection' }))
}
