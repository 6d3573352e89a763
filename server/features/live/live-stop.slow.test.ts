/**
 * The server stops with live streams open (decisions 0078, 0086): SIGTERM tells each stream
 * `stopping` and closes it, so `server.close()` waits for nothing and the stop never runs into
 * its grace time (which would log that requests were still running and cut them off).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { freePort, startEntry, stopProcess, type Started } from '../../test/processes'
import { DEMO_PASSWORD } from '../../db/seed'
import { openStream } from './test-helpers'

describe('stopping with live streams open', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bk-live-stop-'))
  let server: Started | undefined
  afterAll(async () => {
    if (server) await stopProcess(server.child, 'SIGKILL')
    rmSync(dir, { recursive: true, force: true })
  })

  it('closes every stream, saying so, and stops within the grace time', async () => {
    const port = await freePort()
    const url = `http://127.0.0.1:${port}`
    server = await startEntry(
      'server/main.ts',
      {
        PORT: String(port),
        PUBLIC_URL: url,
        DATABASE_PATH: join(dir, 'app.db'),
        MAIL_OUTBOX_DIR: join(dir, 'mail'),
        APP_ENV: 'development',
        DEMO_DATA: '1',
        DEMO_HISTORY: '0',
        LOG_LEVEL: 'info',
      },
      '"listening"',
    )
    const login = async (email: string) => {
      const res = await fetch(`${url}/api/auth/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ type: 'email', email, password: DEMO_PASSWORD }),
      })
      return ((await res.json()) as { accessToken: string }).accessToken
    }
    const streams = [await openStream((path, init) => fetch(`${url}${path}`, init), await login('admin@solgaarden.dk'))]
    streams.push(await openStream((path, init) => fetch(`${url}${path}`, init), await login('bestyrelse@solgaarden.dk')))
    await expect.poll(() => streams.every((s) => s.named('ready').length === 1)).toBe(true)

    const code = await stopProcess(server.child, 'SIGTERM')
    expect(code, server.output()).toBe(0)
    await expect.poll(() => streams.every((s) => s.ended)).toBe(true)
    for (const s of streams) expect(s.named('closed').map((e) => JSON.parse(e.data))).toEqual([{ reason: 'stopping' }])
    expect(server.output()).toContain('"stopped"')
    expect(server.output()).not.toContain('still running after the grace time')
  })
})
