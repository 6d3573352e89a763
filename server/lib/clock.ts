import { TZDate } from '@date-fns/tz'
import { format } from 'date-fns'
import { COPENHAGEN } from '../../shared/domain/copenhagen'

/** The only source of "now" on the server, so tests can move time. */
export interface Clock {
  now(): Date
}

export const systemClock: Clock = { now: () => new Date() }

/** A clock for tests: starts at `start` and moves only when told. */
export class TestClock implements Clock {
  private current: number
  constructor(start: Date | string = '2026-11-23T09:00:00.000Z') {
    this.current = new Date(start).getTime()
  }
  now(): Date {
    return new Date(this.current)
  }
  advance(ms: number): void {
    this.current += ms
  }
  set(at: Date | string): void {
    this.current = new Date(at).getTime()
  }
}

/** The association's time zone has one home (shared/domain/copenhagen.ts); re-exported for server code. */
export { COPENHAGEN }

/** Today's calendar date (YYYY-MM-DD) in Copenhagen. */
export const todayInCopenhagen = (clock: Clock): string => format(new TZDate(clock.now(), COPENHAGEN), 'yyyy-MM-dd')

export const isoNow = (clock: Clock): string => clock.now().toISOString()
