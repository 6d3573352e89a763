/**
 * The server runs as built JavaScript (docs/decisions/0075): the build of scripts/build-server.ts,
 * started as `npm start` starts it — plain `node`, no TypeScript loader, from another folder —
 * migrates a new SQLite file, seeds the demo, prints the logins, answers /api/health, and finds
 * the files it reads at run time (server catalogs, address sample). The production scripts in
 * package.json run these files, never tsx.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort, startNode, stopProcess, type Started } from '../server/test/processes'
import { DEMO_LOGIN_TOKEN } from '../server/db/seed'
import { buildServer, serverEntries } from './build-server'

const root = fileURLToPath(new URL('..', import.meta.url))
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string>; dependencies: Record<string, string> }

/** The production scripts and the built file each runs. */
const productionScripts = {
  start: 'main',
  serve: 'main',
  billing: 'billing-once',
  backup: 'backup',
  'db:copy-to-postgres': 'copy-to-postgres',
  emulator: 'emulator-main',
} as const

/** Only what the server needs: no NODE_OPTIONS (a loader could hide there) and nothing of vitest's. */
const plainEnv = (extra: Record<string, string>): NodeJS.ProcessEnv => ({ PATH: process.env.PATH, HOME: process.env.HOME, ...extra })

describe('the built server', () => {
  let outdir = ''
  let dataDir = ''
  let server: Started | undefined
  let base = ''

  beforeAll(async () => {
    // In the checkout (its root is found from the built file; dist/ is left out of git, ESLint and
    // prettier) but beside dist/server: a server started from there keeps running while this builds.
    mkdirSync(join(root, 'dist'), { recursive: true })
    outdir = mkdtempSync(join(root, 'dist', 'server-test-'))
    dataDir = mkdtempSync(join(tmpdir(), 'bk-built-server-'))
    await buildServer(outdir)
    const port = await freePort()
    base = `http://localhost:${port}`
    server = await startNode(
      ['--enable-source-maps', join(outdir, 'main.js')],
      plainEnv({
        PORT: String(port),
        PUBLIC_URL: base,
        DATABASE_PATH: join(dataDir, 'app.db'),
        MAIL_OUTBOX_DIR: join(dataDir, 'mail'),
        // The demo's three months of charges take the longest part of a start; billing is tested elsewhere.
        DEMO_HISTORY: '0',
        LOG_LEVEL: 'warn',
      }),
      'Vipps MobilePay: built-in emulator',
      45_000,
      dataDir,
    )
  }, 90_000)

  afterAll(async () => {
    if (server) await stopProcess(server.child)
    if (outdir) rmSync(outdir, { recursive: true, force: true })
    if (dataDir) rmSync(dataDir, { recursive: true, force: true })
  })

  it('is one JavaScript file per command with a source map, importing no TypeScript', () => {
    const files = readdirSync(outdir, { recursive: true, encoding: 'utf8' })
    for (const name of Object.keys(serverEntries)) expect(files).toEqual(expect.arrayContaining([`${name}.js`, `${name}.js.map`]))
    for (const file of files.filter((f) => f.endsWith('.js'))) {
      const code = readFileSync(join(outdir, file), 'utf8')
      expect(code, file).not.toMatch(/from\s*["']tsx|from\s*["'][^"']+\.tsx?["']/)
    }
  })

  it('migrates a new SQLite file, seeds the demo and prints the logins, as npm start does', () => {
    const printed = server!.output()
    expect(printed).toContain(`Boligkasse is running on ${base}`)
    expect(printed).toContain('superadmin@boligkasse.dk')
    expect(printed).toContain('Gaardlaug-2025')
    expect(printed).toContain(`built-in emulator at ${base}/vipps-emulator`)
    expect(existsSync(join(dataDir, 'app.db'))).toBe(true)
  })

  it('answers /api/health', async () => {
    const res = await fetch(`${base}/api/health`)
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ status: 'ok', db: 'ok', engine: 'sqlite' })
  })

  it('finds the server catalogs and the address sample from the built file', async () => {
    // npm run test:slow compiles the catalogs first (server/i18n/locales/*.json).
    const notFound = await fetch(`${base}/api/no-such-route`, { headers: { 'Accept-Language': 'da' } })
    expect(((await notFound.json()) as { message: string }).message).toBe('Ikke fundet.')
    const login = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ type: 'token', token: DEMO_LOGIN_TOKEN }),
    })
    const { accessToken } = (await login.json()) as { accessToken: string }
    const addresses = await fetch(`${base}/api/address-search?q=2200`, { headers: { Authorization: `Bearer ${accessToken}` } })
    expect(addresses.status).toBe(200)
    expect(((await addresses.json()) as unknown[]).length).toBeGreaterThan(0)
  })

  it('backs the running database up with the built backup command', () => {
    const target = join(dataDir, 'copy.db')
    const out = execFileSync(process.execPath, ['--enable-source-maps', join(outdir, 'backup.js'), target], {
      cwd: dataDir,
      env: plainEnv({ DATABASE_PATH: join(dataDir, 'app.db') }),
      encoding: 'utf8',
    })
    expect(out).toContain('integrity ok')
    expect(existsSync(target)).toBe(true)
  })

  it('is what the production scripts run, without tsx, which is a devDependency only', () => {
    for (const [script, entry] of Object.entries(productionScripts)) {
      expect(pkg.scripts[script], script).toContain(`node --enable-source-maps dist/server/${entry}.js`)
      expect(pkg.scripts[script], script).not.toContain('tsx')
    }
    expect(pkg.scripts.build).toContain('npm run build:server')
    expect(pkg.dependencies).not.toHaveProperty('tsx')
  })
})
