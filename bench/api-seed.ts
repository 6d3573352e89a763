/**
 * The data of bench/api.ts, written straight into a fresh SQLite file with prepared statements in
 * one transaction per company (seconds for 100,000 agreements): 20 active companies of 5,000
 * agreements each (members, two parts, an address, two charges, every 7th overdue, every 20th
 * still CREATED, every 2nd member with a sign-in), the first company's administrator with 100,000
 * unread notifications to mark read, a super admin, and a session for each of the two.
 */
import Database from 'better-sqlite3'
import { createHash, randomBytes } from 'node:crypto'
import { v7 } from 'uuid'
import { size } from './scale'

export const COMPANIES = 20
export const PER_COMPANY = size(5_000, 200)
export const NOTIFICATIONS = size(100_000, 20_000)

export interface Seeded {
  companyId: string
  adminToken: string
  superAdminToken: string
  /** The administrator's unread notifications, oldest first. */
  notificationIds: string[]
}

/**
 * Dates relative to the day the bench runs: two months collected, and the next payment far enough
 * ahead (the month after next) that the product's billing has nothing to do while it is measured.
 */
const TODAY = new Date()
const monthStart = (offset: number) => new Date(Date.UTC(TODAY.getUTCFullYear(), TODAY.getUTCMonth() + offset, 1)).toISOString().slice(0, 10)
const NOW = new Date(TODAY.getTime() - 86_400_000).toISOString()
const COLLECTED = [monthStart(-2), monthStart(-1)] as const
const NEXT_PAYMENT = monthStart(2)
const sha256 = (v: string) => createHash('sha256').update(v).digest('hex')

export async function seedApiBench(path: string): Promise<Seeded> {
  const { openDatabase } = await import('../server/db/client')
  openDatabase(path).close()
  const db = new Database(path)
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = NORMAL')
  const q = {
    company: db.prepare(
      "INSERT INTO companies (id, name, acronym, cvr, union_type, status, version, created_at, updated_at) VALUES (?, ?, ?, ?, 'COOP', 'ACTIVE', 1, ?, ?)",
    ),
    provider: db.prepare(
      "INSERT INTO payment_providers (id, company_id, type, is_active, is_test, provider_name, merchant_serial_number, client_id, client_secret_sealed, subscription_key_sealed, use_test_mode, version, created_at, updated_at) VALUES (?, ?, 'VIPPS', 1, 1, 'Vipps', '123456', 'c', 'x', 'x', 1, 1, ?, ?)",
    ),
    address: db.prepare(
      "INSERT INTO addresses (id, company_id, street, number, floor, side, zip, city, country, created_at) VALUES (?, ?, 'Solvej', ?, ?, ?, '2100', 'København Ø', 'Denmark', ?)",
    ),
    user: db.prepare(
      "INSERT INTO users (id, full_name, email_address, mobile_number, language, system_role, version, created_at, updated_at) VALUES (?, ?, ?, '+4512345678', 'DA', ?, 1, ?, ?)",
    ),
    signIn: db.prepare(
      "INSERT INTO auth_methods (id, user_id, type, identifier, secret_hash, verified_at, created_at) VALUES (?, ?, 'EMAIL_PASSWORD', ?, 'x', ?, ?)",
    ),
    agreement: db.prepare(
      "INSERT INTO agreements (id, company_id, external_seq, member_user_id, payment_provider_id, status, price_ore, currency, payment_period, start_payment_date, next_regular_payment_date, final_payment_required, vipps_agreement_id, version, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 515050, 'DKK', 'MONTHLY', ?, ?, 0, ?, 1, ?, ?)",
    ),
    part: db.prepare('INSERT INTO agreement_parts (agreement_id, id, position, type, description, price_ore, vat_rate) VALUES (?, ?, ?, ?, ?, ?, ?)'),
    link: db.prepare('INSERT INTO agreement_addresses (agreement_id, address_id, position) VALUES (?, ?, 0)'),
    charge: db.prepare(
      "INSERT INTO charges (id, agreement_id, company_id, kind, type, amount_ore, currency, description, due, status, captured_ore, version, created_at, updated_at) VALUES (?, ?, ?, 'REGULAR', 'RECURRING', 515050, 'DKK', 'Boligafgift', ?, ?, ?, 1, ?, ?)",
    ),
    member: db.prepare("INSERT INTO company_members (id, company_id, user_id, role, version, created_at) VALUES (?, ?, ?, 'ADMINISTRATOR', 1, ?)"),
    session: db.prepare(
      "INSERT INTO sessions (id, user_id, token_hash, created_at, last_used_at, expires_at, via) VALUES (?, ?, ?, ?, ?, '2099-01-01T00:00:00.000Z', 'password')",
    ),
    notification: db.prepare(
      "INSERT INTO notifications (id, user_id, title, message, type, is_read, version, created_at) VALUES (?, ?, ?, ?, 'info', 0, 1, ?)",
    ),
  }
  const companyIds: string[] = []
  for (let c = 0; c < COMPANIES; c++) {
    db.transaction(() => {
      const companyId = v7()
      const providerId = v7()
      companyIds.push(companyId)
      q.company.run(companyId, `Andelsboligforeningen ${c + 1}`, `ABF ${c + 1}`, String(10_000_000 + c), NOW, NOW)
      q.provider.run(providerId, companyId, NOW, NOW)
      const addresses = Array.from({ length: 50 }, (_, i) => {
        const id = v7()
        q.address.run(id, companyId, String(i + 1), i % 3 ? String(i % 4) : null, i % 3 ? 'tv' : null, NOW)
        return id
      })
      for (let i = 0; i < PER_COMPANY; i++) {
        const userId = v7()
        const id = v7()
        const email = `beboer-${c}-${i}@example.dk`
        q.user.run(userId, `Beboer ${c} Nummer ${i}`, email, 'USER', NOW, NOW)
        if (i % 2 === 0) q.signIn.run(v7(), userId, email, NOW, NOW)
        const created = i % 20 === 0
        q.agreement.run(
          id,
          companyId,
          1001 + i,
          userId,
          providerId,
          created ? 'CREATED' : 'ACCEPTED',
          COLLECTED[0],
          NEXT_PAYMENT,
          created ? null : `agr_${c}_${i}`,
          NOW,
          NOW,
        )
        q.part.run(id, v7(), 0, 'COMMON_EXPENSES', 'Boligafgift', 450_000, 0)
        q.part.run(id, v7(), 1, 'HEAT', 'Aconto varme', 65_050, 25)
        q.link.run(id, addresses[i % addresses.length])
        if (created) continue
        q.charge.run(v7(), id, companyId, COLLECTED[0], 'EXECUTED', 515050, NOW, NOW)
        if (i % 7 === 0) q.charge.run(v7(), id, companyId, COLLECTED[1], 'FAILED', 0, NOW, NOW)
        else q.charge.run(v7(), id, companyId, COLLECTED[1], 'EXECUTED', 515050, NOW, NOW)
      }
    })()
  }
  const adminToken = randomBytes(32).toString('base64url')
  const superAdminToken = randomBytes(32).toString('base64url')
  const notificationIds: string[] = []
  db.transaction(() => {
    const admin = v7()
    const superAdmin = v7()
    q.user.run(admin, 'Anna Administrator', 'admin@bench.dk', 'USER', NOW, NOW)
    q.user.run(superAdmin, 'Sofus Superadmin', 'super@bench.dk', 'SUPERADMIN', NOW, NOW)
    q.member.run(v7(), companyIds[0], admin, NOW)
    q.session.run(v7(), admin, sha256(adminToken), NOW, NOW)
    q.session.run(v7(), superAdmin, sha256(superAdminToken), NOW, NOW)
    for (let i = 0; i < NOTIFICATIONS; i++) {
      const id = v7()
      q.notification.run(id, admin, `Betaling modtaget ${i + 1}`, `<p>Opkrævning <strong>${1000 + i}</strong> er betalt.</p>`, NOW)
      notificationIds.push(id)
    }
  })()
  db.pragma('wal_checkpoint(TRUNCATE)')
  db.close()
  return { companyId: companyIds[0]!, adminToken, superAdminToken, notificationIds }
}
