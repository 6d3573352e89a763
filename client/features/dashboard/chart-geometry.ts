/**
 * Where the month chart's marks go (decision 0060): pure arithmetic on the SVG's own coordinates, so
 * the drawing (MonthChart.tsx) only places what this returns. Values are øre; the axis is in whole
 * kroner at round steps (1, 2, 2.5 or 5 × 10ⁿ), through zero, below it too when a month is negative
 * (more refunded than collected).
 */
import { daysInMonth } from '../../../shared/domain/day-month'

export const CHART = { width: 300, height: 172, left: 44, right: 4, top: 10, bottom: 34 } as const

export interface Bar {
  /** `YYYY-MM` */
  month: string
  value: number
  x: number
  y: number
  width: number
  height: number
}

export interface Tick {
  /** øre */
  value: number
  y: number
}

export interface ChartGeometry {
  bars: Bar[]
  ticks: Tick[]
  /** y of the zero line. */
  zero: number
  /** The centre of each month's slot (labels). */
  centres: number[]
  /** The marked period (heating and water) as an x span, or null. */
  band: { x: number; width: number } | null
}

/** A round step near `rough` (øre): 1, 2, 2.5 or 5 × 10ⁿ kroner, at least 1 krone. */
export function niceStep(rough: number): number {
  const kroner = Math.max(1, rough / 100)
  const power = 10 ** Math.floor(Math.log10(kroner))
  const step = [1, 2, 2.5, 5, 10].find((f) => f * power >= kroner)! * power
  return Math.round(step * 100)
}

/** x of a date within the months shown: its month's slot plus the share of the month gone by. */
function xOf(date: string, months: readonly string[], slot: number, end = false): number {
  const index = months.indexOf(date.slice(0, 7))
  if (index < 0) return end ? CHART.width - CHART.right : CHART.left
  const days = daysInMonth(Number(date.slice(5, 7)), Number(date.slice(0, 4)))
  const day = Number(date.slice(8, 10)) - (end ? 0 : 1)
  return CHART.left + slot * (index + day / days)
}

export function chartGeometry(months: readonly string[], values: readonly number[], band: { startDate: string; endDate: string } | null): ChartGeometry {
  const plotWidth = CHART.width - CHART.left - CHART.right
  const plotHeight = CHART.height - CHART.top - CHART.bottom
  const slot = plotWidth / months.length
  const max = Math.max(0, ...values)
  const min = Math.min(0, ...values)
  const step = niceStep((max - min) / 4 || 100)
  const top = Math.max(step, Math.ceil(max / step) * step)
  const bottom = Math.floor(min / step) * step
  const yOf = (v: number) => CHART.top + ((top - v) / (top - bottom)) * plotHeight
  const zero = yOf(0)
  const ticks: Tick[] = []
  for (let v = bottom; v <= top; v += step) ticks.push({ value: v, y: yOf(v) })
  const barWidth = slot * 0.64
  const bars = months.map((month, i) => {
    const value = values[i] ?? 0
    const y = yOf(Math.max(0, value))
    return { month, value, x: CHART.left + slot * i + (slot - barWidth) / 2, y, width: barWidth, height: Math.abs(yOf(value) - zero) }
  })
  const centres = months.map((_, i) => CHART.left + slot * (i + 0.5))
  const start = band ? xOf(band.startDate, months, slot) : 0
  return { bars, ticks, zero, centres, band: band ? { x: start, width: xOf(band.endDate, months, slot, true) - start } : null }
}
