/**
 * How every bench prints a figure (docs/BENCHMARKS.md): a line when it is measured, and at the
 * end one table of all of them — figure, product, baseline measured in the same run, target,
 * ok/MISS. A figure missing its target by more than 50 % counts as a regression (exit 1).
 *
 * Every figure has a row key from bench/rows.ts. A part is run through `runPart`, which afterwards
 * adds a failure for each of its rows that was not printed and for each printed key the part does
 * not declare: a part that stops early, or a figure that is dropped or added without its row,
 * fails the run (in `npm run bench:smoke` too, where the values themselves are not judged).
 */
import { benchRows, type BenchPart } from './rows'
import { SMOKE } from './scale'

export interface Figure {
  row: string
  figure: string
  product: string
  baseline: string
  target: string
  ok: boolean
  /** Missed by more than 50 % of the target. */
  regression: boolean
  /** The part could not measure it (it broke, or the row is missing). */
  broken: boolean
}

const figures: Figure[] = []

const show = (value: number, unit: string) => `${value.toFixed(value >= 100 || unit === 'req/s' || unit === 'rows' ? 0 : 1)} ${unit}`

function add(f: Figure): boolean {
  figures.push(f)
  console.log(`${f.ok ? 'ok  ' : 'MISS'} ${f.figure}: ${f.product} (target ${f.target}; baseline ${f.baseline})`)
  return f.ok
}

/** A figure that must stay at or under `target` (times, sizes, memory). */
export function atMost(row: string, figure: string, value: number, unit: string, target: number, baseline: string, targetNote = ''): boolean {
  const ok = value <= target
  return add({
    row,
    figure,
    product: show(value, unit),
    baseline,
    target: `≤ ${show(target, unit)}${targetNote}`,
    ok,
    regression: value > target * 1.5,
    broken: !Number.isFinite(value),
  })
}

/** A figure that must reach `target` (rates). */
export function atLeast(row: string, figure: string, value: number, unit: string, target: number, baseline: string, targetNote = ''): boolean {
  const ok = value >= target
  return add({
    row,
    figure,
    product: show(value, unit),
    baseline,
    target: `≥ ${show(target, unit)}${targetNote}`,
    ok,
    regression: value < target / 1.5,
    broken: !Number.isFinite(value),
  })
}

/** A figure that could not be measured (the bench broke): printed as MISS with why. */
export function failed(row: string, figure: string, why: string): void {
  add({ row, figure, product: 'not measured', baseline: why, target: '-', ok: false, regression: true, broken: true })
}

export const allFigures = (): readonly Figure[] => figures

/**
 * Runs one part of the bench; an error ends the part as a failed figure (the other parts still
 * run), and every row the part declares (bench/rows.ts) must have been printed, no other.
 */
export async function runPart(part: BenchPart, measure: () => Promise<void>): Promise<void> {
  const before = figures.length
  const started = performance.now()
  console.log(`\n— ${part}${SMOKE ? ' (smoke sizes)' : ''}`)
  try {
    await measure()
  } catch (err) {
    console.error(err)
    failed(`${part}:error`, `${part}: stopped`, ((err as Error).message ?? String(err)).split('\n')[0]!)
  }
  const printed = new Set(figures.slice(before).map((f) => f.row))
  const declared: readonly string[] = benchRows[part]
  for (const row of declared) if (!printed.has(row)) failed(row, `${part}: row "${row}" not printed`, 'the part ended without measuring it')
  for (const row of printed)
    if (!declared.includes(row) && !row.endsWith(':error')) failed(row, `${part}: row "${row}" is not declared`, 'add it to bench/rows.ts')
  console.log(`— ${part} took ${((performance.now() - started) / 1000).toFixed(0)} s`)
}

/**
 * The closing table; returns how many figures fail the run: regressions in a real run, and in the
 * smoke run only what could not be measured (its small sizes say nothing of speed).
 */
export function printTable(): number {
  const head = ['figure', 'product', 'baseline', 'target', '']
  const rows = figures.map((f) => [f.figure, f.product, f.baseline, f.target, f.ok ? 'ok' : 'MISS'])
  const widths = head.map((h, i) => Math.min(i === 0 || i === 2 ? 70 : 30, Math.max(h.length, ...rows.map((r) => r[i]!.length))))
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`
  console.log(['', line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n'))
  const failing = figures.filter((f) => (SMOKE ? f.broken : f.regression))
  if (SMOKE) console.log(`\nbench smoke: ${figures.length - failing.length} of ${figures.length} rows measured`)
  return failing.length
}

/** The end of a bench script run alone: the table, and exit 1 when a figure fails the run. */
export function finish(): never {
  const failing = printTable()
  if (failing) console.error(`\n${failing} figure(s) ${SMOKE ? 'not measured' : 'missed the target by more than 50 %'}`)
  process.exit(failing ? 1 : 0)
}
