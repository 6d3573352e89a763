import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { randomBytes } from 'node:crypto'
import type { Config } from '../env'

/**
 * APP_SECRET_KEY, or a key generated once into <data dir>/secret.key (encrypts provider secrets).
 * On PostgreSQL (DATABASE_URL) the key must be given: every instance must seal and open the
 * providers' secrets with the same key, and a file on one machine is not shared.
 */
export function secretKey(config: Config): string {
  if (config.appSecretKey) return config.appSecretKey
  if (config.databaseUrl)
    throw new Error('APP_SECRET_KEY is required with DATABASE_URL: every instance must use the same key (e.g. `openssl rand -base64 32`).')
  const file = resolve(dirname(resolve(config.databasePath === ':memory:' ? './data/app.db' : config.databasePath)), 'secret.key')
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600 })
  }
  return readFileSync(file, 'utf8').trim()
}
