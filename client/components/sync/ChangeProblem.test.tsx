import { describe, expect, it } from 'vitest'
import { renderToStaticMarkup } from 'react-dom/server'
import { setupI18n } from '@lingui/core'
import { I18nProvider } from '@lingui/react'
import type { Mutation } from '../../sync/local-db'
import type { RefusedMutation } from '../../sync/outcomes'
import type { SyncHandle } from '../../sync/use-sync'
import { ChangeProblem, canRetry } from './ChangeProblem'

const i18n = setupI18n({ locale: 'en', messages: { en: {} } })
// Rendering only: the buttons' actions are never run here.
const handle = { db: {}, engine: {} } as unknown as SyncHandle

const refused = (over: Partial<RefusedMutation> = {}): Mutation =>
  ({
    seq: 1,
    mutationId: 'm1',
    kind: 'message.create',
    method: 'POST',
    path: '/messages',
    entity: 'message',
    entityId: 'x',
    createdAt: 0,
    status: 'rejected',
    attempts: 1,
    nextAttemptAt: 0,
    lastError: 'Message not found.',
    ...over,
  }) as Mutation

const render = (m: Mutation) =>
  renderToStaticMarkup(
    <I18nProvider i18n={i18n}>
      <ChangeProblem handle={handle} mutation={m} />
    </I18nProvider>,
  )

describe('ChangeProblem: Retry and Discard for a refused change', () => {
  it('offers Retry and Discard for a change the server refused with its own message', () => {
    const m = refused()
    expect(canRetry(m)).toBe(true)
    const html = render(m)
    expect(html).toContain('Retry')
    expect(html).toContain('Discard')
  })

  it('offers only Discard, and says why, when the change was refused because access to the company was lost', () => {
    const m = refused({ refusal: { code: 'NO_ACCESS', companyId: 'c1', companyName: 'Solgården', subject: { entity: 'message', name: 'Cykelkælderen' } } })
    expect(canRetry(m)).toBe(false)
    const html = render(m)
    expect(html).not.toContain('Retry')
    expect(html).toContain('Discard')
    expect(html).toContain('You no longer have access to Solgården; your change to the message “Cykelkælderen” was not applied.')
    expect(html).toContain('Sending it again cannot help without access.')
  })
})
