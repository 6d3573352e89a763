/**
 * drizzle's SQLite dialect rendering PostgreSQL's spelling where the two differ for the queries the
 * repositories build (docs/decisions/0074-one-definition-per-table-and-query.md). The repositories
 * are written once, against the sqlite-core schema (decision 0057); on PostgreSQL their builders
 * render through this dialect (server/db/pg-executor.ts), so each query's text is PostgreSQL's
 * when drizzle makes it, and nothing rewrites SQL text afterwards.
 *
 * Two renderings differ, both at drizzle's own override points:
 *
 * - parameters are `$1, $2, …` (`escapeParam`, as pg-core's dialect has it), not `?`;
 * - a conflict target names bare columns (`on conflict ("id")`). sqlite-core's insert builder
 *   puts the target's columns into the clause as columns, which every SQLite-dialect rendering
 *   qualifies with their table (`"t"."id"`): SQLite takes that, PostgreSQL does not. pg-core's
 *   builder writes bare names; `buildInsertQuery` here does the same with the clause it is given.
 *
 * Everything else drizzle's SQLite dialect writes is also PostgreSQL (double-quoted names,
 * `returning`, `limit`/`offset`, `excluded.`, joins, aggregates): the executor's parity test runs
 * every construct the repositories use on both engines (server/db/pg-executor.slow.test.ts).
 */
import { Column, entityKind, is, sql, SQL, StringChunk } from 'drizzle-orm'
import { SQLiteAsyncDialect, type SQLiteInsertConfig } from 'drizzle-orm/sqlite-core'

export class SqliteDialectForPostgres extends SQLiteAsyncDialect {
  static override readonly [entityKind]: string = 'BoligkasseSqliteDialectForPostgres'

  /** PostgreSQL's numbered parameters (drizzle counts from 0). Called unbound by drizzle: no `this`. */
  override escapeParam(num: number): string {
    return `$${num + 1}`
  }

  override buildInsertQuery(config: SQLiteInsertConfig): SQL {
    return super.buildInsertQuery(config.onConflict ? { ...config, onConflict: config.onConflict.map(withBareTarget) } : config)
  }
}

const text = (chunk: unknown): string | undefined => (is(chunk, StringChunk) ? chunk.value.join('') : undefined)

/**
 * One `on conflict …` clause as sqlite-core's insert builder makes it, with its target's columns
 * named bare: ` on conflict ` then the target (an SQL of one list of columns), then the rest; or
 * ` on conflict do nothing` without a target. Any other shape (a drizzle upgrade that builds the
 * clause otherwise) fails every such insert at once, rather than sending what PostgreSQL refuses.
 */
function withBareTarget(clause: SQL): SQL {
  const [opening, target, ...rest] = clause.queryChunks
  if (text(opening) === ' on conflict do nothing' && target === undefined) return clause
  if (text(opening) !== ' on conflict ' || !is(target, SQL))
    throw new Error(`An ON CONFLICT clause drizzle built in a shape not known here: ${describe(clause)}`)
  const bare = target.queryChunks.map((chunk) => {
    if (text(chunk) === '') return chunk
    if (!Array.isArray(chunk) || !chunk.every((c) => is(c, Column)))
      throw new Error(`A conflict target drizzle built in a shape not known here: ${describe(clause)}`)
    return (chunk as Column[]).map((column) => sql.identifier(column.name))
  })
  return new SQL([opening, new SQL(bare), ...rest])
}

const describe = (clause: SQL) => new SqliteDialectForPostgres().sqlToQuery(clause).sql
