import { sql } from 'drizzle-orm'
import { engineOf, type Db } from '../../db/client'

/** A text column of the live schema, and whether PostgreSQL stores it as JSON (compared through `::text`). */
export interface TextColumn {
  table: string
  column: string
  json: boolean
}

/**
 * Every text (and JSON) column of every table, read from the database itself (`sqlite_master` and
 * `pragma_table_info`, or PostgreSQL's `information_schema`), never from a hand-kept list: a table
 * added later is covered by the erase's sweep and by the scan test without anyone remembering it
 * (decision 0069). SQLite's internal tables and the search index's shadow tables are left out
 * (the index follows `articles` through its triggers).
 */
export async function textColumns(db: Db): Promise<TextColumn[]> {
  const rows =
    engineOf(db) ?
      await db.values<[string, string, string]>(
        sql`SELECT table_name, column_name, data_type FROM information_schema.columns
            WHERE table_schema = current_schema() AND data_type IN ('text', 'character varying', 'json', 'jsonb')
            ORDER BY table_name, ordinal_position`,
      )
    : await db.values<[string, string, string]>(
        sql`SELECT m.name, p.name, upper(p.type) FROM sqlite_master m JOIN pragma_table_info(m.name) p
            WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%'
              AND m.name NOT LIKE '__drizzle%' AND (upper(p.type) LIKE '%TEXT%' OR upper(p.type) LIKE '%CHAR%' OR p.type = '')
            ORDER BY m.name, p.cid`,
      )
  return rows.filter(([table]) => !table.startsWith('__drizzle')).map(([table, column, type]) => ({ table, column, json: type === 'json' || type === 'jsonb' }))
}

/** `column` as text, for comparing on either engine. */
export const asText = (c: TextColumn) => (c.json ? `"${c.column}"::text` : `"${c.column}"`)
