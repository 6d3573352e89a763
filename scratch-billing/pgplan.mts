import { startPgCluster } from '../server/test/pg-cluster'
import { openPostgres } from '../server/db/postgres'
import pg from 'pg'
const cluster = await startPgCluster()
try {
  const url = await cluster.createDatabase('plan')
  const d = await openPostgres(url)
  await d.close()
  const client = new pg.Client(url)
  await client.connect()
  await client.query('SET enable_seqscan = off')
  const r = await client.query(`EXPLAIN SELECT a.id FROM agreements a JOIN companies c ON c.id = a.company_id JOIN payment_providers p ON p.id = a.payment_provider_id
   LEFT JOIN users u ON u.id = a.member_user_id
   LEFT JOIN addresses ad ON ad.id = (SELECT address_id FROM agreement_addresses WHERE agreement_id = a.id ORDER BY position LIMIT 1)
   WHERE a.status = 'ACCEPTED' AND a.next_regular_payment_date <= $1 AND (a.next_regular_payment_date, a.id) > ($2, $3)
     AND a.vipps_agreement_id IS NOT NULL AND c.status = 'ACTIVE' AND p.is_active = TRUE
   ORDER BY a.next_regular_payment_date, a.id LIMIT $4`, ['2026-12-01', '', '', 500])
  for (const row of r.rows) console.log(row['QUERY PLAN'])
  await client.end()
} finally {
  await cluster.stop()
}
