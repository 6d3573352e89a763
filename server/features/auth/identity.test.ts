/**
 * Sign-in identifiers count only once proven, security changes need the owner, a password reset
 * ends everything else, and nobody can lock another person out (docs/decisions/0001-identifiers-count-only-once-proven.md,
 * docs/decisions/0002-security-changes-confirm-the-owner.md).
 */
import { describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { DEMO_PASSWORD, demo, testApp, type TestApp } from '../../test/harness'
import { authMethods, sessions, users } from '../../db/schema/users'
import { companyIds } from '../companies/test-helpers'
import { newId, randomToken, sha256 } from '../../lib/ids'
import { ensureSuperAdmin } from '../../db/seed'

const linkIn = (text: string, path: string) => decodeURIComponent(new RegExp(`${path}\\?token=([\\w%-]+)`).exec(text)![1]!)
const lastMailTo = async (t: TestApp, to: string) => (await t.mails()).filter((m) => m.to === to).at(-1)
const userId = async (t: TestApp, email: string) => (await t.db.select().from(users).where(eq(users.emailAddress, email)).get())!.id

/** A session as Vipps Login would start it, `ageMs` ago. */
async function vippsSession(t: TestApp, email: string, ageMs: number): Promise<string> {
  const token = randomToken()
  const created = new Date(t.clock.now().getTime() - ageMs).toISOString()
  await t.db
    .insert(sessions)
    .values({
      id: newId(),
      userId: await userId(t, email),
      tokenHash: sha256(token),
      createdAt: created,
      lastUsedAt: created,
      expiresAt: '2099-01-01T00:00:00.000Z',
      via: 'vipps',
    })
    .run()
  return token
}

const addEmail = (identifier: string, extra: Record<string, unknown> = {}) => ({
  type: 'EMAIL_PASSWORD',
  identifier,
  secret: 'Angriber-kode-77',
  confirmSecret: 'Angriber-kode-77',
  currentPassword: DEMO_PASSWORD,
  ...extra,
})

describe('an e-mail sign-in counts only once its owner proves the address', () => {
  it("refuses to add the address of someone just invited, so the invitation cannot land in the attacker's account", async () => {
    const t = await testApp()
    const { main } = await companyIds(t)
    const admin = await t.login(demo.admin)
    const invited = await t.call('POST', `/company/${main}/member`, {
      token: admin,
      body: { user: { name: 'Ny Beboer', email: 'ny@example.dk' }, role: 'BOARDMEMBER' },
    })
    expect(invited.status).toBe(201)
    const attacker = await t.login(demo.resident)
    const claim = await t.call('POST', '/account/auth-methods', { token: attacker, body: addEmail('ny@example.dk') })
    expect(claim.status).toBe(409)
    expect(claim.json.issues).toEqual([{ path: 'identifier', message: 'Denne e-mailadresse er allerede i brug.' }])
    // The invitee sets a password from the invitation and lands in their own account.
    await t.call('POST', '/auth/reset-password', {
      body: { token: linkIn((await lastMailTo(t, 'ny@example.dk'))!.text, 'reset-password'), newPassword: 'Ny-beboer-kode-1' },
    })
    const invitee = await t.login('ny@example.dk', 'Ny-beboer-kode-1')
    expect((await t.call('GET', '/account/info', { token: invitee })).json.fullName).toBe('Ny Beboer')
  })

  it('keeps an added e-mail sign-in unusable until the link sent to that address is clicked', async () => {
    const t = await testApp()
    const token = await t.login(demo.resident)
    const added = await t.call('POST', '/account/auth-methods', { token, body: addEmail('sofie@example.dk') })
    expect(added.status).toBe(201)
    expect(added.json.data).toMatchObject({ identifier: 'sofie@example.dk', verified: false })
    const before = await t.call('POST', '/auth/login', { body: { type: 'email', email: 'sofie@example.dk', password: 'Angriber-kode-77' } })
    expect(before.status).toBe(401)
    const confirm = (await lastMailTo(t, 'sofie@example.dk'))!
    expect(confirm.subject).toBe('Bekræft din e-mailadresse til Boligkasse')
    const ok = await t.call('POST', '/auth/confirm-email', { body: { token: linkIn(confirm.text, 'confirm-email') } })
    expect(ok.json.message).toBe('Your e-mail address is confirmed. You can now sign in with it.')
    await t.login('sofie@example.dk', 'Angriber-kode-77')
    const again = await t.call('POST', '/auth/confirm-email', { body: { token: linkIn(confirm.text, 'confirm-email') } })
    expect(again.status).toBe(400)
  })

  it('lets an invitation take back an address an attacker claimed before the invitation existed', async () => {
    const t = await testApp()
    const { main } = await companyIds(t)
    const attacker = await t.login(demo.resident)
    expect((await t.call('POST', '/account/auth-methods', { token: attacker, body: addEmail('kommende@example.dk') })).status).toBe(201)
    const attackerLink = linkIn((await lastMailTo(t, 'kommende@example.dk'))!.text, 'confirm-email')
    const admin = await t.login(demo.admin)
    expect(
      (
        await t.call('POST', `/company/${main}/member`, {
          token: admin,
          body: { user: { name: 'Kommende', email: 'kommende@example.dk' }, role: 'BOARDMEMBER' },
        })
      ).status,
    ).toBe(201)
    // The invitation's link writes the invitee's own sign-in; the attacker's pending claim is gone.
    const invitation = linkIn((await lastMailTo(t, 'kommende@example.dk'))!.text, 'reset-password')
    expect((await t.call('POST', '/auth/reset-password', { body: { token: invitation, newPassword: 'Kommende-kode-2' } })).status).toBe(200)
    const invitee = await t.login('kommende@example.dk', 'Kommende-kode-2')
    expect((await t.call('GET', '/account/info', { token: invitee })).json.fullName).toBe('Kommende')
    // The attacker's link died with the claim.
    const late = await t.call('POST', '/auth/confirm-email', { body: { token: attackerLink } })
    expect(late.json.issues).toEqual([{ path: 'token', message: 'This confirmation link is not valid.' }])
    const attackerMethods = (await t.call('GET', '/account/profile', { token: attacker })).json.authMethods
    expect(attackerMethods.map((m: { identifier: string }) => m.identifier)).toEqual([demo.resident])
    expect((await t.call('POST', '/auth/login', { body: { type: 'email', email: 'kommende@example.dk', password: 'Angriber-kode-77' } })).status).toBe(401)
  })

  it("sends an invitation for an address that is someone's proven second sign-in to that person", async () => {
    const t = await testApp()
    const { main } = await companyIds(t)
    const resident = await t.login(demo.resident)
    await t.call('POST', '/account/auth-methods', { token: resident, body: addEmail('sofie@example.dk') })
    await t.call('POST', '/auth/confirm-email', { body: { token: linkIn((await lastMailTo(t, 'sofie@example.dk'))!.text, 'confirm-email') } })
    const admin = await t.login(demo.admin)
    expect(
      (await t.call('POST', `/company/${main}/member`, { token: admin, body: { user: { name: 'Sofie', email: 'sofie@example.dk' }, role: 'BOARDMEMBER' } }))
        .status,
    ).toBe(201)
    // No second, unreachable account: the resident is the member now.
    expect(await t.db.select().from(users).where(eq(users.emailAddress, 'sofie@example.dk')).get()).toBeUndefined()
    const companies = (await t.call('GET', '/account/info', { token: resident })).json.companies
    expect(companies.find((c: { id: string }) => c.id === main)).toMatchObject({ role: 'BOARDMEMBER' })
  })

  it("changes the account's e-mail only after the new address confirms, and tells the old address", async () => {
    const t = await testApp()
    const token = await t.login(demo.resident)
    const res = await t.call('PATCH', '/account/profile/emailAddress', { token, body: { value: 'sofie.ny@example.dk', currentPassword: DEMO_PASSWORD } })
    expect(res.json).toMatchObject({ emailAddress: demo.resident, pendingEmailAddress: 'sofie.ny@example.dk' })
    expect((await lastMailTo(t, demo.resident))!.subject).toBe('Der er bedt om at ændre e-mailadressen på din Boligkasse-konto')
    await t.login(demo.resident)
    await t.call('POST', '/auth/confirm-email', { body: { token: linkIn((await lastMailTo(t, 'sofie.ny@example.dk'))!.text, 'confirm-email') } })
    await t.login('sofie.ny@example.dk')
    expect((await t.call('POST', '/auth/login', { body: { type: 'email', email: demo.resident, password: DEMO_PASSWORD } })).status).toBe(401)
  })
})

describe('security changes need the owner', () => {
  it('asks for the current password to add a sign-in method or change the e-mail, and e-mails the account', async () => {
    const t = await testApp()
    const token = await t.login(demo.resident)
    const missing = await t.call('POST', '/account/auth-methods', { token, body: { type: 'LOGIN_TOKEN', identifier: 'Tablet' } })
    expect(missing.status).toBe(400)
    expect(missing.json.issues).toEqual([{ path: 'currentPassword', message: 'Indtast din nuværende adgangskode for at bekræfte, at det er dig.' }])
    const wrong = await t.call('POST', '/account/auth-methods', {
      token,
      body: { type: 'LOGIN_TOKEN', identifier: 'Tablet', currentPassword: 'forkert' },
      headers: { 'Accept-Language': 'da' },
    })
    expect(wrong.json.issues).toEqual([{ path: 'currentPassword', message: 'Din nuværende adgangskode er ikke korrekt.' }])
    const email = await t.call('PATCH', '/account/profile/emailAddress', { token, body: { value: 'x@example.dk' } })
    expect(email.status).toBe(400)
    expect((await t.mails()).filter((m) => m.to === 'x@example.dk')).toHaveLength(0)
    const ok = await t.call('POST', '/account/auth-methods', { token, body: { type: 'LOGIN_TOKEN', identifier: 'Tablet', currentPassword: DEMO_PASSWORD } })
    expect(ok.status).toBe(201)
    expect((await lastMailTo(t, demo.resident))!.subject).toBe('Der er tilføjet en loginmetode til din Boligkasse-konto')
    expect((await lastMailTo(t, demo.resident))!.text).toContain('Tablet')
  })

  it('accepts a Vipps sign-in from the last 10 minutes instead of the password, not an older one', async () => {
    const t = await testApp()
    const fresh = await vippsSession(t, demo.resident, 60_000)
    expect((await t.call('POST', '/account/auth-methods', { token: fresh, body: { type: 'LOGIN_TOKEN', identifier: 'Tablet' } })).status).toBe(201)
    const old = await vippsSession(t, demo.resident, 11 * 60_000)
    expect((await t.call('POST', '/account/auth-methods', { token: old, body: { type: 'LOGIN_TOKEN', identifier: 'Tablet 2' } })).status).toBe(400)
    // Without any password, only a fresh Vipps sign-in can confirm it.
    await t.db.delete(authMethods).where(eq(authMethods.type, 'EMAIL_PASSWORD')).run()
    const refused = await t.call('POST', '/account/auth-methods', { token: old, body: { type: 'LOGIN_TOKEN', identifier: 'Tablet 3' } })
    expect(refused.status).toBe(422)
    expect(refused.json.message).toBe('For at bekræfte, at det er dig, skal du logge ind igen med Vipps MobilePay og prøve igen inden for 10 minutter.')
  })

  it('limits guesses of the current password through a stolen session', async () => {
    const t = await testApp()
    const token = await t.login(demo.resident)
    for (let i = 0; i < 10; i++)
      expect((await t.call('POST', '/account/auth-methods', { token, body: { type: 'LOGIN_TOKEN', currentPassword: `gæt-${i}` } })).status).toBe(400)
    const limited = await t.call('POST', '/account/auth-methods', { token, body: { type: 'LOGIN_TOKEN', currentPassword: DEMO_PASSWORD } })
    expect(limited.status).toBe(429)
  })

  it('a password reset ends every session and login token and says so in the e-mail', async () => {
    const t = await testApp()
    const admin = await t.login(demo.admin)
    const second = await t.login(demo.admin)
    const demoToken = await t.call('POST', '/auth/login', { body: { type: 'token', token: 'demo-token-solgaarden-administrator' } })
    expect(demoToken.status).toBe(200)
    await t.call('POST', '/auth/forgot-password', { body: { email: demo.admin } })
    const reset = await t.call('POST', '/auth/reset-password', {
      body: { token: linkIn((await lastMailTo(t, demo.admin))!.text, 'reset-password'), newPassword: 'Helt-ny-kode-42' },
    })
    expect(reset.status).toBe(200)
    for (const token of [admin, second, demoToken.json.accessToken]) expect((await t.call('GET', '/account/info', { token })).status).toBe(401)
    expect((await t.call('POST', '/auth/login', { body: { type: 'token', token: 'demo-token-solgaarden-administrator' } })).status).toBe(401)
    const mail = (await lastMailTo(t, demo.admin))!
    expect(mail.subject).toBe('Your Boligkasse password was changed')
    expect(mail.text).toContain('3 sessions were ended and 1 login token was removed')
    await t.login(demo.admin, 'Helt-ny-kode-42')
  })
})

describe('a password reset ends what a stolen session or password set up', () => {
  it('cancels a pending e-mail change and a pending e-mail sign-in, so their links no longer work', async () => {
    const t = await testApp()
    const thief = await t.login(demo.admin)
    await t.call('PATCH', '/account/profile/emailAddress', { token: thief, body: { value: 'thief@evil.example', currentPassword: DEMO_PASSWORD } })
    await t.call('POST', '/account/auth-methods', { token: thief, body: addEmail('backdoor@evil.example') })
    const changeLink = linkIn((await lastMailTo(t, 'thief@evil.example'))!.text, 'confirm-email')
    const backdoorLink = linkIn((await lastMailTo(t, 'backdoor@evil.example'))!.text, 'confirm-email')
    await t.call('POST', '/auth/forgot-password', { body: { email: demo.admin } })
    await t.call('POST', '/auth/reset-password', {
      body: { token: linkIn((await lastMailTo(t, demo.admin))!.text, 'reset-password'), newPassword: 'Helt-ny-kode-42' },
    })
    expect((await lastMailTo(t, demo.admin))!.text).toContain('still waiting for confirmation were cancelled')
    expect((await t.call('POST', '/auth/confirm-email', { body: { token: changeLink } })).status).toBe(400)
    expect((await t.call('POST', '/auth/confirm-email', { body: { token: backdoorLink } })).status).toBe(400)
    await t.login(demo.admin, 'Helt-ny-kode-42')
    expect((await t.call('POST', '/auth/login', { body: { type: 'email', email: 'backdoor@evil.example', password: 'Angriber-kode-77' } })).status).toBe(401)
  })
})

describe('removing a sign-in method needs the owner', () => {
  it('asks for the current password and e-mails the account', async () => {
    const t = await testApp()
    const token = await t.login(demo.admin)
    const tokenMethod = (await t.call('GET', '/account/profile', { token })).json.authMethods.find((m: { type: string }) => m.type === 'LOGIN_TOKEN')
    expect((await t.call('DELETE', `/account/auth-methods/${tokenMethod.id}`, { token })).status).toBe(400)
    expect((await t.call('DELETE', `/account/auth-methods/${tokenMethod.id}`, { token, body: { currentPassword: DEMO_PASSWORD } })).status).toBe(204)
    expect((await lastMailTo(t, demo.admin))!.subject).toBe('A sign-in method was removed from your Boligkasse account')
  })
})

describe('the super admin from the environment', () => {
  it('signs in whatever the case of SUPERADMIN_EMAIL', async () => {
    const t = await testApp()
    await ensureSuperAdmin(t.db, t.clock, 'Ops@Example.DK', 'Drift-kode-2026')
    await t.login('ops@example.dk', 'Drift-kode-2026')
  })
})

describe('mobile numbers are unique', () => {
  it('refuses a number another user holds, however it is written, and unverifies a changed number', async () => {
    const t = await testApp()
    const token = await t.login(demo.resident)
    const taken = await t.call('PUT', '/account/info', { token, body: { mobileNumber: '20 11 22 33' } })
    expect(taken.status).toBe(409)
    expect(taken.json.issues).toEqual([{ path: 'mobileNumber', message: 'Dette mobilnummer er allerede i brug.' }])
    const patched = await t.call('PATCH', '/account/profile/mobileNumber', { token, body: { value: '+4520112233' } })
    expect(patched.status).toBe(409)
    expect((await t.call('PATCH', '/account/profile/mobileNumber', { token, body: { value: '+45 40 40 40 40' } })).status).toBe(200)
    const row = (await t.db.select().from(users).where(eq(users.emailAddress, demo.resident)).get())!
    expect(row).toMatchObject({ mobileKey: '4540404040', mobileVerifiedAt: null })
  })
})

describe('nobody can lock another person out', () => {
  const from = (ip: string) => ({ 'X-Forwarded-For': ip })
  const attempt = (t: TestApp, ip: string, password: string, email: string = demo.resident) =>
    t.call('POST', '/auth/login', { body: { type: 'email', email, password }, headers: from(ip) })

  it('11 wrong passwords from anywhere leave the right password working from another device, only slowed', async () => {
    const waits: number[] = []
    const t = await testApp({ TRUST_PROXY: '1' }, { auth: { sleep: async (ms) => void waits.push(ms) } })
    for (let i = 0; i < 11; i++) expect((await attempt(t, `203.0.113.${i}`, 'forkert')).status).toBe(401)
    expect((await attempt(t, '198.51.100.7', DEMO_PASSWORD)).status).toBe(200)
    expect(waits.length).toBeGreaterThan(0)
    expect(Math.max(...waits)).toBeLessThanOrEqual(4000)
  })

  it('blocks the account only for the IP that guessed wrong', async () => {
    const t = await testApp({ TRUST_PROXY: '1' }, { auth: { sleep: async () => {} } })
    for (let i = 0; i < 10; i++) await attempt(t, '203.0.113.9', 'forkert')
    const blocked = await attempt(t, '203.0.113.9', DEMO_PASSWORD)
    expect(blocked.status).toBe(429)
    expect(Number(blocked.headers.get('Retry-After'))).toBeGreaterThan(0)
    expect((await attempt(t, '198.51.100.7', DEMO_PASSWORD)).status).toBe(200)
  })

  it('lets an office of 30 board members behind one IP all sign in within a minute', async () => {
    const t = await testApp({ TRUST_PROXY: '1' })
    const people = Array.from({ length: 15 }, (_, i) => `beboer${String(i + 1).padStart(2, '0')}@solgaarden.dk`)
    // 30 sign-ins, each person mistyping once first: 30 successes and 15 failures from one address.
    for (const email of people) expect((await attempt(t, '192.0.2.1', 'tastefejl', email)).status).toBe(401)
    for (const email of [...people, ...people]) expect((await attempt(t, '192.0.2.1', DEMO_PASSWORD, email)).status).toBe(200)
  }, 60_000)

  it("caps reset e-mails per account silently, so nobody can flood or block a person's reset", async () => {
    const t = await testApp({ TRUST_PROXY: '1' })
    const answers = new Set<string>()
    for (let i = 0; i < 8; i++) {
      const res = await t.call('POST', '/auth/forgot-password', { body: { email: demo.admin }, headers: from(`203.0.113.${i}`) })
      expect(res.status).toBe(200)
      answers.add(res.json.message)
    }
    expect(answers.size).toBe(1)
    expect((await t.mails()).filter((m) => m.to === demo.admin)).toHaveLength(5)
    // One IP asking too often is stopped, whatever the accounts.
    for (let i = 0; i < 20; i++) await t.call('POST', '/auth/forgot-password', { body: { email: `x${i}@example.dk` }, headers: from('198.51.100.99') })
    expect((await t.call('POST', '/auth/forgot-password', { body: { email: demo.chairman }, headers: from('198.51.100.99') })).status).toBe(429)
  })

  it('stops one IP trying many accounts, except for people who signed in from it before', async () => {
    const t = await testApp({ TRUST_PROXY: '1' }, { auth: { sleep: async () => {} } })
    expect((await attempt(t, '203.0.113.50', DEMO_PASSWORD, demo.chairman)).status).toBe(200)
    for (let i = 0; i < 50; i++) await attempt(t, '203.0.113.50', 'forkert', `nobody${i}@example.dk`)
    expect((await attempt(t, '203.0.113.50', DEMO_PASSWORD)).status).toBe(429)
    // The chairman's device at that office is known: the others' failures do not lock her out.
    expect((await attempt(t, '203.0.113.50', DEMO_PASSWORD, demo.chairman)).status).toBe(200)
  }, 60_000)

  it('takes the client address our proxy appended, not one the client wrote itself', async () => {
    const t = await testApp({ TRUST_PROXY: '1' }, { auth: { sleep: async () => {} } })
    for (let i = 0; i < 10; i++) await attempt(t, `10.9.${i}.1, 203.0.113.66`, 'forkert')
    expect((await attempt(t, '10.9.99.1, 203.0.113.66', DEMO_PASSWORD)).status).toBe(429)
  })
})
