import type { z } from 'zod'
import { outsideTransaction, type Db } from '../../db/client'
import type { Clock } from '../../lib/clock'
import type { WriteLock } from '../../lib/write-lock'
import { newId } from '../../lib/ids'
import { MAX_LOG_CONTEXT, MAX_LOG_MESSAGE, type CreateLogRequest, type LogEntry, type LogLevel } from '../../../shared/contract/logger'
import type { Actor } from '../../access/actor'
import { assertCan } from '../../access/policy'
import { logsRepository, type LogRow } from './logs.repository'

export type LogsService = ReturnType<typeof createLogsService>

/** Context is kept as JSON text, cut to a safe length so a client cannot fill the disk. */
function contextText(context: unknown): string | null {
  if (context === undefined || context === null) return null
  const text = JSON.stringify(context)
  return text.length > MAX_LOG_CONTEXT ? JSON.stringify(text.slice(0, MAX_LOG_CONTEXT)) : text
}

const view = (row: LogRow): LogEntry => ({
  id: row.id,
  timestamp: row.timestamp,
  level: row.level,
  source: row.source,
  message: row.message,
  context: row.context === null ? null : JSON.parse(row.context),
})

/** The system log of /logs: client error reports and the server's warnings and errors. */
export function createLogsService(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps

  async function write(level: LogLevel, source: string, message: string, context: unknown, userId: string | null): Promise<void> {
    await logsRepository.insert(db, {
      id: newId(),
      timestamp: clock.now().toISOString(),
      level,
      source,
      message: message.slice(0, MAX_LOG_MESSAGE),
      context: contextText(context),
      userId,
    })
  }

  return {
    write,
    /** `write` outside any transaction in progress (server/db/client.ts `outsideTransaction`). */
    writeApart: (level: LogLevel, source: string, message: string, context: unknown, userId: string | null): Promise<void> =>
      outsideTransaction(db, () => write(level, source, message, context, userId)),

    /** A signed-in client reports an error or a warning. */
    async report(actor: Actor, entry: z.output<typeof CreateLogRequest>): Promise<void> {
      assertCan(actor, 'logs:write')
      await write(entry.level, 'client', entry.message, entry.context, actor.userId)
    },

    async list(actor: Actor, skip: number, take: number, search?: string): Promise<LogEntry[]> {
      assertCan(actor, 'logs:read')
      return (await logsRepository.page(db, skip, take, search || undefined)).map(view)
    },
  }
}

/**
 * Where the logger copies warnings and errors (server/logger.ts): the system log, written under
 * the write lock after whatever holds it (a request's transaction that rolls back keeps its entry).
 */
export const systemLogSink =
  (logs: LogsService, lock: WriteLock) =>
  (level: 'WARN' | 'ERROR', message: string, context: unknown): void =>
    // Outside the request's transaction on PostgreSQL too (no serial lock there); a log entry
    // that cannot be written is lost, never the process (its line is on stdout already).
    void lock.run(() => logs.writeApart(level, 'server', message, context, null)).catch(() => undefined)
