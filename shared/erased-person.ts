import { messages } from './i18n-messages'

/**
 * How an erased account reads (decision 0069). The anonymised account row keeps one
 * sentinel as its name — the English text, which is also the catalog id of `messages.erasedMember`
 * — and every screen, notice and e-mail shows it through `personName`, so it reads "Erased member"
 * or "Slettet medlem" in the reader's language. Its e-mail address is a unique placeholder under
 * the reserved `.invalid` domain (the column is unique and required): never shown, never mailed.
 */
export const ERASED_NAME = messages.erasedMember.id

/** The placeholder address of an erased account (unique per account, undeliverable by RFC 2606). */
export const erasedEmailOf = (userId: string) => `erased-${userId}@erased.invalid`
export const isErasedEmail = (email: string | null | undefined): boolean => !!email && email.endsWith('@erased.invalid')

/** A person's name as shown to a reader: the erased sentinel in the reader's language, anyone else as stored. */
export function personName(name: string, i18n: { _(descriptor: { id: string }): string }): string
export function personName(name: string | null | undefined, i18n: { _(descriptor: { id: string }): string }): string | undefined
export function personName(name: string | null | undefined, i18n: { _(descriptor: { id: string }): string }): string | undefined {
  return name === ERASED_NAME ? i18n._(messages.erasedMember) : (name ?? undefined)
}

/** An e-mail address as shown: none for an erased account. */
export const personEmail = (email: string | null | undefined): string => (isErasedEmail(email) ? '' : (email ?? ''))
