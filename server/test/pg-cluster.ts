/**
 * A throw-away PostgreSQL cluster for tests (docs/decisions/0054-postgresql-schema-beside-sqlite.md):
 * `initdb` in a temporary directory, the server listening only on a unix socket in that
 * (private) directory, numbered with a free port, `stop()` stops it and removes the directory. Needs the server
 * binaries (Debian's `postgresql` package: /usr/lib/postgresql/<version>/bin, not on PATH), not a
 * running service.
 *
 * PostgreSQL refuses to run as root, and tests run as root in CI: then initdb and the server run
 * as the `postgres` OS user (`runuser`), which owns the directory.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { freePort } from './processes'

export interface PgCluster {
  /** `postgres://postgres@/postgres?host=<socket dir>&port=<port>`: the cluster's superuser, no password (trust, on a socket in a private directory only). */
  url: string
  /** The URL of a database of the cluster by name (it need not exist yet). */
  urlFor(database: string): string
  /** A URL to a new, empty database of the cluster (created from template0, so in byte order like the cluster). */
  createDatabase(name: string): Promise<string>
  /** Stops the server (immediate shutdown: nothing in it is kept) and removes its directory. */
  stop(): Promise<void>
}

/**
 * The directory holding `initdb`, `pg_ctl` and `postgres`: `PG_BIN` if set, else where `initdb`
 * is on PATH, else the newest /usr/lib/postgresql/<version>/bin; undefined when none holds them.
 */
export function postgresBinDir(): string | undefined {
  // An explicit PG_BIN is the only place looked at, so it can also say "none" (PG_BIN=/nonexistent).
  const candidates = process.env.PG_BIN ? [process.env.PG_BIN] : [...(process.env.PATH ?? '').split(':'), ...debianBinDirs()].filter((d) => !!d)
  return candidates.find((dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl')) && existsSync(join(dir, 'postgres')))
}

function debianBinDirs(): string[] {
  const root = '/usr/lib/postgresql'
  if (!existsSync(root)) return []
  return readdirSync(root)
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => Number(b) - Number(a))
    .map((v) => join(root, v, 'bin'))
}

/** Runs `fn` on one connection to `url` (a database server's maintenance database: CREATE/DROP DATABASE), closed afterwards. */
export async function onServer<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return await fn(client)
  } finally {
    await client.end()
  }
}

/** Starts a new cluster; throws if the binaries are missing or the server does not start. */
export async function startPgCluster(): Promise<PgCluster> {
  const bin = postgresBinDir()
  if (!bin) throw new Error('PostgreSQL server binaries (initdb, pg_ctl, postgres) not found: install Debian\'s "postgresql" or set PG_BIN')
  const asRoot = process.getuid?.() === 0
  const owner = asRoot ? postgresUser() : undefined
  const dir = mkdtempSync(join(tmpdir(), 'bk-pg-'))
  if (owner) chownSync(dir, owner.uid, owner.gid)
  const data = join(dir, 'data')
  const run = (tool: string, args: string[]) => {
    const [command, ...rest] = asRoot ? ['runuser', '-u', 'postgres', '--', join(bin, tool), ...args] : [join(bin, tool), ...args]
    // cwd: the postgres user may not be allowed into the caller's working directory.
    execFileSync(command!, rest, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] })
  }
  let started = false
  const stopNow = () => {
    if (started) {
      started = false
      const args = ['stop', '-D', data, '-m', 'immediate', '-w']
      spawnSync(asRoot ? 'runuser' : join(bin, 'pg_ctl'), asRoot ? ['-u', 'postgres', '--', join(bin, 'pg_ctl'), ...args] : args, { cwd: dir, stdio: 'ignore' })
    }
    rmSync(dir, { recursive: true, force: true })
  }
  // A test process that ends without calling stop() (a failed hook, Ctrl-C) leaves no server behind.
  process.once('exit', stopNow)
  try {
    // C locale: text in byte order as on SQLite (drizzle/pg/0001_text_in_byte_order.sql refuses anything else).
    // No fsync: the cluster is thrown away, and durability costs seconds on a loaded CI machine.
    run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync'])
    const port = await freePort()
    const options = [
      `-p ${port}`,
      `-k ${dir}`,
      // A unix socket in the private (0700) directory only: no other local user can reach this
      // superuser-without-password cluster, as they could on a loopback port.
      "-c listen_addresses=''",
      '-c fsync=off',
      '-c synchronous_commit=off',
      '-c full_page_writes=off',
      '-c max_connections=200',
    ]
    try {
      run('pg_ctl', ['start', '-D', data, '-l', join(dir, 'server.log'), '-w', '-t', '60', '-o', options.join(' ')])
    } catch (error) {
      const log = existsSync(join(dir, 'server.log')) ? readFileSync(join(dir, 'server.log'), 'utf8') : ''
      throw new Error(`PostgreSQL did not start on port ${port}: ${log.slice(-2000)}`, { cause: error })
    }
    started = true
    const urlOf = (database: string) => `postgres://postgres@/${database}?host=${encodeURIComponent(dir)}&port=${port}`
    const url = urlOf('postgres')
    return {
      url,
      urlFor: urlOf,
      async createDatabase(name) {
        if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain database name: ${name}`)
        await onServer(url, (c) => c.query(`CREATE DATABASE ${name} TEMPLATE template0`))
        return urlOf(name)
      },
      async stop() {
        process.removeListener('exit', stopNow)
        stopNow()
      },
    }
  } catch (error) {
    process.removeListener('exit', stopNow)
    stopNow()
    throw error
  }
}

function postgresUser(): { uid: number; gid: number } {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'))
  if (!line) throw new Error('running as root, PostgreSQL needs the "postgres" OS user (created by Debian\'s "postgresql" package)')
  const [, , uid, gid] = line.split(':')
  return { uid: Number(uid), gid: Number(gid) }
}
