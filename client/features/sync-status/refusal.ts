/**
 * What the user reads about a change that did not go through, in words (docs/OFFLINE.md "Conflicts and refusals"):
 * an access lost while offline names the company and what the change was about; a change that
 * could not even be stored on this device says plainly that it was NOT kept and what to do.
 */
import type { I18n } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { useLingui } from '@lingui/react'
import type { Mutation } from '../../sync/local-db'
import { refusalOf, type NotKeptError, type Refusal } from '../../sync/outcomes'

/** "agreement 1003", "the payment “Boligafgift”": what a refused change was about. */
function subjectText(subject: Refusal['subject'], i18n: I18n): string {
  const name = subject.name
  if (!name) return i18n._(msg`this association's data`)
  switch (subject.entity) {
    case 'agreement':
      return i18n._(msg`agreement ${name}`)
    case 'charge':
      return i18n._(msg`the payment “${name}”`)
    case 'message':
      return i18n._(msg`the message “${name}”`)
    case 'address':
      return i18n._(msg`the address ${name}`)
    case 'member':
      return i18n._(msg`the member ${name}`)
    case 'paymentProvider':
      return i18n._(msg`the payment provider ${name}`)
    default:
      return i18n._(msg`this association's data`)
  }
}

/** The refusal in words, or null when the server's own message is all there is. */
export function refusalText(m: Mutation, i18n: I18n): string | null {
  const refusal = refusalOf(m)
  if (refusal?.code !== 'NO_ACCESS') return null
  const company = refusal.companyName || i18n._(msg`this association`)
  const what = subjectText(refusal.subject, i18n)
  return i18n._(msg`You no longer have access to ${company}; your change to ${what} was not applied.`)
}

export function notKeptText(error: NotKeptError, i18n: I18n): string {
  return error.reason === 'quota' ?
      i18n._(
        msg`Your change was NOT kept: this device has no storage space left, so it was not saved and will not be sent. Free some space (for example delete downloads, or other sites' data in the browser settings), then try again.`,
      )
    : i18n._(
        msg`Your change was NOT kept: this device could not store it, so it will not be sent. Try again; if it keeps failing, reload the page or use another browser.`,
      )
}

export function useRefusalText(): (m: Mutation) => string | null {
  const { i18n } = useLingui()
  return (m) => refusalText(m, i18n)
}

export function useNotKeptText(): (error: NotKeptError) => string {
  const { i18n } = useLingui()
  return (error) => notKeptText(error, i18n)
}
