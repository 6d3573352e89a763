import { lt, or, isNotNull } from 'drizzle-orm'
import type { Db } from '../db/client'
import { idempotencyKeys } from '../db/schema/platform'
import { passwordResets, sessions } from '../db/schema/users'
import type { Clock } from '../lib/clock'
import { compactChangeLog } from '../features/sync/change-log'
import type { Job } from './runner'

const DAY = 24 * 60 * 60 * 1000
/** Sync clients offline longer than this get `reset` and pull a fresh copy. */
export const CHANGE_LOG_RETENTION_DAYS = 30
/** docs/API.md: Idempotency keys are kept at least 30 days. */
export const IDEMPOTENCY_RETENTION_DAYS = 35

const ago = (clock: Clock, days: number) => new Date(clock.now().getTime() - days * DAY).toISOString()

/**
 * Clean-up every six hours: old change-log entries, idempotency keys, ended sessions, used reset
 * links, and with `sweepFiles` (the messages' and documents' services') stored files no row refers to any more.
 */
export function housekeepingJob(db: Db, clock: Clock, sweepFiles?: () => Promise<number>): Job {
  return {
    name: 'housekeeping',
    everyMs: 6 * 60 * 60 * 1000,
    async run() {
      await compactChangeLog(db, ago(clock, CHANGE_LOG_RETENTION_DAYS))
      await db
        .delete(idempotencyKeys)
        .where(lt(idempotencyKeys.createdAt, ago(clock, IDEMPOTENCY_RETENTION_DAYS)))
        .run()
      await db
        .delete(sessions)
        .where(or(lt(sessions.expiresAt, ago(clock, 1)), lt(sessions.revokedAt, ago(clock, 1))))
        .run()
      await db
        .delete(passwordResets)
        .where(or(lt(passwordResets.expiresAt, ago(clock, 1)), isNotNull(passwordResets.usedAt)))
        .run()
      await sweepFiles?.()
    },
  }
}
