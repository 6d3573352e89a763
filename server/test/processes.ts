/**
 * Child processes for the tests that run the product as an operator would (the standalone Vipps
 * emulator, several server instances, the built server): a free port, a spawned `node --import tsx
 * <entry>` (or `node <file>.js`) that is ready once it prints a given line, and a stop that waits
 * for the exit.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../../', import.meta.url))

/** A port nothing listens on now (the OS picks it); the server binds it a moment later. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}

export interface Started {
  child: ChildProcess
  /** Everything it printed so far (stdout and stderr), for a failing assertion's message. */
  output(): string
}

/**
 * Spawns `node --import tsx <entry>` in the repository with `env` added to this process's, and
 * resolves once its output contains `ready`; rejects if it exits first or takes longer than
 * `timeoutMs`.
 */
export const startEntry = (entry: string, env: Record<string, string>, ready: string, timeoutMs = 60_000): Promise<Started> =>
  startNode(['--import', 'tsx', entry], { ...process.env, ...env }, ready, timeoutMs)

/**
 * Spawns `node <args>` with exactly `env` (in `cwd`, the repository unless given), ready once its
 * output contains `ready`, as startEntry; the built server's test runs `dist/server/*.js` with it.
 */
export async function startNode(args: string[], env: NodeJS.ProcessEnv, ready: string, timeoutMs = 60_000, cwd = root): Promise<Started> {
  const name = args.at(-1)
  const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  const started: Started = { child, output: () => output }
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not print "${ready}" within ${timeoutMs / 1000} s:\n${output}`)), timeoutMs)
    const read = (d: Buffer) => {
      output += d.toString()
      if (output.includes(ready)) {
        clearTimeout(timer)
        resolve()
      }
    }
    child.stdout!.on('data', read)
    child.stderr!.on('data', read)
    child.once('exit', (code, signal) => {
      clearTimeout(timer)
      reject(new Error(`${name} exited (${code ?? signal}) before it was ready:\n${output}`))
    })
  })
  return started
}

/** Sends `signal` and waits for the exit; answers the exit code (null when a signal ended it). */
export function stopProcess(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode)
  return new Promise((resolve) => {
    child.once('exit', (code) => resolve(code))
    child.kill(signal)
  })
}

/** The standalone emulator (`npm run emulator`) on `port`, its state in `statePath`. */
export const startEmulator = (port: number, statePath: string): Promise<Started> =>
  startEntry(
    'server/emulator-main.ts',
    { EMULATOR_PORT: String(port), EMULATOR_STATE_PATH: statePath, LOG_LEVEL: 'warn' },
    `Vipps MobilePay emulator listening on http://localhost:${port}`,
    30_000,
  )

/** A `/_control` lever of the emulator at `emulatorUrl`, over HTTP; throws on anything but 200. */
export const emulatorControl =
  (emulatorUrl: string) =>
  async (method: 'GET' | 'POST', path: string, body?: unknown): Promise<Record<string, any>> => {
    const res = await fetch(`${emulatorUrl}/_control/${path}`, {
      method,
      headers: { 'Content-Type': 'application/json' },
      body: method === 'POST' ? JSON.stringify(body ?? {}) : undefined,
    })
    if (res.status !== 200) throw new Error(`emulator ${method} /_control/${path}: ${res.status} ${await res.text()}`)
    return (await res.json()) as Record<string, any>
  }
