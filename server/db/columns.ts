/**
 * Column builders of the SQLite schema (server/db/schema) that say more than sqlite-core can: what
 * the PostgreSQL schema, generated from it (scripts/generate-pg-schema.ts,
 * docs/decisions/0074-one-definition-per-table-and-query.md), makes of them.
 */
import { entityKind, type MakeColumnConfig } from 'drizzle-orm'
import { SQLiteInteger, SQLiteIntegerBuilder, type AnySQLiteTable, type SQLiteIntegerBuilderInitial } from 'drizzle-orm/sqlite-core'

/**
 * An integer that may pass 2³¹: an øre amount, a sum of them, a sequence number. SQLite's integer is
 * 64-bit already, so on SQLite it is `integer` (the same column, type and migrations as `integer()`);
 * on PostgreSQL it is `bigint` in `number` mode (decision 0054: far below 2⁵³, so a JavaScript
 * number). Other integers (versions, counts, positions, years) stay `integer()`, 32-bit there.
 */
export const bigInteger = <TName extends string>(name: TName): SQLiteIntegerBuilderInitial<TName> =>
  new SQLiteBigIntegerBuilder(name) as unknown as SQLiteIntegerBuilderInitial<TName>

/** What `bigInteger()` builds: SQLite's integer column, told apart by the generator of the PostgreSQL schema. */
export class SQLiteBigInteger extends SQLiteInteger<any> {
  static override readonly [entityKind]: string = 'BoligkasseSQLiteBigInteger'
}

class SQLiteBigIntegerBuilder extends SQLiteIntegerBuilder<any> {
  static override readonly [entityKind]: string = 'BoligkasseSQLiteBigIntegerBuilder'

  override build<TTableName extends string>(table: AnySQLiteTable<{ name: TTableName }>): SQLiteInteger<MakeColumnConfig<any, TTableName>> {
    return new SQLiteBigInteger(table, this.config as ConstructorParameters<typeof SQLiteBigInteger>[1])
  }
}
