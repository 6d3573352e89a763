/**
 * How every bench prints a figure (docs/BENCHMARKS.md): a line when it is measured, and at the
 * end one table of all of them — figure, product, baseline measured in the same run, target,
 * ok/MISS. A figure missing its target by more than 50 % counts as a regression (exit 1).
 */
export interface Figure {
  figure: string
  product: string
  baseline: string
  target: string
  ok: boolean
  /** Missed by more than 50 % of the target. */
  regression: boolean
}

const figures: Figure[] = []

const show = (value: number, unit: string) => `${value.toFixed(value >= 100 || unit === 'req/s' || unit === 'rows' ? 0 : 1)} ${unit}`

function add(f: Figure): boolean {
  figures.push(f)
  console.log(`${f.ok ? 'ok  ' : 'MISS'} ${f.figure}: ${f.product} (target ${f.target}; baseline ${f.baseline})`)
  return f.ok
}

/** A figure that must stay at or under `target` (times, sizes, memory). */
export function atMost(figure: string, value: number, unit: string, target: number, baseline: string, targetNote = ''): boolean {
  const ok = value <= target
  return add({ figure, product: show(value, unit), baseline, target: `≤ ${show(target, unit)}${targetNote}`, ok, regression: value > target * 1.5 })
}

/** A figure that must reach `target` (rates). */
export function atLeast(figure: string, value: number, unit: string, target: number, baseline: string, targetNote = ''): boolean {
  const ok = value >= target
  return add({ figure, product: show(value, unit), baseline, target: `≥ ${show(target, unit)}${targetNote}`, ok, regression: value < target / 1.5 })
}

/** A figure that could not be measured (the bench broke): printed as MISS with why. */
export function failed(figure: string, why: string): void {
  add({ figure, product: 'not measured', baseline: why, target: '-', ok: false, regression: true })
}

export const allFigures = (): readonly Figure[] => figures

/** The closing table; returns how many figures are regressions. */
export function printTable(): number {
  const head = ['figure', 'product', 'baseline', 'target', '']
  const rows = figures.map((f) => [f.figure, f.product, f.baseline, f.target, f.ok ? 'ok' : 'MISS'])
  const widths = head.map((h, i) => Math.min(i === 0 || i === 2 ? 70 : 30, Math.max(h.length, ...rows.map((r) => r[i]!.length))))
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`
  console.log(['', line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n'))
  return figures.filter((f) => f.regression).length
}
