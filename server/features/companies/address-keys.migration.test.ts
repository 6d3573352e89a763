/**
 * Migration 0012 keys the addresses that existed before one address could be added once per
 * company (docs/decisions/0038-companies-members-and-addresses.md): the same form as `addressKey`, and no key for addresses a company already
 * held twice, so the unique index never fails on old data.
 */
import Database from 'better-sqlite3'
import { drizzle } from 'drizzle-orm/better-sqlite3'
import { migrate } from 'drizzle-orm/better-sqlite3/migrator'
import { describe, expect, it } from 'vitest'
import { drizzleDir, migrationsUpTo } from '../../test/migrations'
import { addressKey } from '../../../shared/domain/address'

describe('migration: address keys', () => {
  it('keys every existing address like addressKey, except addresses a company held twice', () => {
    const sqlite = new Database(':memory:')
    const db = drizzle(sqlite)
    migrate(db, { migrationsFolder: migrationsUpTo('0011_member_versions_address_keys') })
    const now = '2026-11-23T09:00:00.000Z'
    for (const id of ['c1', 'c2'])
      sqlite
        .prepare(`INSERT INTO companies (id, name, acronym, cvr, union_type, status, created_at, updated_at) VALUES (?, ?, 'X', ?, 'COOP', 'ACTIVE', ?, ?)`)
        .run(id, id, id === 'c1' ? '35954716' : '10000009', now, now)
    const rows = [
      { id: 'a1', company: 'c1', street: 'Vestergade', number: '12', floor: '2.', side: 'TV', zip: '8000' },
      { id: 'a2', company: 'c1', street: 'vestergade ', number: '12', floor: '2', side: 'tv', zip: '8000' },
      { id: 'a3', company: 'c1', street: 'Vestergade', number: '12 A', floor: null, side: null, zip: '8000' },
      { id: 'a4', company: 'c2', street: 'Vestergade', number: '12', floor: '2', side: 'tv', zip: '8000' },
    ]
    for (const r of rows)
      sqlite
        .prepare(
          `INSERT INTO addresses (id, company_id, street, number, floor, side, zip, city, country, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'Aarhus C', 'Denmark', ?)`,
        )
        .run(r.id, r.company, r.street, r.number, r.floor, r.side, r.zip, now)

    migrate(db, { migrationsFolder: drizzleDir })
    const keys = Object.fromEntries(
      sqlite
        .prepare('SELECT id, address_key AS k FROM addresses')
        .all()
        .map((r) => [(r as { id: string }).id, (r as { k: string | null }).k]),
    )
    expect(keys).toEqual({ a1: null, a2: null, a3: addressKey(rows[2]!), a4: addressKey(rows[3]!) })
    expect(keys.a4).toBe('8000|vestergade|12|2|tv')
    // The index holds from now on.
    expect(() =>
      sqlite
        .prepare(
          `INSERT INTO addresses (id, company_id, street, number, zip, city, country, address_key, created_at) VALUES ('a5', 'c2', 'V', '1', '8000', 'A', 'Denmark', ?, ?)`,
        )
        .run(keys.a4, now),
    ).toThrow(/UNIQUE/)
  })
})
