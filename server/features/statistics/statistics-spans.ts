/**
 * How a period of days splits over the running month sums (docs/decisions/0051-statistics-month-sums.md):
 * the whole months it covers, as runs within one calendar year each (`charge_statistics_months`
 * holds running sums per year), and the days of a partial first or last month, summed from the
 * day rows. The calendar, current, previous and heating-water periods are whole months, so they
 * need no day rows at all.
 */
export interface StatisticsSpans {
  /** Day ranges (both ends included) summed from the day rows. */
  days: { startDate: string; endDate: string }[]
  /** Whole months from..to (1–12, both included) of one year, from the running month sums. */
  months: { year: number; from: number; to: number }[]
}

const pad = (n: number) => String(n).padStart(2, '0')
const isoDate = (y: number, m: number, d: number) => `${String(y).padStart(4, '0')}-${pad(m)}-${pad(d)}`
const daysIn = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate()
const parse = (date: string) => ({ y: Number(date.slice(0, 4)), m: Number(date.slice(5, 7)), d: Number(date.slice(8, 10)) })
/** Months counted from year 0, so month arithmetic crosses years by itself. */
const index = (y: number, m: number) => y * 12 + m - 1

/** The spans of the days `startDate`..`endDate` (YYYY-MM-DD, both included, start ≤ end). */
export function spansOf(startDate: string, endDate: string): StatisticsSpans {
  const s = parse(startDate)
  const e = parse(endDate)
  const days: StatisticsSpans['days'] = []
  const sameMonth = s.y === e.y && s.m === e.m
  const startsMonth = s.d === 1
  const endsMonth = e.d === daysIn(e.y, e.m)
  if (sameMonth && !(startsMonth && endsMonth)) return { days: [{ startDate, endDate }], months: [] }
  let first = index(s.y, s.m)
  let last = index(e.y, e.m)
  if (!startsMonth) {
    days.push({ startDate, endDate: isoDate(s.y, s.m, daysIn(s.y, s.m)) })
    first++
  }
  if (!endsMonth) {
    days.push({ startDate: isoDate(e.y, e.m, 1), endDate })
    last--
  }
  const months: StatisticsSpans['months'] = []
  for (let i = first; i <= last;) {
    const year = Math.floor(i / 12)
    const to = Math.min(last, year * 12 + 11)
    months.push({ year, from: (i % 12) + 1, to: (to % 12) + 1 })
    i = to + 1
  }
  return { days, months }
}
