import pino, { type Logger } from 'pino'

/**
 * Structured logs (pino, JSON lines) to stdout. Warnings and errors are also copied to the
 * system log shown on /logs through `sink`, which main wires to the logs service.
 *
 * Without a `destination` the lines go to stdout asynchronously (a pino/sonic-boom destination
 * with `sync: false`): a request no longer waits for its log line to be written.
 * With `batchedStdout()` (production) lines are also gathered into writes of about 4 KB (a write
 * per request cost 7 % of a write request's CPU in bench/api.ts) and flushed at least twice a
 * second; an error line is flushed at once.
 * What is still buffered is written synchronously when the process exits, whatever the reason
 * (pino registers a synchronous flush on `exit`, so main's shutdown and a crash lose nothing).
 * Tests pass their own destination, which is written synchronously.
 */
export function createLogger(
  level: string,
  sink?: (level: 'WARN' | 'ERROR', message: string, context: unknown) => void,
  destination?: pino.DestinationStream,
): Logger {
  const out = destination ?? pino.destination({ dest: 1, sync: false })
  const batched = batchedStreams.has(out) ? (out as ReturnType<typeof pino.destination>) : undefined
  const options: pino.LoggerOptions = {
    level,
    base: undefined,
    redact: { paths: ['req.headers.authorization', '*.password', '*.secret', '*.token', '*.accessToken'], censor: '[redacted]' },
    ...((sink || batched) && {
      hooks: {
        logMethod(args, method, levelNumber) {
          if (sink && levelNumber >= 40) {
            const [first, second] = args as unknown[]
            const message =
              typeof first === 'string' ? first
              : typeof second === 'string' ? second
              : first instanceof Error ? first.message
              : 'log'
            // A child logger's bindings (the request id, a job's name) belong to the entry too:
            // without them a server error in System Logs could not be matched to its request.
            const bindings = (this as Logger).bindings()
            const own = typeof first === 'object' && first !== null ? serializable(first) : {}
            const context = { ...bindings, ...own }
            try {
              sink(levelNumber >= 50 ? 'ERROR' : 'WARN', message, Object.keys(context).length ? context : null)
            } catch {
              // The system log must never break the request that logged.
            }
          }
          method.apply(this, args as Parameters<typeof method>)
          // An error line is written at once, not with the next batch: a process that dies without
          // an `exit` event (out of memory, SIGKILL) would lose what is still buffered.
          if (batched && levelNumber >= 50) flushQuietly(batched)
        },
      },
    }),
  }
  return pino(options, out)
}

/** Lines gathered up to this many bytes are written in one call (one syscall, not one per request). */
const BATCH_BYTES = 4096
/** …and never held longer than this, so a quiet server's last lines still show at once. */
const FLUSH_EVERY_MS = 500

const batchedStreams = new WeakSet<object>()

/**
 * Stdout written in batches (main uses it in production): lines gathered up to about 4 KB per
 * write, flushed at least every 500 ms, an error line at once (createLogger's hook). Elsewhere
 * each line goes out as it is logged: a developer watching the console, and tests reading a
 * server's log, see a request's line as soon as it is answered.
 */
export function batchedStdout(): pino.DestinationStream {
  const stream = pino.destination({ dest: 1, sync: false, minLength: BATCH_BYTES })
  batchedStreams.add(stream)
  setInterval(() => flushQuietly(stream), FLUSH_EVERY_MS).unref()
  return stream
}

/** Starts writing what is buffered (when a write is under way already, the next timer flush takes the rest). */
function flushQuietly(stream: ReturnType<typeof pino.destination>): void {
  try {
    stream.flush()
  } catch {
    // Destroyed at exit: pino has flushed it synchronously already.
  }
}

/** An error as the system log keeps it: name and message, and what an upstream error adds (Vipps' status and problem). */
function errorFields(error: Error, depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = { name: error.name, message: error.message }
  const extra = error as Error & { status?: unknown; lastStatus?: unknown; code?: unknown; problem?: { detail?: unknown; extraDetails?: unknown } }
  if (typeof extra.status === 'number') out.status = extra.status
  if (typeof extra.lastStatus === 'number') out.lastStatus = extra.lastStatus
  if (typeof extra.code === 'string') out.code = extra.code
  if (extra.problem && typeof extra.problem === 'object') out.problem = { detail: extra.problem.detail, extraDetails: extra.problem.extraDetails }
  if (error.cause instanceof Error && depth < 2) out.cause = errorFields(error.cause, depth + 1)
  return out
}

function serializable(value: object): Record<string, unknown> {
  if (value instanceof Error) return errorFields(value)
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value)) out[k] = v instanceof Error ? errorFields(v) : v
  return out
}
