import { createParser, type EventSourceMessage } from 'eventsource-parser'

/** What a test reads off one GET /api/live: its status, the events and comments so far, and whether it ended. */
export interface Stream {
  status: number
  events: EventSourceMessage[]
  comments: string[]
  ended: boolean
  /** The events of one name so far. */
  named(name: string): EventSourceMessage[]
  /** Closes it from the client's side. */
  cancel(): Promise<void>
  /** The body of an answer that is not a stream. */
  json?: any
}

/** Opens GET /api/live on `fetch` (an app's `request`, or a server's) and reads it in the background. */
export async function openStream(
  fetch: (path: string, init: RequestInit) => Response | Promise<Response>,
  token: string | undefined,
  headers: Record<string, string> = {},
): Promise<Stream> {
  const res = await fetch('/api/live', { headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...headers } })
  const stream: Stream = {
    status: res.status,
    events: [],
    comments: [],
    ended: false,
    named: (name) => stream.events.filter((e) => e.event === name),
    cancel: async () => undefined,
  }
  if (res.status !== 200 || !res.body) {
    stream.json = await res.json().catch(() => undefined)
    stream.ended = true
    return stream
  }
  const parser = createParser({ onEvent: (e) => stream.events.push(e), onComment: (c) => stream.comments.push(c) })
  const reader = res.body.getReader()
  const decoder = new TextDecoder()
  stream.cancel = () => reader.cancel().catch(() => undefined)
  void (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read()
        if (done) break
        parser.feed(decoder.decode(value, { stream: true }))
      }
    } catch {
      // Cancelled.
    }
    stream.ended = true
  })()
  return stream
}
