import { openDatabase } from '../server/db/client'
const d = openDatabase(':memory:')
const q = `EXPLAIN QUERY PLAN SELECT a.id, a.company_id, u.full_name AS member_name, ad.street
   FROM agreements a JOIN companies c ON c.id = a.company_id JOIN payment_providers p ON p.id = a.payment_provider_id
   LEFT JOIN users u ON u.id = a.member_user_id
   LEFT JOIN addresses ad ON ad.id = (SELECT address_id FROM agreement_addresses WHERE agreement_id = a.id ORDER BY position LIMIT 1)
   WHERE a.status = 'ACCEPTED' AND a.next_regular_payment_date <= @horizon AND (a.next_regular_payment_date, a.id) > (@afterDate, @afterId)
     AND a.vipps_agreement_id IS NOT NULL AND c.status = 'ACTIVE' AND p.is_active = TRUE
   ORDER BY a.next_regular_payment_date, a.id LIMIT @limit`
for (const r of d.sqlite.prepare(q).all({ horizon: '2026-12-01', afterDate: '', afterId: '', limit: 500 }) as { detail: string }[]) console.log(r.detail)
console.log('--- overdue')
const q2 = `EXPLAIN QUERY PLAN SELECT c.id FROM charges c INDEXED BY charges_failed_on JOIN invoices i ON i.id = c.invoice_id AND i.charge_id = c.id AND i.kind = 'INVOICE'
     WHERE c.failed_on IS NOT NULL AND c.status IN ('FAILED', 'DECLINED') AND c.failed_on <= @latest AND c.overdue_step <= @steps
       AND i.settlement IS NULL AND i.status <> 'EXECUTED'
       AND (c.failed_on <= (SELECT value FROM json_each(@reminderCutoffs) WHERE key = c.overdue_step)
         OR (c.failed_on <= @debtCutoff AND EXISTS (SELECT 1 FROM agreements a WHERE a.id = c.agreement_id AND a.debt_collection_since IS NULL)))`
for (const r of d.sqlite.prepare(q2).all({ latest: 'x', steps: 2, reminderCutoffs: '[]', debtCutoff: 'x' }) as { detail: string }[]) console.log(r.detail)
d.close()
