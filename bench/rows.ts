/**
 * Every row `npm run bench` prints, by part (docs/BENCHMARKS.md). bench/report.ts `runPart` fails a
 * part that ends without one of its rows, or prints a row not listed here: a figure cannot quietly
 * disappear from the bench, and a new figure is added here with its code.
 */
export const benchRows = {
  offline: ['pull-5k', 'cold-start', 'cold-start-vs-floor', 'replay', 'replay-exactly-once', 'pull-20k', 'first-route-js'],
  'first-visit': ['precache', 'first-load-controlled', 'first-screen-ready'],
  billing: ['billing-rate', 'billing-vs-write-floor', 'billing-second-run', 'billing-rss'],
  statistics: [
    'statistics-current-200k-p50',
    'statistics-current-200k-p95',
    'statistics-heating-water-200k-p50',
    'statistics-heating-water-200k-p95',
    'journal-year-first-page',
    'journal-year-deep-page',
    'journal-month-first-page',
    'journal-month-deep-page',
    'export-first-click',
    'export-later-clicks',
    'statistics-current-800k-p95',
    'statistics-heating-water-800k-p95',
  ],
  api: [
    'page-1-client-req',
    'page-1-client-p99',
    'page-8-clients-req',
    'page-8-clients-p99',
    'page-8-clients-cpu',
    'page-8-clients-event-loop',
    'write-1-client-req',
    'write-8-clients-req',
    'write-8-clients-cpu',
    'write-8-clients-event-loop',
    'walk-complete',
    'walk-event-loop',
    'walk-rss',
    'pg-page-1-instance',
    'pg-page-1-instance-cpu',
    'pg-page-2-instances',
    'pg-write-1-instance',
    'pg-write-1-instance-cpu',
    'pg-write-2-instances',
  ],
  sizes: ['demo-history', 'download-json', 'download-html', 'statements'],
  import: ['import-households'],
} as const

export type BenchPart = keyof typeof benchRows
export const benchParts = Object.keys(benchRows) as BenchPart[]
