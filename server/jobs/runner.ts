import type { Logger } from 'pino'
import type { WriteLock } from '../lib/write-lock'
import { alone, type Db } from '../db/client'
import { metrics } from '../observability/metrics'

export interface Job {
  name: string
  everyMs: number
  run(): Promise<unknown>
  /** Jobs that call outside services take the write lock per step themselves (default: locked). */
  locked?: boolean
}

/**
 * Runs periodic jobs inside the server process under the write lock, one at a time per job, and
 * with `db` one at a time per job across every instance of the server (`alone`, server/db/client.ts:
 * on PostgreSQL an instance skips its turn while another runs the job). A failing job is logged
 * and tried again at its next turn; it never stops the others.
 *
 * `stop()` starts no further run and answers when the runs under way have ended: the server's
 * shutdown waits for them within its grace time and exits without them after it (a job claims its
 * work in transactions and leases, so an interrupted run is taken up again: docs/decisions/0078).
 */
export class JobRunner {
  private timers: NodeJS.Timeout[] = []
  private readonly running = new Set<Promise<void>>()
  private stopped = false

  constructor(private readonly deps: { lock: WriteLock; log: Logger; db?: Db }) {}

  runNow(job: Job): Promise<void> {
    if (this.stopped) return Promise.resolve()
    const run = this.run(job).finally(() => this.running.delete(run))
    this.running.add(run)
    return run
  }

  private async run(job: Job): Promise<void> {
    const run = () => (job.locked === false ? job.run() : this.deps.lock.run(() => job.run()))
    const stopTimer = metrics().jobSeconds.startTimer({ job: job.name })
    try {
      // On PostgreSQL `alone` skips the run while another instance holds the job (false).
      let ran = true
      if (this.deps.db) ran = await alone(this.deps.db, `job:${job.name}`, run)
      else await run()
      metrics().jobRuns.inc({ job: job.name, outcome: ran ? 'ok' : 'skipped' })
      if (ran) stopTimer()
    } catch (err) {
      metrics().jobRuns.inc({ job: job.name, outcome: 'failed' })
      stopTimer()
      // Recorded in System Logs (the logger copies errors there) with the job's name.
      this.deps.log.child({ job: job.name }).error({ err }, `job ${job.name} failed: ${err instanceof Error ? err.message : String(err)}`)
    }
  }

  start(jobs: Job[]): void {
    for (const job of jobs) {
      let busy = false
      // runNow never rejects: a failing job is logged there.
      const timer = setInterval(() => {
        if (busy) return
        busy = true
        void this.runNow(job).finally(() => (busy = false))
      }, job.everyMs)
      timer.unref()
      this.timers.push(timer)
    }
  }

  /** Starts no further run; resolves when the runs under way have ended (they never reject). */
  stop(): Promise<void> {
    this.stopped = true
    for (const t of this.timers) clearInterval(t)
    this.timers = []
    return Promise.all(this.running).then(() => undefined)
  }
}
