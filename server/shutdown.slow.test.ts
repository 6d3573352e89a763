/**
 * A server that always stops (docs/decisions/0078): the real server, its stdout a pipe that nobody
 * reads after the start (a stalled log shipper), answers 3,000 requests, and a SIGTERM or SIGINT
 * still ends it within 10 s; the log lines that did not fit in its bounded buffer are dropped and
 * counted, and the buffer never held more than its limit (LOG_BUFFER_KB).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { freePort } from './test/processes'

const root = fileURLToPath(new URL('..', import.meta.url))
/** What the product promises: stopped within this long after the signal, whatever its stdout does. */
const STOPS_WITHIN_MS = 10_000
const LOG_BUFFER_KB = 64

interface LastWord {
  msg: string
  dropped: number
  lost: number
  peakBytes: number
  limitBytes: number
}

/** The server on a new SQLite file; resolves once its stdout said "listening", after which nobody reads its stdout. */
async function startStalled(appEnv: 'production' | 'test', dir: string) {
  const port = await freePort()
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      APP_ENV: appEnv,
      PORT: String(port),
      DATABASE_PATH: join(dir, 'app.db'),
      MAIL_OUTBOX_DIR: join(dir, 'mail'),
      APP_SECRET_KEY: 'shutdown-test-secret-key-0123456789abcdef',
      DEMO_DATA: '0',
      LOG_LEVEL: 'info',
      LOG_BUFFER_KB: String(LOG_BUFFER_KB),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stderr = ''
  child.stderr.setEncoding('utf8')
  child.stderr.on('data', (d: string) => (stderr += d))
  await new Promise<void>((resolve, reject) => {
    let out = ''
    const read = (d: Buffer) => {
      out += d.toString()
      if (!out.includes('"msg":"listening"')) return
      // From here on nobody reads: the pipe fills, and then the server's own buffer.
      child.stdout.off('data', read)
      child.stdout.pause()
      resolve()
    }
    child.stdout.on('data', read)
    child.once('exit', (code, signal) => reject(new Error(`the server exited (${code ?? signal}) before it listened:\n${out}\n${stderr}`)))
  })
  return { child, base: `http://127.0.0.1:${port}`, stderr: () => stderr }
}

/** 3,000 requests, 16 at a time on keep-alive connections; answers the statuses seen. */
async function requests(base: string, count: number): Promise<Map<number, number>> {
  const statuses = new Map<number, number>()
  let next = 0
  const worker = async () => {
    while (next < count) {
      next += 1
      const res = await fetch(`${base}/api/health`)
      await res.arrayBuffer()
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1)
    }
  }
  await Promise.all(Array.from({ length: 16 }, worker))
  return statuses
}

/**
 * A request under way that never ends: a sign-in whose body stops half-way (a client gone quiet).
 * Resolves once the server has the request (the socket is open and the head sent).
 */
function requestThatNeverEnds(base: string) {
  const url = new URL(base)
  return new Promise<void>((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => {
      socket.write(
        `POST /api/auth/login HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"email":"beboer01@`,
        () => resolve(),
      )
    })
    socket.on('error', () => undefined)
    socket.once('error', reject)
  })
}

/** Sends `signal`; answers how the process ended, or 'still running' if it had not after STOPS_WITHIN_MS. */
function stop(child: ChildProcess, signal: NodeJS.Signals) {
  return new Promise<{ code: number | null; afterMs: number } | 'still running'>((resolve) => {
    const sent = Date.now()
    const timer = setTimeout(() => resolve('still running'), STOPS_WITHIN_MS)
    child.once('exit', (code) => {
      clearTimeout(timer)
      resolve({ code, afterMs: Date.now() - sent })
    })
    child.kill(signal)
  })
}

describe('a server whose log nobody reads', () => {
  let child: ChildProcess | undefined
  let dir = ''

  afterEach(() => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    child = undefined
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  it.each([
    ['production', 'SIGTERM', 'nothing'],
    ['test', 'SIGINT', 'a request that never ends'],
  ] as const)(
    'stops within 10 s after 3,000 requests (APP_ENV=%s, %s, %s under way), its log buffer bounded',
    async (appEnv, signal, underWay) => {
      dir = mkdtempSync(join(tmpdir(), 'bk-shutdown-'))
      const server = await startStalled(appEnv, dir)
      child = server.child
      // Logging never holds a request: every one is answered though its log line cannot be written.
      expect(await requests(server.base, 3000)).toEqual(new Map([[200, 3000]]))
      // Left after the grace time (main.ts): the exit does not wait for it either.
      if (underWay !== 'nothing') await requestThatNeverEnds(server.base)

      const ended = await stop(server.child, signal)
      expect(ended, server.stderr()).not.toBe('still running')
      expect(ended).toMatchObject({ code: 0 })
      // The last word on stderr: what stdout's log dropped, and the most it ever held.
      const lastWord = server
        .stderr()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as LastWord)
        .find((l) => l.msg === 'log lines dropped: stdout was not read')
      expect(lastWord, server.stderr()).toBeDefined()
      expect(lastWord!.limitBytes).toBe(LOG_BUFFER_KB * 1024)
      expect(lastWord!.peakBytes).toBeLessThanOrEqual(LOG_BUFFER_KB * 1024)
      expect(lastWord!.dropped).toBeGreaterThan(0)
      // SHUTDOWN_FIGURES=1 prints how long the stop took and what the buffer held (for the record, not asserted).
      if (process.env.SHUTDOWN_FIGURES === '1') process.stderr.write(`${appEnv} ${signal}: ${JSON.stringify({ ...(ended as object), ...lastWord })}\n`)
    },
    120_000,
  )
})
