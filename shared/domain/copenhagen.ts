/** The association's time zone: calendar dates (`YYYY-MM-DD`) everywhere are dates in Copenhagen. */
export const COPENHAGEN = 'Europe/Copenhagen'

const calendarDate = new Intl.DateTimeFormat('en-CA', { timeZone: COPENHAGEN, year: 'numeric', month: '2-digit', day: '2-digit' })

/** The Copenhagen calendar date of an instant, `YYYY-MM-DD`. */
export const copenhagenDateOf = (instant: Date): string => calendarDate.format(instant)
