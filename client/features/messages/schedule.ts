import { TZDate } from '@date-fns/tz'
import { COPENHAGEN } from '../../../shared/domain/copenhagen'

/**
 * Whether a sending time, Copenhagen wall time `YYYY-MM-DDTHH:mm` as the form holds it, lies after
 * `now`. The server refuses any other (400 at `scheduledAt`); checking here keeps the user on the
 * form with their edit instead of queueing a change the server will refuse
 * (docs/decisions/0041-a-messages-sending-time-is-checked-at-the-field.md).
 */
export function isScheduleAhead(local: string, now: number = Date.now()): boolean {
  const parts = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(local)
  if (!parts) return false
  const [y, mo, d, h, mi] = parts.slice(1).map(Number) as [number, number, number, number, number]
  const at = new TZDate(y, mo - 1, d, h, mi, COPENHAGEN)
  return at.getDate() === d && at.getTime() > now
}
