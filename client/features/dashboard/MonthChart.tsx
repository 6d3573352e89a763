import { useId } from 'react'
import { useLingui } from '@lingui/react/macro'
import { formatMoney, formatNumber, type Locale } from '../../lib/format'
import { CHART, chartGeometry } from './chart-geometry'
import { dateRange, longMonth, shortMonth } from './labels'

/**
 * One category's last twelve months as a bar chart (decision 0060): plain SVG, no chart library. To
 * assistive technology it is one image (role="img") named by its title and described in words
 * (the months, the highest and the total, the marked period); the numbers themselves are in the
 * table under the charts. The heating-and-water period is a shaded band behind the bars.
 */
export function MonthChart({
  title,
  months,
  values,
  band,
  locale,
}: {
  title: string
  /** `YYYY-MM`, oldest first. */
  months: readonly string[]
  /** Net øre per month. */
  values: readonly number[]
  /** The heating-and-water period as shown (cut to the months), and its whole dates for the words. */
  band: { shown: { startDate: string; endDate: string }; period: { startDate: string; endDate: string } } | null
  locale: Locale
}) {
  const { t } = useLingui()
  const id = useId()
  const g = chartGeometry(months, values, band?.shown ?? null)
  const total = values.reduce((s, v) => s + v, 0)
  const highest = values.reduce((best, v, i) => (v > values[best]! ? i : best), 0)
  const first = longMonth(months[0]!, locale)
  const last = longMonth(months.at(-1)!, locale)
  const highestMonth = longMonth(months[highest]!, locale)
  const highestAmount = formatMoney(values[highest]!, locale)
  const shadedPeriod = (period: string) => t`The heating and water period (${period}) is shaded.`
  const totalAmount = formatMoney(total, locale)
  const description = [
    t`Net collected per month from ${first} to ${last}: ${totalAmount} in all; the highest month is ${highestMonth} with ${highestAmount}.`,
    band ? shadedPeriod(dateRange(band.period.startDate, band.period.endDate, locale)) : '',
  ]
    .filter(Boolean)
    .join(' ')
  return (
    <svg
      className="month-chart"
      viewBox={`0 0 ${CHART.width} ${CHART.height}`}
      role="img"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-desc`}
      preserveAspectRatio="xMidYMid meet"
    >
      <title id={`${id}-title`}>{title}</title>
      <desc id={`${id}-desc`}>{description}</desc>
      {g.band && <rect className="month-chart-band" x={g.band.x} y={CHART.top} width={g.band.width} height={CHART.height - CHART.top - CHART.bottom} />}
      {g.ticks.map((tick) => (
        <g key={tick.value}>
          <line className={tick.value === 0 ? 'month-chart-zero' : 'month-chart-grid'} x1={CHART.left} x2={CHART.width - CHART.right} y1={tick.y} y2={tick.y} />
          <text className="month-chart-axis" x={CHART.left - 4} y={tick.y} textAnchor="end" dominantBaseline="middle">
            {formatNumber(tick.value / 100, locale, 0)}
          </text>
        </g>
      ))}
      {g.bars.map((bar) =>
        bar.height > 0 ?
          <rect
            key={bar.month}
            className={bar.value < 0 ? 'month-chart-bar month-chart-bar-negative' : 'month-chart-bar'}
            x={bar.x}
            y={bar.y}
            width={bar.width}
            height={bar.height}
            data-month={bar.month}
            data-value={bar.value}
          />
        : null,
      )}
      {months.map((month, i) => (
        <text key={month} className="month-chart-axis" x={g.centres[i]} y={CHART.height - CHART.bottom + 12} textAnchor="middle">
          {shortMonth(month, locale)}
        </text>
      ))}
      {months.map((month, i) =>
        // The year under January, and under the first month unless January follows at once (they would collide).
        month.endsWith('-01') || (i === 0 && !months[1]?.endsWith('-01')) ?
          <text key={`${month}-year`} className="month-chart-axis month-chart-year" x={g.centres[i]} y={CHART.height - CHART.bottom + 25} textAnchor="middle">
            {month.slice(0, 4)}
          </text>
        : null,
      )}
    </svg>
  )
}
