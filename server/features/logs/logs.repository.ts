import { desc, like, or } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { systemLogs } from '../../db/schema/platform'

export type LogRow = typeof systemLogs.$inferSelect

/** Queries on the system log. */
export const logsRepository = {
  insert: (db: Db, row: typeof systemLogs.$inferInsert): void => {
    db.insert(systemLogs).values(row).run()
  },

  /** Newest first; `search` matches message, source or level. */
  page: (db: Db, skip: number, take: number, search?: string): LogRow[] => {
    const pattern = search ? `%${search.replace(/[\\%_]/g, (m) => '\\' + m)}%` : undefined
    return db
      .select()
      .from(systemLogs)
      .where(pattern ? or(like(systemLogs.message, pattern), like(systemLogs.source, pattern), like(systemLogs.level, pattern)) : undefined)
      .orderBy(desc(systemLogs.timestamp), desc(systemLogs.id))
      .limit(take)
      .offset(skip)
      .all()
  },
}
