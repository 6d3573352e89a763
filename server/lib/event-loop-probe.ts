import { monitorEventLoopDelay } from 'node:perf_hooks'

/**
 * Opt-in for bench/api.ts (`BENCH_EVENT_LOOP=1`): samples this process's event-loop delay, and on
 * SIGUSR2 prints the figures since the last signal as one `event-loop-delay {json}` line on stdout
 * (milliseconds) and starts over. Off by default, so a production server never pays for it.
 */
export function startEventLoopProbe(): void {
  const histogram = monitorEventLoopDelay({ resolution: 10 })
  histogram.enable()
  process.on('SIGUSR2', () => {
    const ms = (ns: number) => Math.round(ns / 1e4) / 100
    const figures = { max: ms(histogram.max), p99: ms(histogram.percentile(99)), mean: ms(histogram.mean), samples: histogram.count }
    process.stdout.write(`event-loop-delay ${JSON.stringify(figures)}\n`)
    histogram.reset()
  })
}
