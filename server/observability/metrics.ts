/**
 * The server's measurements for an operator, in the Prometheus text format (prom-client; README
 * "Running at scale", docs/decisions/0089-metrics-for-operators.md): request latency per route,
 * event-loop delay and the rest of Node's own figures, PostgreSQL pool use, write-lock waits, job
 * runs and failures, and how many rows wait in the outboxes.
 *
 * One set per process: the request middleware, the job runner and the write lock record into it
 * without being handed it, and every app of a test process adds to the same counters.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client'

/** Rows waiting in an outbox, by outbox and status (only statuses that still wait or failed). */
export type OutboxDepths = ReadonlyArray<{ outbox: string; status: string; rows: number }>

/** What a PostgreSQL pool says of itself (pg.Pool). */
export interface PoolFigures {
  totalCount: number
  idleCount: number
  waitingCount: number
}

/** Where the figures read at each scrape come from: the server's database (main.ts). */
export interface MetricSources {
  depths?: () => Promise<OutboxDepths>
  pool?: PoolFigures
}

export class Metrics {
  readonly registry = new Registry()
  private sources: MetricSources = {}

  readonly requestSeconds = new Histogram({
    name: 'boligkasse_http_request_duration_seconds',
    help: 'Time from a request to its answer, by method, route pattern and status class',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  })

  readonly jobRuns = new Counter({
    name: 'boligkasse_job_runs_total',
    help: 'Runs of the background jobs, by job and outcome (ok, failed, skipped when another instance ran it)',
    labelNames: ['job', 'outcome'] as const,
    registers: [this.registry],
  })

  readonly jobSeconds = new Histogram({
    name: 'boligkasse_job_duration_seconds',
    help: 'How long a run of a background job took',
    labelNames: ['job'] as const,
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300],
    registers: [this.registry],
  })

  readonly lockWaitSeconds = new Histogram({
    name: 'boligkasse_write_lock_wait_seconds',
    help: 'How long a write waited for its turn at the write lock (SQLite: one writer at a time)',
    buckets: [0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5],
    registers: [this.registry],
  })

  constructor() {
    collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: 10 })
    const sources = () => this.sources
    new Gauge({
      name: 'boligkasse_outbox_rows',
      help: 'Rows waiting (or failed) in an outbox: e-mails and money effects for the payment provider',
      labelNames: ['outbox', 'status'] as const,
      registers: [this.registry],
      async collect() {
        this.reset()
        for (const d of (await sources().depths?.()) ?? []) this.set({ outbox: d.outbox, status: d.status }, d.rows)
      },
    })
    new Gauge({
      name: 'boligkasse_db_pool_connections',
      help: 'PostgreSQL pool connections of this instance: total, idle, and requests waiting for one',
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect() {
        const pool = sources().pool
        if (!pool) return
        this.set({ state: 'total' }, pool.totalCount)
        this.set({ state: 'idle' }, pool.idleCount)
        this.set({ state: 'waiting' }, pool.waitingCount)
      },
    })
  }

  /** The database the outbox and pool figures are read from (the running server's; the last one given wins). */
  watch(sources: MetricSources): void {
    this.sources = sources
  }

  async text(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() }
  }
}

let current: Metrics | undefined

/** This process's measurements. */
export const metrics = (): Metrics => (current ??= new Metrics())
