import { describe, expect, it } from 'vitest'
import { testApp } from '../../test/harness'
import { callers, documentedRoutes, walkMatrix, type MatrixRow } from '../../test/authorization'
import { companyIds } from '../companies/test-helpers'
import { WEBHOOK_SECRET } from './test-helpers'

/**
 * Who may invite, read the progress and set the reminders (decision 0091): one row per route and
 * case, one column per caller (server/test/authorization.ts). `o` allowed, `4` 404 (another
 * association, or a resident of this one, never learns more), `3` 403, `1` 401.
 */
type Ctx = { main: string; second: string }

const settings = () => ({ remindersOn: true, remindAfterDays: 7, maxReminders: 2 })
//                                                                                                                    S C A K B R N O -
const table: MatrixRow<Ctx>[] = [
  // The progress: staff of the association (every role, the board member too) and the super admin.
  ['GET', '/companies/{companyId}/invitations', (c) => `/companies/${c.main}/invitations`, 'ooooo4441'],
  ['GET', '/companies/{companyId}/invitations', (c) => `/companies/${c.second}/invitations`, 'o444444o1'],
  // Inviting and the reminder rules: company admin staff (a board member 403 before the body).
  ['POST', '/companies/{companyId}/invitations', (c) => `/companies/${c.main}/invitations`, 'oooo34441', () => ({})],
  ['POST', '/companies/{companyId}/invitations', (c) => `/companies/${c.second}/invitations`, 'o444444o1', () => ({})],
  ['PUT', '/companies/{companyId}/invitations/settings', (c) => `/companies/${c.main}/invitations/settings`, 'oooo34441', settings],
  ['PUT', '/companies/{companyId}/invitations/settings', (c) => `/companies/${c.second}/invitations/settings`, 'o444444o1', settings],
  // The mail provider's bounce notice: public, but only signed with the shared secret; a bearer token signs nothing.
  ['POST', '/webhooks/mail-bounce', () => '/webhooks/mail-bounce', '111111111', () => ({ type: 'complaint', email: 'a@example.dk' })],
]

describe('authorization matrix (invitations)', () => {
  it.each(callers.map((caller) => [caller] as const))('%s', async (caller) => {
    const t = await testApp({ MAIL_WEBHOOK_SECRET: WEBHOOK_SECRET })
    const { want, got } = await walkMatrix(t, table, await companyIds(t), caller)
    expect(got).toEqual(want)
  })

  it('has a row for every invitations route the API documents', async () => {
    const t = await testApp()
    const documented = [...(await documentedRoutes(t, '/companies', '/webhooks/mail-bounce'))].filter(
      (r) => r.includes('/invitations') || r.includes('mail-bounce'),
    )
    expect(new Set(table.map(([m, r]) => `${m} ${r}`))).toEqual(new Set(documented))
  })
})
