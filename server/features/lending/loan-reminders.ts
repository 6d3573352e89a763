import { transaction, type Db } from '../../db/client'
import { newId } from '../../lib/ids'
import type { Clock } from '../../lib/clock'
import { reminderKinds, reminderTimes } from '../../../shared/domain/lending'
import type { NoticesService } from '../notifications'
import { lendingRepository as repo } from './lending.repository'
import { loanNotices } from './loan-notices'

/** Reminders sent per job run (the rest next run). */
const BATCH = 200
const LATE_MS = 12 * 3_600_000

/** Plans (or moves, while unsent) a handed-over loan's three reminders, in the caller's transaction. */
export async function planReminders(db: Db, loanId: string, toDate: string, at: string) {
  const times = reminderTimes(toDate)
  await repo.planReminders(
    db,
    reminderKinds.map((kind) => ({ id: newId(), loanId, kind, dueAt: times[kind], createdAt: at })),
  )
}

/**
 * The `lending` job (server/main.ts): sends each due reminder once, each in its own transaction where
 * it is claimed first (several instances, a crash between claim and commit: the claim rolls back
 * with the notices). A reminder of a loan no longer out (returned) is claimed and dropped, and so is
 * a day-before or return-day one more than half a day late (the job was down). The return date
 * cannot change once handed over, so the planned times stay right.
 */
export function loanReminderJob(deps: { db: Db; clock: Clock; notices: NoticesService }) {
  const { db, clock } = deps
  const tell = loanNotices(db, deps.notices)
  return {
    async tick(): Promise<number> {
      const at = clock.now().toISOString()
      await repo.dropStaleReminders(db, at)
      const due = await repo.dueReminders(db, at, BATCH)
      // The association's administration is the lender of its items: looked up once for the batch.
      const staff = await repo.adminStaffOfMany(
        db,
        due.filter((d) => d.reminder.kind === 'OVERDUE' && d.item.lenderKind === 'ASSOCIATION').map((d) => d.loan.companyId),
      )
      let sent = 0
      for (const { reminder, loan, item } of due)
        await transaction(db, async () => {
          // Claimed only while the loan is still out (returned meanwhile: nothing is sent).
          if (!(await repo.claimReminder(db, reminder.id, at))) return
          // A return-day reminder more than half a day late (the job was down) is no longer worth sending.
          if (reminder.kind !== 'OVERDUE' && Date.parse(at) - Date.parse(reminder.dueAt) > LATE_MS) return
          await tell.reminder(loan, item, reminder.kind, staff.get(loan.companyId) ?? [])
          sent += 1
        })
      return sent
    },
  }
}
