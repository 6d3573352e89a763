/**
 * GET /api/live (docs/API.md "Live", decision 0086): a stream of server-sent events that only says
 * "something you may see changed, pull now". Plain values (no zod): the sync engine loads them
 * before the first route (docs/decisions/0072).
 */
export const LIVE_PATH = '/live'

/** The events of the stream. Their `data` is `{}` or a reason: never anything of the change itself. */
export const LIVE_EVENTS = {
  /** Sent once the stream is open: pull now, as changes before it were not told. */
  ready: 'ready',
  /** A change the user may see was committed: pull now. */
  changed: 'changed',
  /** The server ends the stream (`data: {"reason": …}`): see `LiveCloseReason`. */
  closed: 'closed',
} as const

/**
 * Why the server ended a stream: `replaced` (the user opened more streams than allowed and this was
 * the oldest: try again much later), `signed-out` (the session ended), `stopping` (the server is
 * going down: reconnect with backoff).
 */
export type LiveCloseReason = 'replaced' | 'signed-out' | 'stopping'

/** How long a client waits before it reconnects after the stream broke, as the `retry:` field says. */
export const LIVE_RETRY_MS = 5000
