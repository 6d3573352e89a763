import type { I18n, MessageDescriptor } from '@lingui/core'
import { issueMessage, localizeIssueValues } from '../../shared/contract/text'

/** A success or failure line above a form: plain text or a catalog message. */
export interface Notice {
  variant: 'success' | 'error'
  text: string
}

/**
 * The first translated message per field of a failed shared-schema parse. `depth` is the index of
 * the path segment naming the field (1 for `config.providerName`).
 */
export function issuesByField<F extends string>(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
  i18n: I18n,
  depth = 0,
): Partial<Record<F, string>> {
  const out: Partial<Record<F, string>> = {}
  for (const issue of issues) {
    const field = issue.path[depth]
    if (typeof field === 'string') out[field as F] ??= translateIssue(issue, i18n)
  }
  return out
}

/**
 * A zod issue in the user's language: the schema's message with the limit and field it names
 * ("Description must be at most 45 characters"), or zod's own code translated
 * (shared/contract/text.ts). The one way an issue reaches the screen.
 */
export function translateIssue(issue: { message: string }, i18n: I18n): string {
  return translateIssueMessage(issueMessage(issue as Parameters<typeof issueMessage>[0]), i18n)
}

/** A message of `issueMessage` (or a descriptor built from one) in the user's language, its field label included. */
export function translateIssueMessage(m: { message: string; values?: Record<string, unknown> } | MessageDescriptor, i18n: I18n): string {
  const values = localizeIssueValues(m.values, (id) => i18n._(id))
  if (!('id' in m)) return i18n._(m.message, values)
  const descriptor: MessageDescriptor = { ...m, values }
  return i18n._(descriptor)
}

/** `issuesByField` of a `safeParse` result: {} when it passed. */
export const schemaMessages = <F extends string>(
  result: { success: true } | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } },
  i18n: I18n,
): Partial<Record<F, string>> => (result.success ? {} : issuesByField<F>(result.error.issues, i18n))
