import { defineConfig } from 'drizzle-kit'

/**
 * The PostgreSQL schema (docs/decisions/0054-postgresql-schema-beside-sqlite.md): its migrations are
 * generated into drizzle/pg by `npm run db:generate:pg`, beside SQLite's in drizzle/.
 */
export default defineConfig({
  dialect: 'postgresql',
  schema: './server/db/schema-pg/*.ts',
  out: './drizzle/pg',
})
