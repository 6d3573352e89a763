import { openDatabase, transaction } from '../server/db/client'
import { statement } from '../server/db/statement'
import { WriteLock } from '../server/lib/write-lock'
const d = openDatabase('/tmp/billing-bench/prof/micro.db')
d.sqlite.exec('CREATE TABLE IF NOT EXISTS t (a INTEGER)')
const N = 300_000
const raw = d.sqlite.prepare('SELECT 1 AS x')
const st = statement<[], { x: number }>('SELECT 1 AS x')
const lock = new WriteLock()
for (let rep = 0; rep < 3; rep++) {
  let t = performance.now()
  for (let i = 0; i < N; i++) raw.get()
  const rawMs = performance.now() - t
  t = performance.now()
  await lock.run(() => transaction(d.db, async () => { for (let i = 0; i < N; i++) await st.get(d.db, []) }))
  const stMs = performance.now() - t
  t = performance.now()
  await (async () => { for (let i = 0; i < N; i++) await Promise.resolve(raw.get()) })()
  const awaitMs = performance.now() - t
  console.log({ rawUs: (rawMs * 1000) / N, statementInTxUs: (stMs * 1000) / N, rawAwaitUs: (awaitMs * 1000) / N })
}
d.close()
