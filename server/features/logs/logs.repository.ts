import { desc, or, sql, type AnyColumn } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { systemLogs } from '../../db/schema/platform'

export type LogRow = typeof systemLogs.$inferSelect

/** `column LIKE pattern` with backslash as the escape character, so `%`, `_` and `\` in a search match themselves. */
const likeEscaped = (column: AnyColumn, pattern: string) => sql`${column} LIKE ${pattern} ESCAPE '\\'`

/** Queries on the system log. */
export const logsRepository = {
  insert: async (db: Db, row: typeof systemLogs.$inferInsert): Promise<void> => {
    await db.insert(systemLogs).values(row).run()
  },

  /** Newest first; `search` matches message, source or level. */
  page: async (db: Db, skip: number, take: number, search?: string): Promise<LogRow[]> => {
    const pattern = search ? `%${search.replace(/[\\%_]/g, (m) => '\\' + m)}%` : undefined
    return await db
      .select()
      .from(systemLogs)
      .where(
        pattern ? or(likeEscaped(systemLogs.message, pattern), likeEscaped(systemLogs.source, pattern), likeEscaped(systemLogs.level, pattern)) : undefined,
      )
      .orderBy(desc(systemLogs.timestamp), desc(systemLogs.id))
      .limit(take)
      .offset(skip)
      .all()
  },
}
