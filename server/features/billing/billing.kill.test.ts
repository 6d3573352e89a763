/**
 * kill -9 during a billing run: `npm run billing` (server/billing-once.ts) runs as a child
 * process on a database file with 3,000 due agreements in 50 companies and is killed with
 * SIGKILL once it has written some charges, then run again. Whatever the moment of the kill:
 * exactly one charge and one invoice per agreement and period, one queued provider call per
 * charge, and invoice numbers 1..n per company without a gap. The same holds for two billing
 * processes on one file at once.
 */
import { describe, expect, it } from 'vitest'
import { execFileSync, spawn } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import Database from 'better-sqlite3'
import { sqliteHandle } from '../../db/client'
import { format } from 'date-fns'
import { assertBookkeeping } from './test-helpers'

const root = resolve(import.meta.dirname, '../../..')
const AGREEMENTS = 3000

const chargeCount = (path: string): number => {
  const db = new Database(path, { readonly: true, fileMustExist: true })
  try {
    return (db.prepare('SELECT count(*) AS n FROM charges').get() as { n: number }).n
  } finally {
    db.close()
  }
}

function billingOnce(path: string, killAfterCharges?: number): Promise<{ killed: boolean; chargesAtKill: number }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/billing-once.ts'], {
      cwd: root,
      env: { ...process.env, DATABASE_PATH: path, APP_SECRET_KEY: 'kill-test', LOG_LEVEL: 'silent', APP_ENV: 'test', DEMO_DATA: '0', BILLING_LEAD_DAYS: '3' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let chargesAtKill = 0
    let stderr = ''
    child.stderr.on('data', (d) => (stderr += d))
    const timer =
      killAfterCharges === undefined ? undefined : (
        setInterval(() => {
          let n: number
          try {
            n = chargeCount(path)
          } catch {
            return
          }
          if (n >= killAfterCharges) {
            chargesAtKill = n
            clearInterval(timer)
            child.kill('SIGKILL')
          }
        }, 5)
      )
    child.on('exit', (code, signal) => {
      if (timer) clearInterval(timer)
      if (signal === 'SIGKILL') done({ killed: true, chargesAtKill })
      else if (code === 0) done({ killed: false, chargesAtKill })
      else fail(new Error(`billing-once exited ${code}: ${stderr}`))
    })
  })
}

describe('kill -9 during a billing run, then a restart', () => {
  it('bills every agreement and period exactly once, with gap-free invoice numbers', async () => {
    const kills: boolean[] = []
    for (const killAfter of [1, 700, 1900]) {
      const dir = mkdtempSync(join(tmpdir(), 'bk-kill-'))
      const path = join(dir, 'app.db')
      const tomorrow = format(new Date(Date.now() + 86_400_000), 'yyyy-MM-dd')
      execFileSync(process.execPath, ['--import', 'tsx', 'bench/billing.ts', 'seed', path], {
        cwd: root,
        env: { ...process.env, BENCH_AGREEMENTS: String(AGREEMENTS), BENCH_FIRST_DUE: tomorrow },
      })
      const first = await billingOnce(path, killAfter)
      kills.push(first.killed)
      const sqlite = new Database(path)
      const db = sqliteHandle(sqlite)
      // Whatever was committed before the kill is whole: no charge without its invoice or outbox row.
      const partial = await assertBookkeeping(db)
      if (first.killed) expect(partial.charges).toBeLessThan(AGREEMENTS)
      await billingOnce(path)
      await billingOnce(path)
      const after = await assertBookkeeping(db)
      expect(after, `killed after ${first.chargesAtKill} charges`).toMatchObject({ regular: AGREEMENTS, invoices: AGREEMENTS })
      // Every agreement was moved to its next period exactly once.
      const moved = (sqlite.prepare('SELECT count(*) AS n FROM agreements WHERE next_regular_payment_date > ?').get(tomorrow) as { n: number }).n
      expect(moved).toBe(AGREEMENTS)
      sqlite.close()
    }
    // The kill came mid-run (not after the run ended) at least twice.
    expect(kills.filter(Boolean).length, JSON.stringify(kills)).toBeGreaterThanOrEqual(2)
  }, 180_000)
})

describe('two billing processes on one database file at once', () => {
  // Processes, as in production (the server's job beside `npm run billing`); two connections in
  // one process take turns under its write lock (billing.test.ts).
  it('bill every agreement once between them, with gap-free invoice numbers', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bk-two-'))
    const path = join(dir, 'app.db')
    const tomorrow = format(new Date(Date.now() + 86_400_000), 'yyyy-MM-dd')
    execFileSync(process.execPath, ['--import', 'tsx', 'bench/billing.ts', 'seed', path], {
      cwd: root,
      env: { ...process.env, BENCH_AGREEMENTS: String(AGREEMENTS), BENCH_FIRST_DUE: tomorrow },
    })
    // Six batches of 500: whichever process holds SQLite's write lock bills; the other waits (busy
    // timeout) and reads what was billed meanwhile as no longer due.
    await Promise.all([billingOnce(path), billingOnce(path)])
    const sqlite = new Database(path)
    try {
      expect(await assertBookkeeping(sqliteHandle(sqlite))).toMatchObject({ regular: AGREEMENTS, invoices: AGREEMENTS })
      const moved = (sqlite.prepare('SELECT count(*) AS n FROM agreements WHERE next_regular_payment_date > ?').get(tomorrow) as { n: number }).n
      expect(moved).toBe(AGREEMENTS)
    } finally {
      sqlite.close()
    }
  }, 120_000)
})
