import { describe, expect, it } from 'vitest'
import { CHART, chartGeometry, niceStep } from './chart-geometry'

const MONTHS = ['2025-12', '2026-01', '2026-02', '2026-03', '2026-04', '2026-05', '2026-06', '2026-07', '2026-08', '2026-09', '2026-10', '2026-11']
const plotLeft = CHART.left
const plotRight = CHART.width - CHART.right
const plotTop = CHART.top
const plotBottom = CHART.height - CHART.bottom
const slot = (plotRight - plotLeft) / 12

describe('month chart geometry', () => {
  it('steps the axis at round kroner amounts', () => {
    expect(niceStep(100)).toBe(100) // 1 kr.
    expect(niceStep(130_000)).toBe(200_000) // 1,300 kr. → 2,000 kr.
    expect(niceStep(240_000)).toBe(250_000)
    expect(niceStep(410_000)).toBe(500_000)
    expect(niceStep(5_100_000)).toBe(10_000_000)
  })

  it('draws each month in its slot, heights in proportion, the highest tick at or above the highest month', () => {
    const values = MONTHS.map((_, i) =>
      i === 11 ? 3_090_000
      : i === 5 ? 1_545_000
      : 0,
    )
    const g = chartGeometry(MONTHS, values, null)
    expect(g.bars).toHaveLength(12)
    expect(g.bars[0]!.x).toBeCloseTo(plotLeft + slot * 0.18)
    expect(g.bars[11]!.x + g.bars[11]!.width).toBeLessThanOrEqual(plotRight)
    expect(g.zero).toBeCloseTo(plotBottom)
    const top = g.ticks.at(-1)!
    expect(top.value).toBeGreaterThanOrEqual(3_090_000)
    expect(top.y).toBeCloseTo(plotTop)
    expect(g.bars[11]!.height).toBeCloseTo(2 * g.bars[5]!.height)
    expect(g.bars[0]!.height).toBe(0)
    expect(g.ticks[0]!.value).toBe(0)
    expect(g.centres[6]).toBeCloseTo(plotLeft + slot * 6.5)
  })

  it('hangs a negative month below the zero line', () => {
    const values = MONTHS.map((_, i) =>
      i === 3 ? -50_000
      : i === 4 ? 150_000
      : 0,
    )
    const g = chartGeometry(MONTHS, values, null)
    expect(g.ticks[0]!.value).toBeLessThan(0)
    expect(g.zero).toBeLessThan(plotBottom)
    expect(g.bars[3]!.y).toBeCloseTo(g.zero)
    expect(g.bars[4]!.y + g.bars[4]!.height).toBeCloseTo(g.zero)
    expect(g.bars[4]!.height).toBeCloseTo(3 * g.bars[3]!.height)
  })

  it('shades the marked period from its first day to the end of its last', () => {
    const g = chartGeometry(
      MONTHS,
      MONTHS.map(() => 0),
      { startDate: '2026-06-01', endDate: '2026-11-30' },
    )
    expect(g.band!.x).toBeCloseTo(plotLeft + slot * 6)
    expect(g.band!.x + g.band!.width).toBeCloseTo(plotRight)
    // Mid-month ends: 16 October is half a month in.
    const mid = chartGeometry(
      MONTHS,
      MONTHS.map(() => 0),
      { startDate: '2025-12-01', endDate: '2026-04-15' },
    )!.band!
    expect(mid.x).toBeCloseTo(plotLeft)
    expect(mid.x + mid.width).toBeCloseTo(plotLeft + slot * (4 + 15 / 30))
    expect(chartGeometry(MONTHS, [], null).band).toBeNull()
  })
})
