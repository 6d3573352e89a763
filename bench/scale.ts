/**
 * The bench's sizes (docs/BENCHMARKS.md "Smoke"): `npm run bench` measures at the sizes its targets
 * speak of; `npm run bench:smoke` (BENCH_SMOKE=1) runs every part end to end at small sizes, so a
 * part that no longer finishes fails in CI long before anyone needs its figures.
 */
export const SMOKE = process.env.BENCH_SMOKE === '1'

/** `full` in a real run, `smoke` in the smoke run. */
export const size = (full: number, smoke: number): number => (SMOKE ? smoke : full)

/** `n` written as the figures print it: 5,000. */
export const count = (n: number): string => n.toLocaleString('en')
