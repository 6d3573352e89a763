import { eq } from 'drizzle-orm'
import { transaction } from '../../db/client'
import { agreements, agreementAddresses, agreementParts } from '../../db/schema/agreements'
import { users } from '../../db/schema/users'
import { addresses } from '../../db/schema/companies'
import { householdResidents } from '../../db/schema/households'
import { newId } from '../../lib/ids'
import type { TestApp } from '../../test/harness'
import { createAgreement } from '../agreements/test-helpers'
import { signBounce } from './bounce-signature'

export const WEBHOOK_SECRET = 'test-mail-webhook-secret-0123456789'

/**
 * `n` people with an offered agreement (CREATED) in the demo association who never signed in, as an
 * import of a spreadsheet leaves them: the first is made through the API (its own invitation mail is
 * left out of what tests count), the rest copied from it in a few statements. Answers their ids and addresses.
 */
export async function residents(t: TestApp, n: number, options: { language?: (i: number) => 'EN' | 'DA'; prefix?: string } = {}) {
  const prefix = options.prefix ?? 'invitee'
  const first = await createAgreement(t, { emailAddress: `${prefix}0@example.dk`, memberName: `${prefix} 000` })
  const model = (await t.db.select().from(agreements).where(eq(agreements.id, first.id)).get())!
  const parts = await t.db.select().from(agreementParts).where(eq(agreementParts.agreementId, first.id)).all()
  const links = await t.db.select().from(agreementAddresses).where(eq(agreementAddresses.agreementId, first.id)).all()
  const firstUser = (await t.db.select().from(users).where(eq(users.id, model.memberUserId)).get())!
  await t.db
    .update(users)
    .set({ language: options.language?.(0) ?? 'EN' })
    .where(eq(users.id, firstUser.id))
    .run()
  const people = [{ id: firstUser.id, email: firstUser.emailAddress, agreementId: first.id }]
  const rows = Array.from({ length: n - 1 }, (_, k) => {
    const i = k + 1
    const id = newId()
    return { i, id, email: `${prefix}${i}@example.dk`, agreementId: newId() }
  })
  await transaction(t.db, async () => {
    for (let k = 0; k < rows.length; k += 100) {
      const chunk = rows.slice(k, k + 100)
      await t.db
        .insert(users)
        .values(
          chunk.map((r) => ({
            ...firstUser,
            id: r.id,
            fullName: `${prefix} ${String(r.i).padStart(3, '0')}`,
            emailAddress: r.email,
            mobileNumber: null,
            mobileKey: null,
            language: options.language?.(r.i) ?? 'EN',
          })),
        )
        .run()
      await t.db
        .insert(agreements)
        .values(chunk.map((r) => ({ ...model, id: r.agreementId, externalSeq: model.externalSeq + r.i, memberUserId: r.id, vippsAgreementId: null })))
        .run()
      await t.db
        .insert(agreementParts)
        .values(chunk.flatMap((r) => parts.map((p) => ({ ...p, agreementId: r.agreementId }))))
        .run()
      await t.db
        .insert(agreementAddresses)
        .values(chunk.flatMap((r) => links.map((l) => ({ ...l, agreementId: r.agreementId }))))
        .run()
    }
  })
  return [...people, ...rows.map((r) => ({ id: r.id, email: r.email, agreementId: r.agreementId }))]
}

/**
 * `n` people living in the demo association's households without an agreement, as the spreadsheet
 * import leaves them (docs/decisions/0090, 0092): a user who never signed in and a resident row from
 * `moveInDate` (default 2020-01-01) to `moveOutDate` (default none), in a few statements. Answers
 * their ids, addresses and households.
 */
export async function householdPeople(
  t: TestApp,
  companyId: string,
  n: number,
  options: { language?: (i: number) => 'EN' | 'DA'; prefix?: string; moveInDate?: string; moveOutDate?: string | null } = {},
) {
  const prefix = options.prefix ?? 'beboer'
  const homes = (await t.db.select({ id: addresses.id }).from(addresses).where(eq(addresses.companyId, companyId)).all()).map((a) => a.id)
  const now = t.clock.now().toISOString()
  const rows = Array.from({ length: n }, (_, i) => ({ i, id: newId(), email: `${prefix}${i}@example.dk`, householdId: homes[i % homes.length]! }))
  await transaction(t.db, async () => {
    for (let k = 0; k < rows.length; k += 100) {
      const chunk = rows.slice(k, k + 100)
      await t.db
        .insert(users)
        .values(
          chunk.map((r) => ({
            id: r.id,
            fullName: `${prefix} ${String(r.i).padStart(3, '0')}`,
            emailAddress: r.email,
            language: options.language?.(r.i) ?? 'EN',
            createdAt: now,
            updatedAt: now,
          })),
        )
        .run()
      await t.db
        .insert(householdResidents)
        .values(
          chunk.map((r) => ({
            id: newId(),
            companyId,
            householdId: r.householdId,
            userId: r.id,
            fullName: `${prefix} ${String(r.i).padStart(3, '0')}`,
            moveInDate: options.moveInDate ?? '2020-01-01',
            moveOutDate: options.moveOutDate ?? null,
            kind: 'OWNER' as const,
            isPayer: false,
            createdAt: now,
            updatedAt: now,
          })),
        )
        .run()
    }
  })
  return rows.map((r) => ({ id: r.id, email: r.email, householdId: r.householdId }))
}

/** The mails queued to `email` whose subject holds `word`. */
export const mailsTo = async (t: TestApp, email: string, word = '') => (await t.mails()).filter((m) => m.to === email && m.subject.includes(word))

/** A signed bounce notice as the mail provider sends it. */
export function bounceRequest(body: object, at: Date, secret = WEBHOOK_SECRET, id = newId()) {
  const text = JSON.stringify(body)
  return { body: text, headers: { ...signBounce(secret, id, text, at), 'Content-Type': 'application/json' } }
}

/** Runs the invitations job until nothing is left to send. */
export async function sendAll(t: TestApp): Promise<void> {
  while ((await t.services.invitations.tick()) > 0);
}
