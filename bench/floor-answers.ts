/**
 * What the two floor servers of bench/api.ts share (bench/floor-server.ts on SQLite,
 * bench/floor-server-pg.ts on PostgreSQL): the page query's text, and how rows become the
 * product's JSON — the agreement views of a page with its `Link` header, and the answer of marking
 * a notification read. Everything here is plain functions over rows, so each floor keeps its own
 * fastest way of reading them (synchronous prepared statements on SQLite, pipelined queries on
 * PostgreSQL).
 */
import { createHash } from 'node:crypto'
import type { Context } from 'hono'
import { initialsOf, type PaymentPeriod } from '../shared/domain/agreement-parts'
import { collectionProblem } from '../shared/domain/agreement-status'
import { upcomingPayment } from '../shared/domain/termination'

export const sha256 = (v: string): string => createHash('sha256').update(v).digest('hex')

/** The bearer token of the request, if it sends one. */
export const bearerToken = (c: Context): string | undefined => c.req.header('Authorization')?.match(/^Bearer\s+(\S+)$/)?.[1]

/** A boolean column: 0/1 on SQLite, a boolean on PostgreSQL. */
const flag = (value: number | boolean | null): boolean => value === 1 || value === true

type Flag = number | boolean

export interface PageRow {
  id: string
  company_id: string
  external_seq: number
  payment_provider_id: string
  member_user_id: string
  full_name: string
  email_address: string
  verified: Flag
  price_ore: number
  currency: 'DKK'
  status: string
  overdue: Flag
  debt_collection_since: string | null
  payment_period: PaymentPeriod
  start_payment_date: string
  next_regular_payment_date: string | null
  termination_date: string | null
  final_payment_required: Flag
  vipps_agreement_id: string | null
  provider_active: Flag | null
  company_status: string | null
  version: number
  created_at: string
  updated_at: string
}

export interface AddressRow {
  agreement_id: string
  id: string
  street: string
  number: string
  floor: string | null
  side: string | null
  zip: string
  city: string
  country: string
}

export interface PartRow {
  agreement_id: string
  id: string
  type: string
  description: string
  price_ore: number
  vat_rate: number
}

/** The addresses and the parts of the agreements whose ids `inIds` names (`IN (…)` or `= ANY(…)`, per engine), in their order. */
export const addressesSql = (inIds: string): string =>
  `SELECT aa.agreement_id, ad.id, ad.street, ad.number, ad.floor, ad.side, ad.zip, ad.city, ad.country
   FROM agreement_addresses aa JOIN addresses ad ON ad.id = aa.address_id WHERE aa.agreement_id ${inIds} ORDER BY aa.agreement_id, aa.position`
export const partsSql = (inIds: string): string =>
  `SELECT agreement_id, id, type, description, price_ore, vat_rate FROM agreement_parts WHERE agreement_id ${inIds} ORDER BY agreement_id, position`

/** The page asked for: its company (if any), its size and the keyset it starts after. */
export function pageRequest(c: Context) {
  const cursor = c.req.query('cursor')
  const [afterCompany, afterSeq, afterId] = cursor ? (JSON.parse(Buffer.from(cursor, 'base64url').toString()) as [string, number, string]) : ['', 0, '']
  return { companyId: c.req.query('companyId'), limit: Math.min(200, Number(c.req.query('limit') ?? 200)), after: [afterCompany, afterSeq, afterId] as const }
}

/** The page's rows of `limit + 1` read: sets the `Link` header to the next page when there is one, and answers the page. */
export function pageOf(c: Context, rows: PageRow[], limit: number): PageRow[] {
  const page = rows.slice(0, limit)
  if (rows.length > limit) {
    const last = page[page.length - 1]!
    const url = new URL(c.req.url)
    url.searchParams.set('cursor', Buffer.from(JSON.stringify([last.company_id, last.external_seq, last.id])).toString('base64url'))
    c.header('Link', `<${url.pathname}${url.search}>; rel="next"`)
  }
  return page
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

/** The product's agreement views of a page, from its rows and their addresses and parts. */
export function views(rows: PageRow[], addressRows: AddressRow[], partRows: PartRow[]) {
  const addresses = groupBy(addressRows)
  const parts = groupBy(partRows)
  return rows.map((r) => {
    const schedule = {
      status: r.status,
      nextRegularPaymentDate: r.next_regular_payment_date,
      terminationDate: r.termination_date,
      finalPaymentRequired: flag(r.final_payment_required),
      paymentPeriod: r.payment_period,
      startPaymentDate: r.start_payment_date,
    }
    const upcoming = upcomingPayment(schedule)
    const overdue = flag(r.overdue)
    return {
      id: r.id,
      externalId: String(r.external_seq),
      companyId: r.company_id,
      paymentProviderId: r.payment_provider_id,
      member: { userId: r.member_user_id, title: initialsOf(r.full_name), fullName: r.full_name, emailAddress: r.email_address, isVerified: flag(r.verified) },
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
      overdue,
      debtCollection: r.debt_collection_since !== null && overdue,
      debtCollectionSince: r.debt_collection_since,
      paymentPeriod: r.payment_period,
      startPaymentDate: r.start_payment_date,
      nextRegularPaymentDate: upcoming?.kind === 'REGULAR' ? upcoming.date : null,
      nextPaymentDate: upcoming?.date ?? null,
      terminationDate: r.termination_date,
      finalPaymentRequired: flag(r.final_payment_required),
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
        { providerActive: flag(r.provider_active), companyCollects: r.company_status === 'ACTIVE' },
      ),
      version: r.version,
      createdAt: r.created_at,
      updatedAt: r.updated_at,
    }
  })
}

/** The product's answer to marking a notification read, as the text it stores for the Idempotency-Key. */
export const notificationAnswer = (row: Record<string, unknown>): string =>
  JSON.stringify({
    id: row.id,
    title: row.title,
    message: row.message,
    type: row.type,
    isRead: flag(row.is_read as Flag),
    actionUrl: row.action_url,
    actionText: row.action_text,
    localized: null,
    createdAt: row.created_at,
    version: row.version,
  })

/** What the floors store beside an answer, as the product does for this request (`PATCH <path>`, no body, no If-Match). */
export const storedHeaders = '{"content-type":"application/json"}'
export const requestHash = (c: Context): string => sha256(`PATCH ${c.req.path}\n\n`)
