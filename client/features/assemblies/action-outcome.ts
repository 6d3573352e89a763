/**
 * What the assembly page says after an action (cancel, mark held, withdraw a proposal) once the
 * server answered or the change was queued (docs/OFFLINE.md "Conflicts and refusals"): success only when the server has it;
 * a refusal in words (the server's message, or the lost access named); a conflict points at the
 * choice shown on the page. The user is never left without an answer.
 */
import type { I18n } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import type { ServerOutcome } from '../../sync/await-server'
import { refusalText } from '../sync-status/refusal'

export interface ActionAnswer {
  kind: 'success' | 'info' | 'error'
  text: string
}

export function actionAnswer(result: ServerOutcome, done: string, i18n: I18n): ActionAnswer {
  switch (result.outcome) {
    case 'accepted':
      return { kind: 'success', text: done }
    case 'queued':
      return {
        kind: 'info',
        text:
          result.waitingFor === 'connection' ? i18n._(msg`Queued — will be sent when online.`) : i18n._(msg`Queued — will be sent when the server answers.`),
      }
    case 'conflict':
      return {
        kind: 'error',
        text: i18n._(msg`Someone changed this general assembly meanwhile. Your change was not applied yet: choose on the page which version to keep.`),
      }
    case 'rejected':
      return {
        kind: 'error',
        text: refusalText(result.mutation, i18n) ?? (result.mutation.lastError || i18n._(msg`The server refused the request.`)),
      }
  }
}
