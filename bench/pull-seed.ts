/**
 * The pull bench's changes (bench/run.ts): every entity the offline client keeps, not only
 * notifications. Agreements are copies of a demo agreement of the user's company (with its parts
 * and addresses); charges with their invoices and lines, and sent messages with their recipient,
 * are written for them as billing and the message form write them; notifications are the user's
 * own. Each with the change-log row the product would write, so the sync endpoint builds its real
 * views for them. Written into the running server's SQLite file in one transaction.
 */
import Database from 'better-sqlite3'
import { v7 } from 'uuid'

type Row = Record<string, unknown>

/** An INSERT of every column of `table`, from a row object (a template row with some columns changed). */
function inserter(db: Database.Database, table: string) {
  const columns = (db.pragma(`table_info(${table})`) as { name: string }[]).map((c) => c.name)
  const insert = db.prepare(`INSERT INTO ${table} (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`)
  return (template: Row, changes: Row) => insert.run({ ...template, ...changes })
}

/** How many rows of each entity a pull of `total` changes gets: a fifth each. */
export const pullMix = (total: number) => {
  const each = Math.floor(total / 5)
  return { agreement: each, charge: each, invoice: each, message: each, notification: total - 4 * each }
}

export function seedPull(path: string, userId: string, total: number): void {
  const mix = pullMix(total)
  const db = new Database(path)
  db.pragma('busy_timeout = 30000')
  const one = (sql: string, ...args: unknown[]) => db.prepare<unknown[], Row>(sql).get(...args)
  const member = one('SELECT company_id FROM company_members WHERE user_id = ? ORDER BY created_at LIMIT 1', userId)
  if (!member) throw new Error('the bench user runs no company')
  const companyId = member.company_id as string
  // The demo data has agreements but (until billing and members act) no charges or messages:
  // those are written here as billing and the message form write them.
  const agreement = one("SELECT * FROM agreements WHERE company_id = ? ORDER BY status = 'ACCEPTED' DESC, external_seq LIMIT 1", companyId)
  const company = one('SELECT * FROM companies WHERE id = ?', companyId)
  if (!agreement || !company) throw new Error('the demo company has no agreement')
  const memberRow = one('SELECT * FROM users WHERE id = ?', agreement.member_user_id)!
  const now = new Date().toISOString()
  const today = now.slice(0, 10)
  const charge: Row = {
    company_id: companyId,
    kind: 'REGULAR',
    type: 'RECURRING',
    amount_ore: agreement.price_ore,
    currency: 'DKK',
    description: 'Boligafgift',
    due: today,
    status: 'EXECUTED',
    vipps_charge_id: null,
    vipps_status: 'CHARGED',
    captured_ore: agreement.price_ore,
    refunded_ore: 0,
    failure_reason: null,
    failed_on: null,
    overdue_step: 0,
    version: 1,
    created_at: now,
    updated_at: now,
  }
  const invoice: Row = {
    company_id: companyId,
    kind: 'INVOICE',
    agreement_id: agreement.id,
    member_user_id: agreement.member_user_id,
    credited_invoice_id: null,
    refund_id: null,
    issue_date: today,
    due_date: today,
    status: 'EXECUTED',
    description: 'Boligafgift',
    company_name: company.name,
    company_cvr: company.cvr,
    company_address: null,
    consumer_name: memberRow.full_name,
    consumer_address: 'Solgårdsvej 2, 1. tv, 2200 København N',
    consumer_phone_number: null,
    consumer_email_address: memberRow.email_address,
    currency: 'DKK',
    subtotal_ore: agreement.price_ore,
    vat_ore: 0,
    total_ore: agreement.price_ore,
    vat_rate: 0,
    payment_status: null,
    payment_type: null,
    payment_date: today,
    version: 1,
    created_at: now,
    updated_at: now,
    settlement: null,
    settled_on: null,
    settlement_note: null,
    settled_by_user_id: null,
    settled_by_name: null,
  }
  const line: Row = {
    position: 0,
    article_number: '1',
    type: 'COMMON_EXPENSES',
    description: 'Boligafgift',
    quantity: 1,
    unit: 'stk',
    price_per_unit_ore: agreement.price_ore,
    vat_rate: 0,
    vat_ore: 0,
    total_incl_vat_ore: agreement.price_ore,
    credited_position: null,
  }
  const message: Row = {
    company_id: companyId,
    sender_user_id: userId,
    anonymous: 0,
    type: 'MESSAGE',
    subject: 'Generalforsamling',
    body: '<p>Der er generalforsamling <strong>torsdag</strong> kl. 19 i fælleshuset.</p>',
    status: 'SENT',
    recipient_kind: 'MEMBER',
    recipient_user_id: agreement.member_user_id,
    recipient_address_id: null,
    recipient_label: memberRow.full_name,
    send_at: null,
    sent_at: now,
    version: 1,
    created_at: now,
    updated_at: now,
  }
  const recipient: Row = {
    user_id: agreement.member_user_id,
    email_address: memberRow.email_address,
    full_name: memberRow.full_name,
    mail_id: null,
    received_at: now,
    viewed_at: null,
    created_at: now,
  }
  const all = (sql: string, id: unknown) => db.prepare<[unknown], Row>(sql).all(id)
  const parts = all('SELECT * FROM agreement_parts WHERE agreement_id = ?', agreement.id)
  const links = all('SELECT * FROM agreement_addresses WHERE agreement_id = ?', agreement.id)
  /** Who sees a change: the company's staff and the member, as billing and the message form log it. */
  const scope = { company_id: companyId, user_id: agreement.member_user_id }
  const insert = {
    agreement: inserter(db, 'agreements'),
    part: inserter(db, 'agreement_parts'),
    link: inserter(db, 'agreement_addresses'),
    charge: inserter(db, 'charges'),
    invoice: inserter(db, 'invoices'),
    line: inserter(db, 'invoice_lines'),
    message: inserter(db, 'messages'),
    recipient: inserter(db, 'message_recipients'),
  }
  const notification = db.prepare(
    "INSERT INTO notifications (id, user_id, title, message, type, is_read, version, created_at) VALUES (?, ?, ?, ?, 'info', 0, 1, ?)",
  )
  const log = db.prepare("INSERT INTO change_log (entity, entity_id, op, company_id, user_id, created_at) VALUES (?, ?, 'upsert', ?, ?, ?)")
  const logged = (entity: 'agreement' | 'charge' | 'invoice' | 'message' | 'notification', id: string) =>
    entity === 'notification' ? log.run(entity, id, null, userId, now) : log.run(entity, id, scope.company_id, scope.user_id, now)
  const maxSeq = (one('SELECT MAX(external_seq) AS n FROM agreements WHERE company_id = ?', companyId)!.n as number) ?? 1000
  const maxNumber = (one('SELECT MAX(number) AS n FROM invoices WHERE company_id = ?', companyId)!.n as number) ?? 0
  db.transaction(() => {
    const agreementIds: string[] = []
    for (let i = 0; i < Math.max(mix.agreement, mix.charge, mix.invoice); i++) {
      const id = v7()
      agreementIds.push(id)
      insert.agreement(agreement, { id, external_seq: maxSeq + 1 + i, vipps_agreement_id: null, status: 'ACCEPTED' })
      for (const p of parts) insert.part(p, { agreement_id: id, id: v7() })
      for (const l of links) insert.link(l, { agreement_id: id })
      if (i < mix.agreement) logged('agreement', id)
    }
    // Charge and invoice copies in pairs, each pointing at the other, as billing makes them.
    for (let i = 0; i < Math.max(mix.charge, mix.invoice); i++) {
      const [chargeId, invoiceId] = [v7(), v7()]
      insert.invoice(invoice, { id: invoiceId, charge_id: chargeId, number: maxNumber + 1 + i })
      insert.line(line, { invoice_id: invoiceId, id: v7() })
      insert.charge(charge, { id: chargeId, agreement_id: agreementIds[i], invoice_id: invoiceId })
      if (i < mix.invoice) logged('invoice', invoiceId)
      if (i < mix.charge) logged('charge', chargeId)
    }
    for (let i = 0; i < mix.message; i++) {
      const id = v7()
      insert.message(message, { id })
      insert.recipient(recipient, { message_id: id, id: v7() })
      logged('message', id)
    }
    for (let i = 0; i < mix.notification; i++) {
      const id = v7()
      notification.run(id, userId, `Payment received ${i + 1}`, `<p>Charge <strong>${1000 + i}</strong> was collected.</p>`, now)
      logged('notification', id)
    }
  })()
  db.close()
}
