import { beforeEach, describe, expect, it, vi } from 'vitest'
import { renderToStaticMarkup } from 'react-dom/server'
import { setupI18n } from '@lingui/core'
import { I18nProvider } from '@lingui/react'
import type { InvitationProgress } from '../../../shared/contract/invitations'
import type { InvitationsState } from './use-invitations'

const company = { id: 'c1', name: 'Solgården' }
const session = { user: { userRole: 'MEMBER', companies: [{ ...company, role: 'ADMINISTRATOR' }], currentCompany: company } as Record<string, unknown> }
let state: InvitationsState = { status: 'loading' }

vi.mock('../auth/session', () => ({ useSession: () => session }))
vi.mock('./use-invitations', () => ({
  useInvitations: () => ({ state, more: vi.fn(), invite: vi.fn(), saveSettings: vi.fn(), reload: vi.fn(), round: 0 }),
}))

const { InvitationsPage } = await import('./InvitationsPage')
const i18n = setupI18n({ locale: 'en', messages: { en: {} } })
const render = () =>
  renderToStaticMarkup(
    <I18nProvider i18n={i18n}>
      <InvitationsPage />
    </I18nProvider>,
  )

const progress: InvitationProgress = {
  total: 5,
  signedIn: 2,
  withAgreement: 3,
  accepted: 1,
  bounced: 1,
  notInvited: 0,
  queued: 0,
  settings: { remindersOn: true, remindAfterDays: 7, maxReminders: 2 },
  people: [
    {
      userId: 'u1',
      name: 'Alma',
      email: 'alma@example.dk',
      signedIn: false,
      toAccept: 1,
      hasAgreement: true,
      accepted: false,
      bounced: true,
      lastSentAt: '2026-12-01T10:00:00Z',
      reminders: 1,
      queued: false,
    },
    {
      userId: 'u2',
      name: 'Bo',
      email: 'bo@example.dk',
      signedIn: false,
      toAccept: 0,
      hasAgreement: false,
      accepted: false,
      bounced: false,
      lastSentAt: null,
      reminders: 0,
      queued: false,
    },
  ],
  nextCursor: null,
}

describe('the invitations screen (decision 0091)', () => {
  beforeEach(() => {
    session.user = { userRole: 'MEMBER', companies: [{ ...company, role: 'ADMINISTRATOR' }], currentCompany: company }
  })

  it('says plainly that the progress needs a connection when offline', () => {
    state = { status: 'error', offline: true, message: '' }
    expect(render()).toContain('You are offline. The progress of the invitations needs a connection.')
  })

  it('shows n of m residents signed in, n of m with an agreement accepted, the bounced, and who is not done with their last invitation', () => {
    state = { status: 'ready', progress, people: progress.people, loadingMore: false }
    const html = render()
    expect(html).toContain('2 of 5 residents')
    expect(html).toContain('1 of 3 with an agreement')
    // A household's resident without an agreement is invited to sign in, with nothing to accept.
    expect(html).toMatch(/Bo<\/strong>.*No agreement/s)
    expect(html).toContain('Address bounced')
    expect(html).toContain('Last invited 1 Dec 2026')
    expect(html).toContain('1 reminder')
    // Everyone not signed in was invited: the button is off and says why.
    expect(html).toMatch(/<button[^>]*disabled=""[^>]*aria-describedby="invite-all-none"|<button[^>]*aria-describedby="invite-all-none"[^>]*disabled=""/)
  })

  it('gives a board member the progress without the actions', () => {
    session.user = { userRole: 'MEMBER', companies: [{ ...company, role: 'BOARDMEMBER' }], currentCompany: company }
    state = { status: 'ready', progress: { ...progress, notInvited: 3 }, people: progress.people, loadingMore: false }
    const html = render()
    expect(html).toContain('2 of 5 residents')
    expect(html).not.toContain('Invite all who have not signed in')
    expect(html).not.toContain('Save the reminder rules')
  })
})
