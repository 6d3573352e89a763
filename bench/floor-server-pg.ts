/**
 * The PostgreSQL floor of bench/api.ts: bench/floor-server.ts's twin, plain Hono + a `pg` Pool on
 * a copy of the product's PostgreSQL database, answering the same benchmarked requests (a company's
 * page of agreements, marking a notification read) with byte-identical JSON, written the plainest
 * fast way: hand-written SQL, each statement prepared once per connection (named, as the SQLite
 * floor prepares once), and the statements of a request pipelined on one connection (pg's
 * `pipeline`: sent without waiting for the answer to the one before), so a request costs as few
 * round trips to the server as its data allow. Run by bench/api.ts:
 * `node --import tsx bench/floor-server-pg.ts <postgres url> <port>`.
 *
 * It does the work the product must to be correct with several instances, no less:
 *
 * - every request checks the bearer token's session (no cache), and a page the caller's right to
 *   the company;
 * - a write is one transaction holding the change, its change-log row and the stored answer of its
 *   Idempotency-Key. It runs READ COMMITTED, not SERIALIZABLE as the product does, because this one
 *   write is correct there with what PostgreSQL does anyway: the UPDATE takes the notification's
 *   row lock and re-checks `NOT is_read` after a concurrent writer commits, so two requests for
 *   one notification log one change; the key's primary key makes a second request with the same key
 *   fail at its INSERT, roll back and answer the stored answer; and the change-log row is written
 *   last, under the transaction-scoped advisory lock the product takes (decision 0058), so seqs
 *   commit in order. (The product cannot reason per request like this — ~50 services read and
 *   then write — so it runs SERIALIZABLE and retries, decision 0058.) A write costs two round
 *   trips: BEGIN with the UPDATE (which also checks the session), then the stored answer, the
 *   lock, the change-log row and COMMIT together. A page costs three: the caller, the page, then
 *   its addresses and parts together.
 */
import { serve } from '@hono/node-server'
import { Hono, type Context } from 'hono'
import pg from 'pg'
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
import { later, together } from '../server/db/pg-executor'

const [url, port] = process.argv.slice(2)
// Øre are bigint columns, which node-postgres hands over as strings; every amount here is far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, Number)
// As many connections as the product's pool (server/db/pg-executor.ts).
const pool = new pg.Pool({ connectionString: url, max: 20, pipeline: true })

const IDS = '= ANY($1::text[])'
/** The advisory lock the product's change log takes (server/features/sync/change-log.ts). */
const CHANGE_LOG_LOCK = 0x62_6b_63_6c

/** The statements, each named so that a connection prepares it once (see `run`). */
const sql = {
  caller: `SELECT s.user_id, u.system_role, EXISTS (SELECT 1 FROM company_members m WHERE m.user_id = s.user_id AND m.company_id = $3) AS member
    FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = $1 AND s.revoked_at IS NULL AND s.expires_at > $2`,
  /**
   * The SQLite floor's page, with the per-row facts (sign-in, overdue) computed after the LIMIT:
   * inside it, PostgreSQL's planner hashes the sign-in EXISTS over every verified sign-in of the
   * database (50,000) instead of probing the page's 100.
   */
  companyPage: `SELECT a.*, u.full_name, u.email_address, p.is_active AS provider_active, c.status AS company_status, v.verified,
      (f.last_failed IS NOT NULL AND NOT EXISTS (
         SELECT 1 FROM charges e WHERE e.agreement_id = a.id AND e.status = 'EXECUTED' AND e.due >= f.last_failed)) AS overdue
    FROM (SELECT * FROM agreements WHERE company_id = $1 AND (company_id, external_seq, id) > ($2, $3, $4)
          ORDER BY company_id, external_seq, id LIMIT $5) a
    JOIN users u ON u.id = a.member_user_id
    LEFT JOIN payment_providers p ON p.id = a.payment_provider_id
    LEFT JOIN companies c ON c.id = a.company_id
    LEFT JOIN LATERAL (SELECT TRUE AS verified FROM auth_methods m WHERE m.user_id = a.member_user_id AND m.verified_at IS NOT NULL LIMIT 1) v ON TRUE
    LEFT JOIN LATERAL (SELECT MAX(due) AS last_failed FROM charges f WHERE f.agreement_id = a.id AND f.status = 'FAILED') f ON TRUE
    ORDER BY a.company_id, a.external_seq, a.id`,
  addresses: addressesSql(IDS),
  parts: partsSql(IDS),
  /** The caller's own unread notification marked read: the session is checked in the same statement. */
  markRead: `UPDATE notifications n SET is_read = TRUE, read_at = $3, version = n.version + 1
    FROM sessions s WHERE n.id = $1 AND NOT n.is_read AND s.token_hash = $2 AND s.revoked_at IS NULL AND s.expires_at > $3 AND n.user_id = s.user_id
    RETURNING n.*`,
  session: 'SELECT user_id FROM sessions WHERE token_hash = $1 AND revoked_at IS NULL AND expires_at > $2',
  notification: 'SELECT * FROM notifications WHERE id = $1 AND user_id = $2',
  storeAnswer: 'INSERT INTO idempotency_keys (scope, key, request_hash, status, headers, body, created_at) VALUES ($1, $2, $3, 200, $4, $5, $6)',
  storedAnswer: 'SELECT body FROM idempotency_keys WHERE scope = $1 AND key = $2',
  lock: `SELECT pg_advisory_xact_lock(${CHANGE_LOG_LOCK})`,
  changeLog: "INSERT INTO change_log (entity, entity_id, op, user_id, created_at) VALUES ('notification', $1, 'upsert', $2, $3)",
}

type Name = keyof typeof sql

/** Sends statement `name` on `client` (prepared there on first use), behind what the connection has sent already. */
const run = <R extends pg.QueryResultRow>(client: pg.PoolClient, name: Name, values: unknown[]) => client.query<R>({ name, text: sql[name], values })

/**
 * `fn` on one pooled connection, where queries sent without awaiting go out together. A connection
 * whose work failed is closed, not reused: it may be inside a transaction PostgreSQL aborted.
 */
async function onConnection<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect()
  let failed = true
  try {
    const result = await fn(client)
    failed = false
    return result
  } finally {
    client.release(failed)
  }
}

async function page(c: Context, companyId: string, token: string) {
  const { limit, after } = pageRequest(c)
  return await onConnection(async (client) => {
    const who = (await run<{ system_role: string; member: boolean }>(client, 'caller', [sha256(token), new Date().toISOString(), companyId])).rows[0]
    if (!who) return c.json({ error: 'UNAUTHORIZED' }, 401)
    if (who.system_role !== 'SUPERADMIN' && !who.member) return c.json({ error: 'NOT_FOUND' }, 404)
    const rows = pageOf(c, (await run<PageRow>(client, 'companyPage', [companyId, ...after, limit + 1])).rows, limit)
    const ids = rows.map((r) => r.id)
    const [addresses, parts] = await Promise.all(
      together(client, () => [run<AddressRow>(client, 'addresses', [ids]), run<PartRow>(client, 'parts', [ids])] as const),
    )
    return c.json(views(rows, addresses.rows, parts.rows))
  })
}

type Marked = { status: 200; body: string } | { status: 401 | 404 }

/** Marks the notification read in one READ COMMITTED transaction (see the file's comment). */
async function markRead(client: pg.PoolClient, c: Context, token: string, key: string | undefined): Promise<Marked> {
  const id = c.req.param('id')!
  const tokenHash = sha256(token)
  const now = new Date().toISOString()
  const [begin, marked] = together(
    client,
    () => [later(client.query('BEGIN')), run<Record<string, unknown>>(client, 'markRead', [id, tokenHash, now])] as const,
  )
  let row = (await marked).rows[0]
  const changed = row !== undefined
  let userId = row?.user_id as string | undefined
  if (!row) {
    // Not the caller's unread notification: no session, not theirs, or read already (answered as it is).
    userId = (await run<{ user_id: string }>(client, 'session', [tokenHash, now])).rows[0]?.user_id
    row = userId ? (await run<Record<string, unknown>>(client, 'notification', [id, userId])).rows[0] : undefined
    if (!row) {
      await client.query('ROLLBACK')
      return { status: userId ? 404 : 401 }
    }
  }
  const body = notificationAnswer(row)
  // The stored answer first, then the change log's lock, held from its seq to the COMMIT: all in one round trip.
  const { stored, writes, commit } = together(client, () => ({
    stored: key ? later(run(client, 'storeAnswer', [userId, key, requestHash(c), storedHeaders, body, now])) : undefined,
    writes: [begin, ...(changed ? [later(run(client, 'lock', [])), later(run(client, 'changeLog', [id, userId, now]))] : [])],
    commit: later(client.query('COMMIT')),
  }))
  try {
    if (stored) await stored
    await Promise.all(writes)
    if ((await commit).command !== 'COMMIT') throw new Error('the write did not commit')
  } catch (error) {
    if ((error as { code?: string }).code !== '23505') throw error
    // The same key stored meanwhile (the COMMIT rolled back): answer as the first request did.
    return { status: 200, body: (await run<{ body: string }>(client, 'storedAnswer', [userId, key])).rows[0]!.body }
  }
  return { status: 200, body }
}

const app = new Hono()
  .get('/api/health', (c) => c.json({ status: 'ok' }))
  .get('/api/agreement', async (c) => {
    const token = bearerToken(c)
    if (!token) return c.json({ error: 'UNAUTHORIZED' }, 401)
    const companyId = c.req.query('companyId')
    if (!companyId) return c.json({ error: 'NOT_SUPPORTED_BY_THE_FLOOR' }, 400)
    return await page(c, companyId, token)
  })
  .patch('/api/notifications/:id/read', async (c) => {
    const token = bearerToken(c)
    if (!token) return c.json({ error: 'UNAUTHORIZED' }, 401)
    const answer = await onConnection((client) => markRead(client, c, token, c.req.header('Idempotency-Key')))
    if (answer.status === 200) return c.body(answer.body, 200, { 'Content-Type': 'application/json' })
    return c.json({ error: answer.status === 401 ? 'UNAUTHORIZED' : 'NOT_FOUND' }, answer.status)
  })

serve({ fetch: app.fetch, port: Number(port), hostname: '127.0.0.1' })
