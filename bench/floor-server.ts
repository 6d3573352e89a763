/**
 * The floor of bench/api.ts: a bare Hono + better-sqlite3 server on a copy of the product's
 * SQLite file, answering the benchmarked requests with byte-identical JSON, written the plainest
 * fast way — set-based SQL prepared once, no framework around it. It does the same work the
 * product must: checks the bearer token's session and the caller's right to the company, and a
 * write takes its Idempotency-Key, writes the change and its change-log row and the stored answer
 * in one transaction. Run by bench/api.ts: `node --import tsx bench/floor-server.ts <db> <port>`.
 * Its PostgreSQL twin is bench/floor-server-pg.ts; what they share is bench/floor-answers.ts.
 */
import { serve } from '@hono/node-server'
import Database from 'better-sqlite3'
import { Hono, type Context } from 'hono'
import { startEventLoopProbe } from '../server/lib/event-loop-probe'
import {
  addressesSql,
  bearerToken,
  notificationAnswer,
  pageOf,
  pageRequest,
  partsSql,
  requestHash,
  sha256,
  storedHeaders,
  views,
  type AddressRow,
  type PageRow,
  type PartRow,
} from './floor-answers'

const [path, port] = process.argv.slice(2)
startEventLoopProbe()
const db = new Database(path!)
db.pragma('journal_mode = WAL')
db.pragma('synchronous = NORMAL')
db.pragma('busy_timeout = 5000')

const IDS = 'IN (SELECT value FROM json_each(?))'

/**
 * A page of agreements after the keyset `(company, external seq, id) > (?, ?, ?)`, with `LIMIT ?`:
 * overdue (a failed charge not followed by an executed one) and the member's sign-in computed in
 * SQL, set-based. `where` narrows the agreements (`a.company_id = ?` for a company's page).
 */
const pageSql = (where: string): string =>
  `SELECT x.*, (x.last_failed IS NOT NULL AND NOT EXISTS (
       SELECT 1 FROM charges e WHERE e.agreement_id = x.id AND e.status = 'EXECUTED' AND e.due >= x.last_failed)) AS overdue
   FROM (SELECT a.*, u.full_name, u.email_address,
           EXISTS (SELECT 1 FROM auth_methods m WHERE m.user_id = u.id AND m.verified_at IS NOT NULL) AS verified,
           p.is_active AS provider_active, c.status AS company_status,
           (SELECT MAX(f.due) FROM charges f WHERE f.agreement_id = a.id AND f.status = 'FAILED') AS last_failed
         FROM agreements a JOIN users u ON u.id = a.member_user_id
         LEFT JOIN payment_providers p ON p.id = a.payment_provider_id LEFT JOIN companies c ON c.id = a.company_id
         WHERE ${where} AND (a.company_id, a.external_seq, a.id) > (?, ?, ?)
         ORDER BY a.company_id, a.external_seq, a.id LIMIT ?) x
   ORDER BY x.company_id, x.external_seq, x.id`

const q = {
  session: db.prepare<[string, string], { user_id: string; system_role: string }>(
    `SELECT s.user_id, u.system_role FROM sessions s JOIN users u ON u.id = s.user_id
     WHERE s.token_hash = ? AND s.revoked_at IS NULL AND s.expires_at > ?`,
  ),
  membership: db.prepare<[string, string], { role: string }>('SELECT role FROM company_members WHERE user_id = ? AND company_id = ?'),
  companyPage: db.prepare<[string, string, number, string, number], PageRow>(pageSql('a.company_id = ?')),
  allPage: db.prepare<[string, number, string, number], PageRow>(pageSql('1')),
  addresses: db.prepare<[string], AddressRow>(addressesSql(IDS)),
  parts: db.prepare<[string], PartRow>(partsSql(IDS)),
  storedAnswer: db.prepare<[string, string], { body: string }>('SELECT body FROM idempotency_keys WHERE scope = ? AND key = ?'),
  notification: db.prepare<[string, string], Record<string, unknown>>('SELECT * FROM notifications WHERE id = ? AND user_id = ?'),
  markRead: db.prepare('UPDATE notifications SET is_read = 1, read_at = ?, version = version + 1 WHERE id = ?'),
  changeLog: db.prepare("INSERT INTO change_log (entity, entity_id, op, user_id, created_at) VALUES ('notification', ?, 'upsert', ?, ?)"),
  storeAnswer: db.prepare('INSERT INTO idempotency_keys (scope, key, request_hash, status, headers, body, created_at) VALUES (?, ?, ?, 200, ?, ?, ?)'),
}

function caller(c: Context) {
  const token = bearerToken(c)
  return token ? q.session.get(sha256(token), new Date().toISOString()) : undefined
}

function pageViews(rows: PageRow[]) {
  const ids = JSON.stringify(rows.map((r) => r.id))
  return views(rows, q.addresses.all(ids), q.parts.all(ids))
}

const app = new Hono()
  .get('/api/health', (c) => c.json({ status: 'ok' }))
  .get('/api/agreement', (c) => {
    const who = caller(c)
    if (!who) return c.json({ error: 'UNAUTHORIZED' }, 401)
    const { companyId, limit, after } = pageRequest(c)
    let rows: PageRow[]
    if (companyId) {
      if (who.system_role !== 'SUPERADMIN' && !q.membership.get(who.user_id, companyId)) return c.json({ error: 'NOT_FOUND' }, 404)
      rows = q.companyPage.all(companyId, ...after, limit + 1)
    } else if (who.system_role === 'SUPERADMIN') rows = q.allPage.all(...after, limit + 1)
    else return c.json({ error: 'NOT_SUPPORTED_BY_THE_FLOOR' }, 400)
    return c.json(pageViews(pageOf(c, rows, limit)))
  })
  .patch('/api/notifications/:id/read', (c) => {
    const who = caller(c)
    if (!who) return c.json({ error: 'UNAUTHORIZED' }, 401)
    const key = c.req.header('Idempotency-Key')
    const id = c.req.param('id')
    const now = new Date().toISOString()
    const answer = db
      .transaction(() => {
        if (key) {
          const stored = q.storedAnswer.get(who.user_id, key)
          if (stored) return stored.body
        }
        let row = q.notification.get(id, who.user_id)
        if (!row) return undefined
        if (row.is_read === 0) {
          q.markRead.run(now, id)
          q.changeLog.run(id, who.user_id, now)
          row = q.notification.get(id, who.user_id)!
        }
        const body = notificationAnswer(row)
        if (key) q.storeAnswer.run(who.user_id, key, requestHash(c), storedHeaders, body, now)
        return body
      })
      .immediate()
    if (answer === undefined) return c.json({ error: 'NOT_FOUND' }, 404)
    return c.body(answer, 200, { 'Content-Type': 'application/json' })
  })

serve({ fetch: app.fetch, port: Number(port), hostname: '127.0.0.1' })
