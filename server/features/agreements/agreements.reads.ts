import type Database from 'better-sqlite3'
import { getTableColumns } from 'drizzle-orm'
import { connectionOf, type Db } from '../../db/client'
import { agreements } from '../../db/schema/agreements'
import type { AgreementStatus } from '../../../shared/domain/agreement-status'
import type { AgreementRow, AgreementScope, PartRow } from './agreements.repository'

/**
 * The set-based reads behind every agreement shown (issue #19): a page of rows in one statement,
 * then what its views need (members, addresses, parts, overdue, collection context) in one
 * statement each for the whole set. The ids go in as one JSON array (`json_each`), so the SQL
 * text does not depend on how many there are and each statement is prepared once per connection
 * (WeakMap by connection: a request may read on another connection than the one that writes).
 */

const columns = Object.entries(getTableColumns(agreements))
/** `a.company_id AS "companyId", …`: the rows come back shaped as drizzle's AgreementRow. */
const rowColumns = columns.map(([key, column]) => `a."${column.name}" AS "${key}"`).join(', ')
/** Columns whose stored value differs from the row's (the booleans stored as 0/1). */
const mapped = columns.filter(([, column]) => column.columnType === 'SQLiteBoolean')

const toRow = (raw: Record<string, unknown>): AgreementRow => {
  for (const [key, column] of mapped) if (raw[key] !== null) raw[key] = column.mapFromDriverValue(raw[key])
  return raw as AgreementRow
}

const IDS = 'SELECT value FROM json_each(?)'

export interface MemberFacts {
  id: string
  fullName: string
  emailAddress: string
  /** 1 when the member has a proven way to sign in (an unconfirmed e-mail sign-in does not count). */
  verified: 0 | 1
}
export interface AddressFacts {
  agreementId: string
  id: string
  street: string
  number: string
  floor: string | null
  side: string | null
  zip: string
  city: string
  country: string
}
export interface PartFacts {
  agreementId: string
  id: string
  type: PartRow['type']
  description: string
  priceOre: number
  vatRate: number
}

/**
 * SQLite's own lower() and LIKE fold only A–Z, yet "søren" must find "Søren" and "ærø" "ÆRØ":
 * the search compares JavaScript's lower case, registered on the connection.
 */
const FOLD = 'boligkasse_fold'

function prepare(sqlite: Database.Database) {
  sqlite.function(FOLD, { deterministic: true }, (value: unknown) => (typeof value === 'string' ? value.toLowerCase() : value) as string | null)
  return {
    members: sqlite.prepare<[string], MemberFacts>(
      `SELECT u.id, u.full_name AS fullName, u.email_address AS emailAddress,
              EXISTS (SELECT 1 FROM auth_methods m WHERE m.user_id = u.id AND m.verified_at IS NOT NULL) AS verified
       FROM users u WHERE u.id IN (${IDS})`,
    ),
    addresses: sqlite.prepare<[string], AddressFacts>(
      `SELECT aa.agreement_id AS agreementId, ad.id, ad.street, ad.number, ad.floor, ad.side, ad.zip, ad.city, ad.country
       FROM agreement_addresses aa JOIN addresses ad ON ad.id = aa.address_id
       WHERE aa.agreement_id IN (${IDS}) ORDER BY aa.agreement_id, aa.position`,
    ),
    parts: sqlite.prepare<[string], PartFacts>(
      `SELECT agreement_id AS agreementId, id, type, description, price_ore AS priceOre, vat_rate AS vatRate
       FROM agreement_parts WHERE agreement_id IN (${IDS}) ORDER BY agreement_id, position`,
    ),
    /**
     * The overdue ones among the ids (docs/DOMAIN.md "Overdue"): a FAILED charge, and no EXECUTED
     * charge due on or after the last FAILED one's due date (dates compare as text, as YYYY-MM-DD).
     * CROSS JOIN keeps the ids outside and `+status` keeps the planner on charges_agreement, so
     * the cost is the page's charges, never every FAILED charge in the database.
     */
    overdue: sqlite
      .prepare<[string], string>(
        `SELECT f.agreementId FROM (
           SELECT j.value AS agreementId, MAX(c.due) AS lastFailed
           FROM json_each(?) j CROSS JOIN charges c ON c.agreement_id = j.value AND +c.status = 'FAILED'
           GROUP BY j.value
         ) f
         WHERE NOT EXISTS (SELECT 1 FROM charges e WHERE e.agreement_id = f.agreementId AND +e.status = 'EXECUTED' AND e.due >= f.lastFailed)`,
      )
      .pluck(),
    /** The companies' statuses and the providers' switches of a set of ACCEPTED agreements (their collection problem). */
    collecting: sqlite.prepare<[string, string], { kind: 'company' | 'provider'; id: string; value: string | number }>(
      `SELECT 'company' AS kind, id, status AS value FROM companies WHERE id IN (${IDS})
       UNION ALL SELECT 'provider', id, is_active FROM payment_providers WHERE id IN (${IDS})`,
    ),
    /** A sync snapshot page (docs/API.md "Sync"): the rows in scope in id order after an id. */
    syncPage: {
      all: sqlite.prepare<[{ afterId: string; limit: number }], Record<string, unknown>>(
        `SELECT ${rowColumns} FROM agreements a WHERE a.id > @afterId ORDER BY a.id LIMIT @limit`,
      ),
      scoped: sqlite.prepare<[{ afterId: string; limit: number; member: string; companies: string }], Record<string, unknown>>(
        `SELECT ${rowColumns} FROM agreements a
         WHERE a.id > @afterId AND (a.member_user_id = @member OR a.company_id IN (SELECT value FROM json_each(@companies)))
         ORDER BY a.id LIMIT @limit`,
      ),
    },
    /** Page statements by the filters present (at most 2^5 shapes, each prepared on first use). */
    pages: new Map<string, Database.Statement<[PageParams], Record<string, unknown>>>(),
  }
}

const cache = new WeakMap<Database.Database, ReturnType<typeof prepare>>()

/** The statements of the connection under `db` (prepared on its first use). */
export function agreementReads(db: Db) {
  const sqlite = connectionOf(db)
  let s = cache.get(sqlite)
  if (!s) {
    s = prepare(sqlite)
    cache.set(sqlite, s)
  }
  return s
}

/** Where a page starts: after this sort key (company, external id, id). */
export type AgreementPageKey = [companyId: string, externalSeq: number, id: string]

export interface AgreementPageFilter {
  companyId?: string
  status?: AgreementStatus
  search?: string
  after?: AgreementPageKey
  /** Rows to read (the caller asks for one more than it shows, to know whether another page exists). */
  limit: number
}

interface PageParams {
  member: string | null
  companies: string
  companyId: string | null
  status: string | null
  needle: string | null
  search: string | null
  afterCompany: string | null
  afterSeq: number | null
  limit: number
}

/**
 * One page of the agreements in `scope`, in (company, external id, id) order, after `filter.after`.
 * Keyset paging on the (company_id, external_seq) index: the cost is the page, not the position.
 */
export function agreementPage(db: Db, scope: AgreementScope, filter: AgreementPageFilter): AgreementRow[] {
  const { companyId, after } = filter
  // Within one company the cursor is the external id alone, so the (company_id, external_seq)
  // index gives the range; a cursor of another company starts before or after all of its rows.
  if (companyId && after && after[0] > companyId) return []
  const afterSeq = companyId && after && after[0] < companyId ? undefined : after?.[1]
  const reads = agreementReads(db)
  const search = filter.search ? filter.search : undefined
  const shape = [scope === 'all' ? 'all' : 'scoped', companyId ? 'c' : '', filter.status ? 's' : '', search ? 'q' : '', afterSeq !== undefined ? 'a' : ''].join(
    '|',
  )
  let statement = reads.pages.get(shape)
  if (!statement) {
    const where = [
      scope === 'all' ? undefined : `(a.member_user_id = @member OR a.company_id IN (SELECT value FROM json_each(@companies)))`,
      companyId ? 'a.company_id = @companyId' : undefined,
      filter.status ? 'a.status = @status' : undefined,
      search ?
        `(instr(${FOLD}(u.full_name), @needle) > 0 OR instr(${FOLD}(u.email_address), @needle) > 0 OR instr(CAST(a.external_seq AS TEXT), @search) = 1)`
      : undefined,
      // (company, external id) is unique, so the id in the sort key never decides between rows.
      afterSeq === undefined ? undefined
      : companyId ? 'a.external_seq > @afterSeq'
      : '(a.company_id, a.external_seq) > (@afterCompany, @afterSeq)',
    ].filter((w) => w !== undefined)
    statement = connectionOf(db).prepare<[PageParams], Record<string, unknown>>(
      `SELECT ${rowColumns} FROM agreements a${search ? ' JOIN users u ON u.id = a.member_user_id' : ''}
       ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY a.company_id, a.external_seq, a.id LIMIT @limit`,
    )
    reads.pages.set(shape, statement)
  }
  return statement
    .all({
      member: scope === 'all' ? null : scope.memberUserId,
      companies: JSON.stringify(scope === 'all' ? [] : scope.companyIds),
      companyId: companyId ?? null,
      status: filter.status ?? null,
      needle: search?.toLowerCase() ?? null,
      search: search ?? null,
      afterCompany: after?.[0] ?? null,
      afterSeq: afterSeq ?? null,
      limit: filter.limit,
    })
    .map(toRow)
}

/** Rows for a sync snapshot: those in `scope` with an id after `afterId`, in id order. */
export function agreementSyncPage(db: Db, scope: AgreementScope, afterId: string | null, limit: number): AgreementRow[] {
  const { syncPage } = agreementReads(db)
  const rows =
    scope === 'all' ?
      syncPage.all.all({ afterId: afterId ?? '', limit })
    : syncPage.scoped.all({ afterId: afterId ?? '', limit, member: scope.memberUserId, companies: JSON.stringify(scope.companyIds) })
  return rows.map(toRow)
}
