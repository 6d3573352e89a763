import { getTableColumns } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { statement, type Dialect, type Statement } from '../../db/statement'
import { agreements } from '../../db/schema/agreements'
import type { AgreementStatus } from '../../../shared/domain/agreement-status'
import type { AgreementRow, AgreementScope, PartRow } from './agreements.repository'

/**
 * The set-based reads behind every agreement shown (docs/API.md "Lists"): a page of rows in one statement,
 * then what its views need (members, addresses, parts, overdue, collection context) in one
 * statement each for the whole set. The ids go in as one JSON array (`Dialect.jsonValues`), so the
 * SQL text does not depend on how many there are and each statement is prepared once per
 * connection on SQLite (server/db/statement.ts) and runs as it is on PostgreSQL.
 */

const columns = Object.entries(getTableColumns(agreements))
/** `a."company_id" AS "companyId", …`: the rows come back shaped as drizzle's AgreementRow. */
const rowColumns = columns.map(([key, column]) => `a."${column.name}" AS "${key}"`).join(', ')
/** Columns whose stored value differs from the row's (the booleans: 0/1 on SQLite, true/false on PostgreSQL). */
const mapped = columns.filter(([, column]) => column.columnType === 'SQLiteBoolean')

const toRow = (raw: Record<string, unknown>): AgreementRow => {
  for (const [key, column] of mapped) if (raw[key] !== null) raw[key] = column.mapFromDriverValue(raw[key])
  return raw as AgreementRow
}

/** The strings of a JSON array parameter, as a subquery. */
const ids = (d: Dialect, parameter: string) => `SELECT value FROM ${d.jsonValues(parameter, 'j')}`

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
/** A company's status (`status`) or a provider's switch (`active`, 0 or 1) among the collection context. */
export interface CollectingFacts {
  kind: 'company' | 'provider'
  id: string
  status: string | null
  active: 0 | 1 | null
}

/** The statements behind the views; each takes its ids as one JSON array. */
export const agreementReads = {
  members: statement<[string], MemberFacts>(
    (d) => `SELECT u.id, u.full_name AS "fullName", u.email_address AS "emailAddress",
              CASE WHEN EXISTS (SELECT 1 FROM auth_methods m WHERE m.user_id = u.id AND m.verified_at IS NOT NULL) THEN 1 ELSE 0 END AS verified
       FROM users u WHERE u.id IN (${ids(d, '?')})`,
  ),
  addresses: statement<[string], AddressFacts>(
    (d) => `SELECT aa.agreement_id AS "agreementId", ad.id, ad.street, ad.number, ad.floor, ad.side, ad.zip, ad.city, ad.country
       FROM agreement_addresses aa JOIN addresses ad ON ad.id = aa.address_id
       WHERE aa.agreement_id IN (${ids(d, '?')}) ORDER BY aa.agreement_id, aa.position`,
  ),
  parts: statement<[string], PartFacts>(
    (d) => `SELECT agreement_id AS "agreementId", id, type, description, price_ore AS "priceOre", vat_rate AS "vatRate"
       FROM agreement_parts WHERE agreement_id IN (${ids(d, '?')}) ORDER BY agreement_id, position`,
  ),
  /**
   * The overdue ones among the ids (docs/DOMAIN.md "Overdue"): a FAILED charge, and no EXECUTED
   * charge due on or after the last FAILED one's due date (dates compare as text, as YYYY-MM-DD).
   * On SQLite CROSS JOIN keeps the ids outside and `+status` keeps the planner on
   * charges_agreement, so the cost is the page's charges, never every FAILED charge in the database.
   */
  overdue: statement<[string], string>(
    (d) => `SELECT f."agreementId" FROM (
         SELECT j.value AS "agreementId", MAX(c.due) AS "lastFailed"
         FROM ${d.jsonValues('?', 'j')} ${d.orderedJoin} charges c ON c.agreement_id = j.value AND ${d.unindexed('c.status')} = 'FAILED'
         GROUP BY j.value
       ) f
       WHERE NOT EXISTS (SELECT 1 FROM charges e WHERE e.agreement_id = f."agreementId" AND ${d.unindexed('e.status')} = 'EXECUTED' AND e.due >= f."lastFailed")`,
    { pluck: true },
  ),
  /**
   * The companies' statuses and the providers' switches of a set of ACCEPTED agreements (their
   * collection problem): companies first, then providers (one column each, so both engines type the union).
   */
  collecting: statement<[string, string], CollectingFacts>(
    (d) => `SELECT 'company' AS kind, id, status, NULL AS active FROM companies WHERE id IN (${ids(d, '?')})
       UNION ALL SELECT 'provider', id, NULL, CASE WHEN is_active THEN 1 ELSE 0 END FROM payment_providers WHERE id IN (${ids(d, '?')})`,
  ),
}

/** A sync snapshot page (docs/API.md "Sync"): the rows in scope in id order after an id. */
const syncPage = {
  all: statement<{ afterId: string; limit: number }, Record<string, unknown>>(
    `SELECT ${rowColumns} FROM agreements a WHERE a.id > @afterId ORDER BY a.id LIMIT @limit`,
  ),
  scoped: statement<{ afterId: string; limit: number; member: string; companies: string }, Record<string, unknown>>(
    (d) => `SELECT ${rowColumns} FROM agreements a
       WHERE a.id > @afterId AND (a.member_user_id = @member OR a.company_id IN (${ids(d, '@companies')}))
       ORDER BY a.id LIMIT @limit`,
  ),
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

type PageParams = {
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

/** Page statements by the filters present (at most 2^5 shapes, each made on first use). */
const pages = new Map<string, Statement<PageParams, Record<string, unknown>>>()

/** The page statement of one shape: which filters are present. */
function pageStatement(has: { scoped: boolean; company: boolean; status: boolean; search: boolean; after: boolean }) {
  return statement<PageParams, Record<string, unknown>>((d) => {
    const where = [
      has.scoped ? `(a.member_user_id = @member OR a.company_id IN (${ids(d, '@companies')}))` : undefined,
      has.company ? 'a.company_id = @companyId' : undefined,
      has.status ? 'a.status = @status' : undefined,
      has.search ?
        `(${d.position(d.fold('u.full_name'), '@needle')} > 0 OR ${d.position(d.fold('u.email_address'), '@needle')} > 0 OR ${d.position('CAST(a.external_seq AS TEXT)', '@search')} = 1)`
      : undefined,
      // Within one company the cursor is the external id alone. (company, external id) is unique,
      // so the id in the sort key never decides between rows.
      !has.after ? undefined
      : has.company ? 'a.external_seq > @afterSeq'
      : '(a.company_id, a.external_seq) > (@afterCompany, @afterSeq)',
    ].filter((w) => w !== undefined)
    return `SELECT ${rowColumns} FROM agreements a${has.search ? ' JOIN users u ON u.id = a.member_user_id' : ''}
       ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY a.company_id, a.external_seq, a.id LIMIT @limit`
  })
}

/**
 * One page of the agreements in `scope`, in (company, external id, id) order, after `filter.after`.
 * Keyset paging on the (company_id, external_seq) index: the cost is the page, not the position.
 */
export async function agreementPage(db: Db, scope: AgreementScope, filter: AgreementPageFilter): Promise<AgreementRow[]> {
  const { companyId, after } = filter
  // Within one company the cursor is the external id alone, so the (company_id, external_seq)
  // index gives the range; a cursor of another company starts before or after all of its rows.
  if (companyId && after && after[0] > companyId) return []
  const afterSeq = companyId && after && after[0] < companyId ? undefined : after?.[1]
  const search = filter.search ? filter.search : undefined
  const has = { scoped: scope !== 'all', company: !!companyId, status: !!filter.status, search: search !== undefined, after: afterSeq !== undefined }
  const shape = Object.values(has).map(Number).join('')
  let page = pages.get(shape)
  if (!page) pages.set(shape, (page = pageStatement(has)))
  const rows = await page.all(db, {
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
  return rows.map(toRow)
}

/** Rows for a sync snapshot: those in `scope` with an id after `afterId`, in id order. */
export async function agreementSyncPage(db: Db, scope: AgreementScope, afterId: string | null, limit: number): Promise<AgreementRow[]> {
  const rows =
    scope === 'all' ?
      await syncPage.all.all(db, { afterId: afterId ?? '', limit })
    : await syncPage.scoped.all(db, { afterId: afterId ?? '', limit, member: scope.memberUserId, companies: JSON.stringify(scope.companyIds) })
  return rows.map(toRow)
}
