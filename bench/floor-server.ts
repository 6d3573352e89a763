/**
 * The floor of bench/api.ts: a bare Hono + better-sqlite3 server on a copy of the product's
 * SQLite file, answering the benchmarked requests with byte-identical JSON, written the plainest
 * fast way — set-based SQL prepared once, no framework around it. It does the same work the
 * product must: checks the bearer token's session and the caller's right to the company, and a
 * write takes its Idempotency-Key, writes the change and its change-log row and the stored answer
 * in one transaction. Run by bench/api.ts: `node --import tsx bench/floor-server.ts <db> <port>`.
 */
import { createHash } from 'node:crypto'
import { serve } from '@hono/node-server'
import Database from 'better-sqlite3'
import { Hono, type Context } from 'hono'
import { initialsOf } from '../shared/domain/agreement-parts'
import { collectionProblem } from '../shared/domain/agreement-status'
import { upcomingPayment } from '../shared/domain/termination'
import type { PaymentPeriod } from '../shared/domain/agreement-parts'
import { startEventLoopProbe } from '../server/lib/event-loop-probe'

const [path, port] = process.argv.slice(2)
startEventLoopProbe()
const db = new Database(path!)
db.pragma('journal_mode = WAL')
db.pragma('synchronous = NORMAL')
db.pragma('busy_timeout = 5000')

const sha256 = (v: string) => createHash('sha256').update(v).digest('hex')
const IDS = 'SELECT value FROM json_each(?)'

interface PageRow {
  id: string
  company_id: string
  external_seq: number
  payment_provider_id: string
  member_user_id: string
  full_name: string
  email_address: string
  verified: number
  price_ore: number
  currency: 'DKK'
  status: string
  overdue: number
  debt_collection_since: string | null
  payment_period: PaymentPeriod
  start_payment_date: string
  next_regular_payment_date: string | null
  termination_date: string | null
  final_payment_required: number
  vipps_agreement_id: string | null
  provider_active: number | null
  company_status: string | null
  version: number
  created_at: string
  updated_at: string
}

const pageSql = (where: string) =>
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
  addresses: db.prepare<
    [string],
    { agreement_id: string; id: string; street: string; number: string; floor: string | null; side: string | null; zip: string; city: string; country: string }
  >(
    `SELECT aa.agreement_id, ad.id, ad.street, ad.number, ad.floor, ad.side, ad.zip, ad.city, ad.country
     FROM agreement_addresses aa JOIN addresses ad ON ad.id = aa.address_id WHERE aa.agreement_id IN (${IDS}) ORDER BY aa.agreement_id, aa.position`,
  ),
  parts: db.prepare<[string], { agreement_id: string; id: string; type: string; description: string; price_ore: number; vat_rate: number }>(
    `SELECT agreement_id, id, type, description, price_ore, vat_rate FROM agreement_parts WHERE agreement_id IN (${IDS}) ORDER BY agreement_id, position`,
  ),
  storedAnswer: db.prepare<[string, string], { body: string }>('SELECT body FROM idempotency_keys WHERE scope = ? AND key = ?'),
  notification: db.prepare<[string, string], Record<string, unknown>>('SELECT * FROM notifications WHERE id = ? AND user_id = ?'),
  markRead: db.prepare('UPDATE notifications SET is_read = 1, read_at = ?, version = version + 1 WHERE id = ?'),
  changeLog: db.prepare("INSERT INTO change_log (entity, entity_id, op, user_id, created_at) VALUES ('notification', ?, 'upsert', ?, ?)"),
  storeAnswer: db.prepare(
    'INSERT INTO idempotency_keys (scope, key, request_hash, status, headers, body, created_at) VALUES (?, ?, ?, 200, \'{"content-type":"application/json"}\', ?, ?)',
  ),
}

function caller(c: Context) {
  const token = c.req.header('Authorization')?.match(/^Bearer\s+(\S+)$/)?.[1]
  return token ? q.session.get(sha256(token), new Date().toISOString()) : undefined
}

function groupBy<T extends { agreement_id: string }>(rows: T[]): Map<string, T[]> {
  const map = new Map<string, T[]>()
  for (const r of rows) {
    const list = map.get(r.agreement_id)
    if (list) list.push(r)
    else map.set(r.agreement_id, [r])
  }
  return map
}

function views(rows: PageRow[]) {
  const ids = JSON.stringify(rows.map((r) => r.id))
  const addresses = groupBy(q.addresses.all(ids))
  const parts = groupBy(q.parts.all(ids))
  return rows.map((r) => {
    const schedule = {
      status: r.status,
      nextRegularPaymentDate: r.next_regular_payment_date,
      terminationDate: r.termination_date,
      finalPaymentRequired: r.final_payment_required === 1,
      paymentPeriod: r.payment_period,
      startPaymentDate: r.start_payment_date,
    }
    const upcoming = upcomingPayment(schedule)
    return {
      id: r.id,
      externalId: String(r.external_seq),
      companyId: r.company_id,
      paymentProviderId: r.payment_provider_id,
      member: { userId: r.member_user_id, title: initialsOf(r.full_name), fullName: r.full_name, emailAddress: r.email_address, isVerified: r.verified === 1 },
      addresses: (addresses.get(r.id) ?? []).map((a) => ({
        id: a.id,
        street: a.street,
        number: a.number,
        floor: a.floor,
        side: a.side,
        zip: a.zip,
        city: a.city,
        country: a.country,
      })),
      price: r.price_ore,
      currency: r.currency,
      status: r.status,
      overdue: r.overdue === 1,
      debtCollection: r.debt_collection_since !== null && r.overdue === 1,
      debtCollectionSince: r.debt_collection_since,
      paymentPeriod: r.payment_period,
      startPaymentDate: r.start_payment_date,
      nextRegularPaymentDate: upcoming?.kind === 'REGULAR' ? upcoming.date : null,
      nextPaymentDate: upcoming?.date ?? null,
      terminationDate: r.termination_date,
      finalPaymentRequired: r.final_payment_required === 1,
      parts: (parts.get(r.id) ?? []).map((p) => ({
        id: p.id,
        type: p.type,
        description: p.description,
        price: p.price_ore,
        vatRate: p.vat_rate,
        currency: 'DKK',
      })),
      providerAgreementId: r.vipps_agreement_id,
      collectionProblem: collectionProblem(
        { status: r.status as 'ACCEPTED', providerAgreementId: r.vipps_agreement_id },
        { providerActive: r.provider_active === 1, companyCollects: r.company_status === 'ACTIVE' },
      ),
      version: r.version,
      createdAt: r.created_at,
      updatedAt: r.updated_at,
    }
  })
}

const app = new Hono()
  .get('/api/health', (c) => c.json({ status: 'ok' }))
  .get('/api/agreement', (c) => {
    const who = caller(c)
    if (!who) return c.json({ error: 'UNAUTHORIZED' }, 401)
    const companyId = c.req.query('companyId')
    const limit = Math.min(200, Number(c.req.query('limit') ?? 200))
    const cursor = c.req.query('cursor')
    const [afterCompany, afterSeq, afterId] = cursor ? (JSON.parse(Buffer.from(cursor, 'base64url').toString()) as [string, number, string]) : ['', 0, '']
    let rows: PageRow[]
    if (companyId) {
      if (who.system_role !== 'SUPERADMIN' && !q.membership.get(who.user_id, companyId)) return c.json({ error: 'NOT_FOUND' }, 404)
      rows = q.companyPage.all(companyId, afterCompany, afterSeq, afterId, limit + 1)
    } else if (who.system_role === 'SUPERADMIN') rows = q.allPage.all(afterCompany, afterSeq, afterId, limit + 1)
    else return c.json({ error: 'NOT_SUPPORTED_BY_THE_FLOOR' }, 400)
    const page = rows.slice(0, limit)
    if (rows.length > limit) {
      const last = page[page.length - 1]!
      const url = new URL(c.req.url)
      url.searchParams.set('cursor', Buffer.from(JSON.stringify([last.company_id, last.external_seq, last.id])).toString('base64url'))
      c.header('Link', `<${url.pathname}${url.search}>; rel="next"`)
    }
    return c.json(views(page))
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
        const body = JSON.stringify({
          id: row.id,
          title: row.title,
          message: row.message,
          type: row.type,
          isRead: row.is_read === 1,
          actionUrl: row.action_url,
          actionText: row.action_text,
          localized: null,
          createdAt: row.created_at,
          version: row.version,
        })
        if (key) q.storeAnswer.run(who.user_id, key, sha256(`PATCH ${c.req.path}\n\n`), body, now)
        return body
      })
      .immediate()
    if (answer === undefined) return c.json({ error: 'NOT_FOUND' }, 404)
    return c.body(answer, 200, { 'Content-Type': 'application/json' })
  })

serve({ fetch: app.fetch, port: Number(port), hostname: '127.0.0.1' })
