/**
 * Times N authenticated GETs of a cheap route (`/api/notifications/unread-count`) through
 * `app.request`, on the test app (in-memory copy of the demo data, silent logs), to see what the
 * request path itself costs: authentication, middleware, the write-lock wait and the answer.
 * Not part of `npm test`: it measures, it does not assert.
 *
 *   node --import tsx scripts/time-authenticated-gets.ts [N=2000] [runs=3]
 */
import { demo, testApp } from '../server/test/harness'

const n = Number(process.argv[2] ?? 2000)
const runs = Number(process.argv[3] ?? 3)

const t = await testApp()
const token = await t.login(demo.admin)
const headers = { Authorization: `Bearer ${token}` }
const once = async () => {
  const res = await t.app.request('/api/notifications/unread-count', { headers })
  if (res.status !== 200) throw new Error(`answer ${res.status}: ${await res.text()}`)
  await res.arrayBuffer()
}

for (let i = 0; i < 200; i++) await once() // warm up: JIT, statement caches
const totals: number[] = []
for (let r = 0; r < runs; r++) {
  const start = performance.now()
  for (let i = 0; i < n; i++) await once()
  totals.push(performance.now() - start)
}
const sorted = [...totals].sort((a, b) => a - b)
const fmt = (ms: number) => `${ms.toFixed(0)} ms (${((ms * 1000) / n).toFixed(0)} µs/request)`
console.log(`${n} authenticated GETs × ${runs} runs: min ${fmt(sorted[0]!)}, median ${fmt(sorted[Math.floor(runs / 2)]!)}, max ${fmt(sorted.at(-1)!)}`)
t.database.close()
