/**
 * Decorative charts of the front page (docs/PRODUCT.md §1): random numbers, hidden from assistive
 * technology. Each chart draws its numbers once, when it first appears.
 */
import { useState } from 'react'

const MONTHS = 12
const W = 240
const H = 100

const randomBetween = (min: number, max: number) => min + Math.random() * (max - min)
const series = (min: number, max: number) => Array.from({ length: MONTHS }, () => randomBetween(min, max))

/** A line over 12 months with values between 0 and 30. */
export function LineChart() {
  const [values] = useState(() => series(0, 30))
  const points = values.map((v, i) => `${(i / (MONTHS - 1)) * W},${H - (v / 30) * (H - 8) - 4}`).join(' ')
  return (
    <svg className="chart chart-line" viewBox={`0 0 ${W} ${H}`} aria-hidden="true" focusable="false" preserveAspectRatio="none">
      <polyline points={`0,${H} ${points} ${W},${H}`} className="chart-area" />
      <polyline points={points} className="chart-stroke" />
    </svg>
  )
}

/** Bars for 12 months with values between 10 and 20. */
export function BarChart() {
  const [values] = useState(() => series(10, 20))
  const slot = W / MONTHS
  return (
    <svg className="chart chart-bar" viewBox={`0 0 ${W} ${H}`} aria-hidden="true" focusable="false" preserveAspectRatio="none">
      {values.map((v, i) => {
        const h = (v / 20) * (H - 4)
        return <rect key={i} x={i * slot + slot * 0.2} y={H - h} width={slot * 0.6} height={h} rx="2" className="chart-bar-rect" />
      })}
    </svg>
  )
}

/** Bubbles across 12 months, sized 2 to 20, with the odd large one of 50. */
export function BubbleChart() {
  const [bubbles] = useState(() =>
    Array.from({ length: MONTHS }, (_, i) => ({ x: (i + 0.5) * (W / MONTHS), y: randomBetween(25, 75), r: Math.random() < 0.15 ? 50 : randomBetween(2, 20) })),
  )
  return (
    <svg className="chart chart-bubble" viewBox={`0 0 ${W} ${H}`} aria-hidden="true" focusable="false">
      {bubbles.map((b, i) => (
        <circle key={i} cx={b.x} cy={b.y} r={b.r / 2.5} className="chart-bubble-dot" />
      ))}
    </svg>
  )
}
