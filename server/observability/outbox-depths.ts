/**
 * How many rows wait in the outboxes, for the metrics (metrics.ts): e-mails not yet sent and money
 * effects not yet sent to the payment provider, by status. Sent rows are left out; each count
 * walks the outbox's (status, next attempt) index.
 */
import { count, ne } from 'drizzle-orm'
import type { Db } from '../db/client'
import { providerOutbox } from '../db/schema/agreements'
import { mailOutbox } from '../db/schema/platform'
import type { OutboxDepths } from './metrics'

export async function outboxDepths(db: Db): Promise<OutboxDepths> {
  const mail = await db
    .select({ status: mailOutbox.status, rows: count() })
    .from(mailOutbox)
    .where(ne(mailOutbox.status, 'sent'))
    .groupBy(mailOutbox.status)
    .all()
  const provider = await db
    .select({ status: providerOutbox.status, rows: count() })
    .from(providerOutbox)
    .where(ne(providerOutbox.status, 'sent'))
    .groupBy(providerOutbox.status)
    .all()
  return [...mail.map((r) => ({ outbox: 'mail', ...r })), ...provider.map((r) => ({ outbox: 'provider', ...r }))]
}
