import { and, asc, eq, isNull, ne } from 'drizzle-orm'
import type { Db } from './client'
import { addresses, companies, companyMembers } from './schema/companies'
import { seedDemoHouseholds, type DemoStay } from './seed-households'
import { authMethods, users } from './schema/users'
import type { Clock } from '../lib/clock'
import { newId, sha256 } from '../lib/ids'
import { hashPassword } from '../features/auth/passwords'
import type { CompanyRole, SystemRole } from '../../shared/domain/roles'
import { createNotificationsService } from '../features/notifications/notifications.service'
import { createUsersService } from '../features/users/users.service'
import { paymentProviders } from './schema/payments'
import type { SecretBox } from '../lib/secret-box'
import { agreementAddresses, agreementParts, agreements } from './schema/agreements'
import { todayInCopenhagen } from '../lib/clock'
import { mobileKey } from '../../shared/domain/mobile'
import { addressKey, DENMARK } from '../../shared/domain/address'
import { transaction } from './client'
import { seedDemoForum } from '../features/forum/forum-seed'
import { seedKnowledgeDemo } from '../features/articles/demo-seed'
import { seedDemoLending } from '../features/lending/lending-seed'

export const DEMO_PASSWORD = 'Gaardlaug-2025'
/** A login token for the demo administrator (token sign-in exists only outside production). */
export const DEMO_LOGIN_TOKEN = 'demo-token-solgaarden-administrator'
export const DEMO_CVR = '10150817'
/** The former resident (agreement ended, nothing owed) whom staff can erase in the demo. */
export const FORMER_RESIDENT = 'beboer13@solgaarden.dk'
const SECOND_CVR = '25313763'

export interface DemoLogin {
  role: string
  email: string
  password: string
}

interface Person {
  name: string
  email: string
  language: 'EN' | 'DA'
  systemRole: SystemRole
  role?: CompanyRole
  company?: 'main' | 'second'
  mobile?: string
}

const staff: Person[] = [
  { name: 'Super Admin', email: 'superadmin@boligkasse.dk', language: 'EN', systemRole: 'SUPERADMIN' },
  { name: 'Karen Holm', email: 'formand@solgaarden.dk', language: 'DA', systemRole: 'MEMBER', role: 'CHAIRMAN', company: 'main', mobile: '+45 20 11 22 33' },
  {
    name: 'Anders Nielsen',
    email: 'admin@solgaarden.dk',
    language: 'EN',
    systemRole: 'MEMBER',
    role: 'ADMINISTRATOR',
    company: 'main',
    mobile: '+45 20 44 55 66',
  },
  { name: 'Mette Larsen', email: 'kasserer@solgaarden.dk', language: 'DA', systemRole: 'MEMBER', role: 'ACCOUNTANT', company: 'main' },
  { name: 'Jonas Berg', email: 'bestyrelse@solgaarden.dk', language: 'DA', systemRole: 'MEMBER', role: 'BOARDMEMBER', company: 'main' },
  { name: 'Henrik Dahl', email: 'admin@havnehuset.dk', language: 'DA', systemRole: 'MEMBER', role: 'ADMINISTRATOR', company: 'second' },
]

const residentNames = [
  ['Sofie Jensen', 'DA'],
  ['Lars Pedersen', 'DA'],
  ['Emma Hansen', 'EN'],
  ['Mikkel Andersen', 'DA'],
  ['Ida Christensen', 'DA'],
  ['Oliver Møller', 'EN'],
  ['Freja Rasmussen', 'DA'],
  ['William Sørensen', 'DA'],
  ['Clara Kristensen', 'EN'],
  ['Noah Thomsen', 'DA'],
  ['Laura Poulsen', 'DA'],
  ['Victor Johansen', 'EN'],
  ['Alma Knudsen', 'DA'],
  ['Elias Mortensen', 'DA'],
  ['Agnes Olsen', 'EN'],
] as const

const residents: Person[] = residentNames.map(([name, language], i) => ({
  name,
  email: `beboer${String(i + 1).padStart(2, '0')}@solgaarden.dk`,
  language,
  systemRole: 'USER',
  // The first five residents can sign in with Vipps MobilePay (the emulator offers these numbers).
  mobile: i < 5 ? `+45 31 00 00 ${String(i + 1).padStart(2, '0')}` : undefined,
}))

/** Nørrebro-style street numbers for the demo association's 20 flats. */
const demoAddresses = Array.from({ length: 20 }, (_, i) => ({
  street: i < 12 ? 'Solgårdsvej' : 'Havrevænget',
  number: String(i < 12 ? 2 + 2 * Math.floor(i / 3) : 11 + 2 * Math.floor((i - 12) / 2)),
  floor: String(i % 3 === 0 ? 'st' : i % 3),
  side: i % 2 === 0 ? 'tv' : 'th',
  zip: i < 12 ? '2200' : '2400',
  city: i < 12 ? 'København N' : 'København NV',
}))

/**
 * Seeds the demo associations on an empty database. Safe to call on every start: it does
 * nothing once the demo company exists. Returns the logins to print.
 */
/** Test credentials of the demo association's Vipps MobilePay sales unit (the built-in emulator accepts them). */
export const DEMO_VIPPS = {
  merchantSerialNumber: '212121',
  clientId: 'solgaarden-client',
  clientSecret: 'solgaarden-client-secret',
  subscriptionKey: 'solgaarden-subscription-key',
}

export async function seedDemoData(
  db: Db,
  clock: Clock,
  secrets: SecretBox,
  /** `demoAgreements: false` leaves agreements out (API tests create their own). */
  options: { demoAgreements?: boolean } = {},
): Promise<DemoLogin[]> {
  // Residents: Emma (running agreement 1001, a member of Solgården) and beboer02 (an agreement to accept).
  const logins: DemoLogin[] = [...staff, residents[2]!, residents[1]!].map((p) => ({
    role: p.role ?? (p.systemRole === 'SUPERADMIN' ? 'SUPERADMIN' : 'RESIDENT'),
    email: p.email,
    password: DEMO_PASSWORD,
  }))
  const seeded = async () => !!(await db.select({ id: companies.id }).from(companies).where(eq(companies.cvr, DEMO_CVR)).get())
  if (await seeded()) return logins

  const hash = await hashPassword(DEMO_PASSWORD)
  const now = clock.now().toISOString()
  const notifications = createNotificationsService({ db, clock, users: createUsersService({ db }) })
  // Checked inside the transaction: instances starting together on PostgreSQL seed once (the
  // other's SERIALIZABLE transaction fails, runs again and finds the demo there).
  await transaction(db, async () => {
    if (await seeded()) return
    const { mainId, secondId } = await insertCompanies(db, now)
    const providerId = await insertProvider(db, secrets, now, mainId)
    const addressIds = await insertAddresses(db, now, mainId)
    const userIds = new Map<string, string>()
    for (const p of [...staff, ...residents]) {
      const companyId =
        p.company === 'main' ? mainId
        : p.company === 'second' ? secondId
        : null
      userIds.set(p.email, await insertPerson(db, { hash, now, notifications }, p, companyId))
    }
    if (options.demoAgreements === false) return
    await seedDemoActivity(db, clock, { mainId, providerId, addressIds, userIds, notifications })
  })
  return logins
}

/** The two demo associations: Solgården (a cooperative, with a heating-water period) and Havnehuset. */
async function insertCompanies(db: Db, now: string) {
  const mainId = newId()
  const secondId = newId()
  await db
    .insert(companies)
    .values([
      {
        id: mainId,
        name: 'Andelsboligforeningen Solgården',
        acronym: 'ABF Solgården',
        cvr: DEMO_CVR,
        unionType: 'COOP',
        status: 'ACTIVE',
        heatingWaterPeriodStartDate: '01.06',
        heatingWaterPeriodEndDate: '31.05',
        createdAt: now,
        updatedAt: now,
      },
      {
        id: secondId,
        name: 'Ejerforeningen Havnehuset',
        acronym: 'E/F Havnehuset',
        cvr: SECOND_CVR,
        unionType: 'CONDO',
        status: 'ACTIVE',
        createdAt: now,
        updatedAt: now,
      },
    ])
    .run()
  return { mainId, secondId }
}

/** Solgården's Vipps MobilePay sales unit, with the emulator's test credentials sealed. */
async function insertProvider(db: Db, secrets: SecretBox, now: string, companyId: string): Promise<string> {
  const id = newId()
  await db
    .insert(paymentProviders)
    .values({
      id,
      companyId,
      type: 'VIPPS',
      isActive: true,
      isTest: true,
      providerName: 'Vipps MobilePay',
      merchantSerialNumber: DEMO_VIPPS.merchantSerialNumber,
      clientId: DEMO_VIPPS.clientId,
      clientSecretSealed: secrets.seal(DEMO_VIPPS.clientSecret),
      subscriptionKeySealed: secrets.seal(DEMO_VIPPS.subscriptionKey),
      useTestMode: true,
      createdAt: now,
      updatedAt: now,
    })
    .run()
  return id
}

/** Solgården's 20 flats; their ids in `demoAddresses` order. */
async function insertAddresses(db: Db, now: string, companyId: string): Promise<string[]> {
  const ids = demoAddresses.map(() => newId())
  await db
    .insert(addresses)
    .values(demoAddresses.map((a, i) => ({ id: ids[i]!, companyId, referenceId: null, country: DENMARK, addressKey: addressKey(a), createdAt: now, ...a })))
    .run()
  return ids
}

/** One demo person: the user, the password sign-in, a welcome notice, their role, the administrator's login token. */
async function insertPerson(
  db: Db,
  common: { hash: string; now: string; notifications: ReturnType<typeof createNotificationsService> },
  p: Person,
  companyId: string | null,
): Promise<string> {
  const { hash, now, notifications } = common
  const userId = newId()
  await db
    .insert(users)
    .values({
      id: userId,
      fullName: p.name,
      emailAddress: p.email,
      mobileNumber: p.mobile ?? null,
      // The demo's numbers count as proven (as if each person had linked Vipps once), so the
      // emulator's sign-in page opens their accounts.
      mobileKey: p.mobile ? mobileKey(p.mobile) : null,
      mobileVerifiedAt: p.mobile ? now : null,
      language: p.language,
      systemRole: p.systemRole,
      currentCompanyId: companyId,
      createdAt: now,
      updatedAt: now,
    })
    .run()
  await db
    .insert(authMethods)
    .values({ id: newId(), userId, type: 'EMAIL_PASSWORD', identifier: p.email, secretHash: hash, verifiedAt: now, createdAt: now })
    .run()
  await notifications.notify(userId, {
    type: 'success',
    title: /*i18n*/ { id: 'Welcome to Boligkasse' },
    message: /*i18n*/ { id: 'Here you follow your payments, invoices and messages from <strong>{association}</strong>.' },
    values: { association: p.company === 'second' ? 'Ejerforeningen Havnehuset' : 'Andelsboligforeningen Solgården' },
    actionUrl: '/user',
    actionText: /*i18n*/ { id: 'Open profile' },
  })
  if (companyId && p.role) await db.insert(companyMembers).values({ id: newId(), companyId, userId, role: p.role, createdAt: now }).run()
  if (p.role === 'ADMINISTRATOR' && p.company === 'main')
    await db
      .insert(authMethods)
      .values({ id: newId(), userId, type: 'LOGIN_TOKEN', identifier: 'Demo token', lookupHash: sha256(DEMO_LOGIN_TOKEN), verifiedAt: now, createdAt: now })
      .run()
  return userId
}

interface DemoIds {
  mainId: string
  providerId: string
  /** The demo association's addresses, in `demoAddresses` order. */
  addressIds: string[]
  /** Every seeded person's id by e-mail address. */
  userIds: Map<string, string>
  notifications: ReturnType<typeof createNotificationsService>
}

/**
 * The demo's agreements, forum, lending and knowledge bank (what `demoAgreements: false` leaves
 * out), in the caller's transaction.
 */
async function seedDemoActivity(db: Db, clock: Clock, ids: DemoIds): Promise<void> {
  const { mainId, userIds } = ids
  const now = clock.now().toISOString()
  const firstOfNextMonth = `${nextMonth(todayInCopenhagen(clock))}-01`
  const agreementCount = await insertDemoAgreements(db, ids, now, firstOfNextMonth)
  await insertFormerResident(db, ids, { now, firstOfNextMonth, externalSeq: 1001 + agreementCount })
  await seedDemoHouseholds(db, mainId, ids.addressIds, demoStays(ids.addressIds, firstOfNextMonth), userIds, now)
  // The forum (decision 0066): one Solgården thread with two replies, by residents with an agreement and the board.
  const user = (email: string) => userIds.get(email)!
  await seedDemoForum(
    db,
    mainId,
    { author: user('beboer03@solgaarden.dk'), replies: [user('beboer04@solgaarden.dk'), user('bestyrelse@solgaarden.dk')] },
    new Map([...staff, ...residents].map((p) => [user(p.email), p.name])),
    clock.now(),
  )
  // Lending (decision 0064): Solgården lends a drill (200 kr deposit) and a ladder.
  await seedDemoLending(db, mainId, 'Andelsboligforeningen Solgården', now)
  // The knowledge bank (decision 0065): the platform's guides, Solgården's laundry article and specialists.
  await seedKnowledgeDemo(db, now, mainId, {
    superAdmin: { id: userIds.get('superadmin@boligkasse.dk')!, name: 'Boligkasse' },
    admin: { id: userIds.get('admin@solgaarden.dk')!, name: 'Anders Nielsen' },
  })
}

/** Six running agreements and one to accept, with their parts and addresses; answers how many. */
async function insertDemoAgreements(db: Db, ids: DemoIds, now: string, firstOfNextMonth: string): Promise<number> {
  const { mainId, providerId, addressIds, userIds, notifications } = ids
  // Six running agreements and one that resident 02 has still to accept. The running ones get
  // their Vipps agreement at start, as a member's acceptance makes one (main.ts with the built-in
  // emulator: `demoAgreementsAwaitingVipps`), so the first month of the demo bills them; without
  // the emulator they show that they cannot be charged. They use the last addresses, so the
  // first ones can be deleted in demos.
  const demoAgreements = [
    ...[3, 4, 5, 6, 7, 8].map((n, i) => ({ resident: n, status: 'ACCEPTED' as const, address: addressIds[19 - i]!, startPaymentDate: '2026-01-01' })),
    { resident: 2, status: 'CREATED' as const, address: addressIds[13]!, startPaymentDate: firstOfNextMonth },
  ]
  for (const [i, d] of demoAgreements.entries()) {
    const id = newId()
    const email = `beboer${String(d.resident).padStart(2, '0')}@solgaarden.dk`
    const parts = [
      { id: newId(), type: 'COMMON_EXPENSES' as const, description: 'Boligafgift', priceOre: 450_000 + 25_000 * (i % 3), vatRate: 0 },
      { id: newId(), type: 'HEAT' as const, description: 'Aconto varme', priceOre: 65_000 },
      { id: newId(), type: 'COLD_WATER' as const, description: 'Aconto vand', priceOre: 18_000 },
    ]
    await db
      .insert(agreements)
      .values({
        id,
        companyId: mainId,
        externalSeq: 1001 + i,
        memberUserId: userIds.get(email)!,
        paymentProviderId: providerId,
        status: d.status,
        priceOre: parts.reduce((sum, p) => sum + p.priceOre, 0),
        paymentPeriod: 'MONTHLY',
        startPaymentDate: d.startPaymentDate,
        nextRegularPaymentDate: firstOfNextMonth,
        createdAt: now,
        updatedAt: now,
      })
      .run()
    await db
      .insert(agreementParts)
      .values(parts.map((p, position) => ({ ...p, vatRate: 0, agreementId: id, position })))
      .run()
    await db.insert(agreementAddresses).values({ agreementId: id, addressId: d.address, position: 0 }).run()
    if (d.status === 'CREATED')
      await notifications.notify(userIds.get(email)!, {
        type: 'info',
        title: /*i18n*/ { id: 'An agreement awaits your acceptance' },
        message: /*i18n*/ { id: '{association} has created agreement {externalId} for {amount}. Open it to accept it with Vipps MobilePay or to reject it.' },
        values: { association: 'Andelsboligforeningen Solgården', externalId: String(1001 + i), amount: { ore: 533_000 } },
        actionUrl: `/agreements/${id}`,
        actionText: /*i18n*/ { id: 'Open agreement' },
      })
  }
  return demoAgreements.length
}

/** Who lives where in the demo, as its agreements say (server/db/seed-households.ts). */
function demoStays(addressIds: readonly string[], firstOfNextMonth: string): DemoStay[] {
  const person = (n: number) => ({ email: `beboer${String(n).padStart(2, '0')}@solgaarden.dk`, name: residentNames[n - 1]![0] })
  return [
    // The running agreements' members (residents 3–8 at the last addresses), owners who pay.
    ...[3, 4, 5, 6, 7, 8].map((n, i) => ({
      ...person(n),
      addressId: addressIds[19 - i]!,
      moveInDate: `20${String(15 + i)}-0${1 + (i % 9)}-01`,
      kind: 'OWNER' as const,
      isPayer: true,
    })),
    // Emma's partner lives with her and does not pay.
    { ...person(9), addressId: addressIds[19]!, moveInDate: '2021-06-01', kind: 'OWNER' as const, isPayer: false },
    // Resident 2 moves in when the agreement to accept starts.
    { ...person(2), addressId: addressIds[13]!, moveInDate: firstOfNextMonth, kind: 'TENANT' as const, isPayer: true },
    // The former resident moved out when their agreement ended.
    {
      ...person(13),
      addressId: addressIds[12]!,
      moveInDate: monthsBefore(firstOfNextMonth, 12),
      moveOutDate: monthsBefore(firstOfNextMonth, 4),
      kind: 'TENANT' as const,
      isPayer: true,
    },
  ]
}

/**
 * A former resident whose agreement ended before the demo's months, with nothing owed: the demo
 * member staff can erase (personal data, decision 0069; an erase needs no running agreement and
 * no unpaid invoice, and only someone with an agreement is a member of the association).
 */
async function insertFormerResident(db: Db, ids: DemoIds, at: { now: string; firstOfNextMonth: string; externalSeq: number }): Promise<void> {
  const { mainId, providerId, addressIds, userIds } = ids
  const { now, firstOfNextMonth, externalSeq } = at
  const formerId = newId()
  const formerParts = [
    { id: newId(), type: 'COMMON_EXPENSES' as const, description: 'Boligafgift', priceOre: 450_000, vatRate: 0 },
    { id: newId(), type: 'HEAT' as const, description: 'Aconto varme', priceOre: 65_000, vatRate: 0 },
  ]
  await db
    .insert(agreements)
    .values({
      id: formerId,
      companyId: mainId,
      externalSeq,
      memberUserId: userIds.get(FORMER_RESIDENT)!,
      paymentProviderId: providerId,
      status: 'CLOSED',
      priceOre: formerParts.reduce((sum, p) => sum + p.priceOre, 0),
      paymentPeriod: 'MONTHLY',
      startPaymentDate: monthsBefore(firstOfNextMonth, 12),
      nextRegularPaymentDate: null,
      terminationDate: monthsBefore(firstOfNextMonth, 4),
      createdAt: `${monthsBefore(firstOfNextMonth, 13)}T09:00:00.000Z`,
      updatedAt: now,
    })
    .run()
  await db
    .insert(agreementParts)
    .values(formerParts.map((p, position) => ({ ...p, agreementId: formerId, position })))
    .run()
  await db.insert(agreementAddresses).values({ agreementId: formerId, addressId: addressIds[12]!, position: 0 }).run()
}

/**
 * Tests: adds the demo agreements, forum, lending and knowledge bank to a database seeded with
 * `demoAgreements: false` (the test template), as `seedDemoData` would have on an empty one.
 */
export async function addDemoActivity(db: Db, clock: Clock): Promise<void> {
  const main = (await db.select({ id: companies.id }).from(companies).where(eq(companies.cvr, DEMO_CVR)).get())!
  const provider = (await db.select({ id: paymentProviders.id }).from(paymentProviders).where(eq(paymentProviders.companyId, main.id)).get())!
  const byKey = new Map(
    (await db.select({ id: addresses.id, key: addresses.addressKey }).from(addresses).where(eq(addresses.companyId, main.id)).all()).map((a) => [a.key, a.id]),
  )
  const people = await db.select({ id: users.id, email: users.emailAddress }).from(users).all()
  const notifications = createNotificationsService({ db, clock, users: createUsersService({ db }) })
  await transaction(db, () =>
    seedDemoActivity(db, clock, {
      mainId: main.id,
      providerId: provider.id,
      addressIds: demoAddresses.map((a) => byKey.get(addressKey(a))!),
      userIds: new Map(people.map((p) => [p.email, p.id])),
      notifications,
    }),
  )
}

/** Creates or updates the super admin named by SUPERADMIN_EMAIL / SUPERADMIN_PASSWORD. */
export async function ensureSuperAdmin(db: Db, clock: Clock, givenEmail: string, password: string): Promise<void> {
  // Stored lower-cased like every address, so sign-in (which lower-cases) finds it.
  const email = givenEmail.trim().toLowerCase()
  const hash = await hashPassword(password)
  const now = clock.now().toISOString()
  await transaction(db, async () => {
    const existing = await db.select().from(users).where(eq(users.emailAddress, email)).get()
    const userId = existing?.id ?? newId()
    if (existing) await db.update(users).set({ systemRole: 'SUPERADMIN', updatedAt: now }).where(eq(users.id, userId)).run()
    else
      await db
        .insert(users)
        .values({ id: userId, fullName: 'Super Admin', emailAddress: email, systemRole: 'SUPERADMIN', createdAt: now, updatedAt: now })
        .run()
    // The operator names this address, so it counts as proven; only the super admin's own sign-in is touched.
    await db
      .delete(authMethods)
      .where(and(eq(authMethods.type, 'EMAIL_PASSWORD'), eq(authMethods.identifier, email), ne(authMethods.userId, userId)))
      .run()
    const method = await db
      .select()
      .from(authMethods)
      .where(and(eq(authMethods.userId, userId), eq(authMethods.type, 'EMAIL_PASSWORD'), eq(authMethods.identifier, email)))
      .get()
    if (method)
      await db
        .update(authMethods)
        .set({ secretHash: hash, verifiedAt: method.verifiedAt ?? now })
        .where(eq(authMethods.id, method.id))
        .run()
    else
      await db
        .insert(authMethods)
        .values({ id: newId(), userId, type: 'EMAIL_PASSWORD', identifier: email, secretHash: hash, verifiedAt: now, createdAt: now })
        .run()
  })
}

/** The first day of the month `n` months before (negative: after) a first of a month: ('2026-12-01', 3) → '2026-09-01'. */
export function monthsBefore(firstOfMonth: string, n: number): string {
  const [y, m] = firstOfMonth.split('-').map(Number) as [number, number]
  const index = y * 12 + (m - 1) - n
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}-01`
}

/** The month after a date's month: '2026-11-23' → '2026-12'. */
function nextMonth(date: string): string {
  const [y, m] = date.split('-').map(Number) as [number, number]
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`
}

/**
 * The demo association's seeded ACCEPTED agreements that have no Vipps agreement yet (seeded rows
 * have no creator; agreements made through the API always do). With the built-in emulator,
 * main.ts gives each one its Vipps agreement (`agreements.connectSeeded`).
 */
export async function demoAgreementsAwaitingVipps(db: Db): Promise<string[]> {
  return (
    await db
      .select({ id: agreements.id })
      .from(agreements)
      .innerJoin(companies, eq(companies.id, agreements.companyId))
      .where(and(eq(companies.cvr, DEMO_CVR), eq(agreements.status, 'ACCEPTED'), isNull(agreements.vippsAgreementId), isNull(agreements.createdByUserId)))
      .orderBy(asc(agreements.externalSeq))
      .all()
  ).map((r) => r.id)
}
