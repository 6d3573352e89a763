import { writeSync } from 'node:fs'
import pino, { type Logger } from 'pino'

/**
 * Structured logs (pino, JSON lines) to stdout. Warnings and errors are also copied to the
 * system log shown on /logs through `sink`, which main wires to the logs service.
 *
 * Without a `destination` the lines go to stdout through a bounded buffer (`stdoutLog`,
 * docs/decisions/0078-a-server-that-always-stops.md): a request never waits for its log line, a
 * stdout nobody reads (a stalled log shipper, a closed pipe) costs at most the buffer's bytes of
 * memory and then dropped lines with a count, and the exit never waits for it longer than a second.
 * With `batchedStdout()` (production) lines are also gathered into writes of about 4 KB (a write
 * per request cost 7 % of a write request's CPU in bench/api.ts) and flushed at least twice a
 * second; an error line is flushed at once.
 * What is still buffered is written when the process exits, whatever the reason, as long as stdout
 * takes it within a second (main's shutdown and a crash lose nothing a reader wants).
 * Tests pass their own destination, which is written synchronously.
 */
export function createLogger(
  level: string,
  sink?: (level: 'WARN' | 'ERROR', message: string, context: unknown) => void,
  destination?: pino.DestinationStream,
): Logger {
  const out = destination ?? stdoutLog()
  const batched = out instanceof BoundedLogStream ? out : undefined
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
          if (batched && levelNumber >= 50) batched.flush()
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
/** At most this many bytes of log lines wait in memory for stdout (LOG_BUFFER_KB); beyond them lines are dropped and counted. */
export const DEFAULT_LOG_BUFFER_BYTES = 1024 * 1024
/** When stdout takes nothing (EAGAIN), the next try comes this much later. */
const RETRY_MS = 100
/** At exit, what is still buffered may take this long to be written; then it is given up (the exit never waits for a reader). */
const EXIT_FLUSH_MS = 1000
/** One write call takes at most this much of the buffer. */
const MAX_WRITE = 64 * 1024

export interface LogStreamOptions {
  /** Writes what it can of `chunk` now, without waiting; answers how many bytes it took, or throws EAGAIN when none fit. */
  write: (chunk: Buffer) => number
  /** The most bytes held while the output does not take them (default 1 MiB). */
  limitBytes?: number
  /** 0 (default): each line is written as it is logged; otherwise lines wait until this many bytes are gathered (or `flush()`). */
  batchBytes?: number
  /** Where a retry after EAGAIN is scheduled (default: an unref'd timer, RETRY_MS later); tests call `flush()` themselves. */
  retryLater?: (retry: () => void) => void
}

/**
 * A log destination that never blocks and never grows without limit (docs/decisions/0078): lines
 * wait in memory, at most `limitBytes`, for an output that takes what it can without waiting
 * (stdout made non-blocking). When a line does not fit, it and every line after it are dropped and
 * counted until the output has taken everything buffered; then one line says how many were dropped
 * (`"msg":"log lines dropped"`, `"dropped":n`), so the gap shows in the log where it happened.
 * An output that is gone for good (EPIPE: the reader closed the pipe) drops everything from then on.
 */
export class BoundedLogStream {
  /** Lines dropped since the start (the buffer was full, or the output is gone). */
  dropped = 0
  /** Lines still unwritten when the exit gave up on them. */
  lost = 0
  /** The most bytes ever buffered at once. */
  peakBytes = 0
  readonly limitBytes: number
  readonly batchBytes: number
  /** The file descriptor written to, when it is one (stdout: 1). */
  fd: number | undefined
  private lines: Buffer[] = []
  private bytes = 0
  private droppedSinceDrain = 0
  private gone = false
  private retrying = false

  constructor(private readonly options: LogStreamOptions) {
    this.limitBytes = options.limitBytes ?? DEFAULT_LOG_BUFFER_BYTES
    this.batchBytes = options.batchBytes ?? 0
  }

  /** The bytes waiting now. */
  get bufferedBytes(): number {
    return this.bytes
  }

  write(line: string): void {
    const bytes = Buffer.from(line)
    if (this.gone || this.droppedSinceDrain > 0 || this.bytes + bytes.length > this.limitBytes) {
      this.droppedSinceDrain += this.gone ? 0 : 1
      this.dropped += 1
      return
    }
    this.push(bytes)
    if (this.bytes >= this.batchBytes && !this.retrying) this.flush()
  }

  /**
   * Writes what the output takes now; answers whether the buffer is empty. Once it is, after lines
   * were dropped, the line saying how many goes out first.
   */
  flush(): boolean {
    for (;;) {
      while (this.bytes > 0) {
        const chunk = this.next()
        let written: number
        try {
          written = this.options.write(chunk)
        } catch (err) {
          const code = (err as NodeJS.ErrnoException).code
          if (code === 'EAGAIN' || code === 'EWOULDBLOCK') return this.retry()
          // EPIPE, EBADF …: nobody will read what is buffered or logged from now on.
          this.dropped += this.discard()
          this.droppedSinceDrain = 0
          this.gone = true
          return true
        }
        this.consume(written)
        if (written === 0) return this.retry()
      }
      if (this.droppedSinceDrain === 0 || this.gone) return true
      const note = { level: 40, time: Date.now(), msg: 'log lines dropped', dropped: this.droppedSinceDrain, limitBytes: this.limitBytes }
      this.droppedSinceDrain = 0
      this.push(Buffer.from(JSON.stringify(note) + '\n'))
    }
  }

  /**
   * At exit: writes what is buffered, waiting for the output at most `ms` (the exit must not hang
   * on a reader that never comes); what is left then is counted in `lost`.
   */
  flushAtExit(ms = EXIT_FLUSH_MS): void {
    const deadline = Date.now() + ms
    while (!this.flush() && Date.now() < deadline) sleepSync(10)
    this.lost += this.discard()
  }

  /** Empties the buffer; answers how many lines (or their ends) were in it. */
  private discard(): number {
    let count = 0
    for (const chunk of this.lines) for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) count += 1
    this.lines = []
    this.bytes = 0
    return count
  }

  private push(bytes: Buffer) {
    this.lines.push(bytes)
    this.bytes += bytes.length
    if (this.bytes > this.peakBytes) this.peakBytes = this.bytes
  }

  /** The next write: the first lines, up to MAX_WRITE bytes (at least one line). */
  private next(): Buffer {
    if (this.lines.length === 1 || this.lines[0]!.length >= MAX_WRITE) return this.lines[0]!
    let size = 0
    let count = 0
    while (count < this.lines.length && size + this.lines[count]!.length <= MAX_WRITE) size += this.lines[count++]!.length
    const chunk = Buffer.concat(this.lines.slice(0, count), size)
    this.lines.splice(0, count, chunk)
    return chunk
  }

  /** Forgets the first `written` bytes (the first chunk, or its start). */
  private consume(written: number) {
    if (written <= 0) return
    const first = this.lines[0]!
    if (written >= first.length) this.lines.shift()
    else this.lines[0] = first.subarray(written)
    this.bytes -= Math.min(written, first.length)
  }

  private retry(): false {
    if (!this.retrying) {
      this.retrying = true
      const again = () => {
        this.retrying = false
        this.flush()
      }
      if (this.options.retryLater) this.options.retryLater(again)
      else setTimeout(again, RETRY_MS).unref()
    }
    return false
  }
}

function sleepSync(ms: number) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)
}

/**
 * Stdout as a BoundedLogStream. A pipe or socket is made non-blocking first (Node's own stdout
 * stream does that when it is first touched): a blocking write to a pipe nobody reads would stop
 * the process for good, even its exit (docs/decisions/0078). At exit what is buffered is written
 * (a second at most) and, if lines were dropped or lost, one line on stderr says how many.
 */
export function stdoutLog(options: { batchBytes?: number; limitBytes?: number } = {}): BoundedLogStream {
  void process.stdout
  const stream = new BoundedLogStream({ write: (chunk) => writeSync(1, chunk), ...options })
  stream.fd = 1
  process.once('exit', () => {
    stream.flushAtExit()
    if (stream.dropped || stream.lost) lastWord(stream)
  })
  return stream
}

/** What stdout's log lost, on stderr, without waiting for it either. */
function lastWord(stream: BoundedLogStream) {
  void process.stderr
  const { dropped, lost, peakBytes, limitBytes } = stream
  try {
    writeSync(2, JSON.stringify({ level: 40, time: Date.now(), msg: 'log lines dropped: stdout was not read', dropped, lost, peakBytes, limitBytes }) + '\n')
  } catch {
    // Stderr is not read either: nothing more can be said.
  }
}

/**
 * Stdout written in batches (main uses it in production): lines gathered up to about 4 KB per
 * write, flushed at least every 500 ms, an error line at once (createLogger's hook). Elsewhere
 * each line goes out as it is logged: a developer watching the console, and tests reading a
 * server's log, see a request's line as soon as it is answered.
 */
export function batchedStdout(limitBytes?: number): BoundedLogStream {
  const stream = stdoutLog({ batchBytes: BATCH_BYTES, limitBytes })
  setInterval(() => stream.flush(), FLUSH_EVERY_MS).unref()
  return stream
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
