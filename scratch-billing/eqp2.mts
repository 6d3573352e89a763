import { openDatabase } from '../server/db/client'
const d = openDatabase(':memory:')
const show = (q: string, p: object) => {
  for (const r of d.sqlite.prepare('EXPLAIN QUERY PLAN ' + q).all(p) as { id: number; parent: number; detail: string }[]) console.log(r.id, r.parent, r.detail)
}
const q = (tie: string) => `SELECT a.id, a.company_id, u.full_name AS member_name, ad.street
   FROM agreements a JOIN companies c ON c.id = a.company_id JOIN payment_providers p ON p.id = a.payment_provider_id
   LEFT JOIN users u ON u.id = a.member_user_id
   LEFT JOIN addresses ad ON ad.id = (SELECT address_id FROM agreement_addresses WHERE agreement_id = a.id ORDER BY position LIMIT 1)
   WHERE a.status = 'ACCEPTED' AND a.next_regular_payment_date <= @horizon AND (a.next_regular_payment_date, ${tie}) > (@afterDate, @after)
     AND a.vipps_agreement_id IS NOT NULL AND c.status = 'ACTIVE' AND p.is_active = TRUE
   ORDER BY a.next_regular_payment_date, ${tie} LIMIT @limit`
console.log('new index, id:'); show(q('a.id'), { horizon: '2026-12-01', afterDate: '', after: '', limit: 500 })
d.sqlite.exec('DROP INDEX agreements_status_next; CREATE INDEX agreements_status_next ON agreements (status, next_regular_payment_date)')
console.log('old index, rowid:'); show(q('a.rowid'), { horizon: '2026-12-01', afterDate: '', after: 0, limit: 500 })
console.log('old index, id:'); show(q('a.id'), { horizon: '2026-12-01', afterDate: '', after: '', limit: 500 })
d.close()
