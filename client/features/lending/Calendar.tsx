import { useState } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { shiftMonth, weeksOfMonth } from '../../../shared/domain/lending'
import { Button } from '../../components/ui/Button'
import { useLocale } from '../../i18n/use-locale'
import { bookingOn } from './labels'
import type { LoanView } from './use-lending'
import { personName } from '../../../shared/erased-person'

const intlOf = (locale: string) => (locale === 'da' ? 'da-DK' : 'en-GB')

/**
 * An item's month as a table (decision 0064): a row per week, Monday first; a booked day says who has
 * it in words, not only in colour, and today is marked. Previous and next month by buttons.
 */
export function Calendar({ bookings, today, mineId }: { bookings: LoanView[]; today: string; mineId?: string }) {
  const { t, i18n } = useLingui()
  const locale = useLocale()
  const [month, setMonth] = useState(today.slice(0, 7))
  const weeks = weeksOfMonth(month)
  const monthName = new Intl.DateTimeFormat(intlOf(locale), { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${month}-01T00:00:00Z`))
  const weekdays = Array.from({ length: 7 }, (_, i) =>
    new Intl.DateTimeFormat(intlOf(locale), { weekday: 'short', timeZone: 'UTC' }).format(new Date(Date.UTC(2026, 10, 2 + i))),
  )
  return (
    <div className="lending-calendar-box">
      <div className="lending-calendar-nav">
        <Button variant="secondary" onClick={() => setMonth(shiftMonth(month, -1))} aria-label={t`Previous month`}>
          <span aria-hidden="true">←</span>
        </Button>
        <strong aria-live="polite">{monthName}</strong>
        <Button variant="secondary" onClick={() => setMonth(shiftMonth(month, 1))} aria-label={t`Next month`}>
          <span aria-hidden="true">→</span>
        </Button>
      </div>
      <table className="lending-calendar">
        <caption>
          <Trans>Bookings in {monthName}</Trans>
        </caption>
        <thead>
          <tr>
            {weekdays.map((d) => (
              <th key={d} scope="col">
                {d}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {weeks.map((week, w) => (
            <tr key={w}>
              {week.map((day, i) => {
                if (!day) return <td key={i} />
                const booking = bookingOn(day, bookings)
                return (
                  <td key={day} className={[booking ? 'booked' : '', day === today ? 'today' : ''].join(' ').trim() || undefined}>
                    <span className="day-number">{Number(day.slice(8))}</span>
                    {booking && <span className="day-who">{booking.id === mineId ? t`You` : (personName(booking.borrower?.fullName, i18n) ?? t`Booked`)}</span>}
                    {day === today && <span className="sr-only">{t`Today`}</span>}
                  </td>
                )
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
