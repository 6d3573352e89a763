import type { Config } from '../env'
import { openDatabase, type Database_ } from './client'
import { openPostgres } from './postgres'

/** The configured database: PostgreSQL with DATABASE_URL, else the SQLite file at DATABASE_PATH. */
export async function openConfiguredDatabase(config: Pick<Config, 'databaseUrl' | 'databasePath' | 'databasePoolSize'>): Promise<Database_> {
  return config.databaseUrl ? await openPostgres(config.databaseUrl, { max: config.databasePoolSize }) : openDatabase(config.databasePath)
}
