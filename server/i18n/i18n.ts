import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { setupI18n, type I18n, type MessageDescriptor } from '@lingui/core'
import { fromRoot } from '../lib/project-root'

export type Locale = 'en' | 'da'
export const locales: readonly Locale[] = ['en', 'da']

const dir = fromRoot('server', 'i18n', 'locales')

/** Reads a catalog compiled by `lingui compile --namespace json`; an uncompiled one shows English. */
function loadCatalog(locale: Locale): Record<string, unknown> {
  try {
    return JSON.parse(readFileSync(resolve(dir, `${locale}.json`), 'utf8')).messages
  } catch {
    return {}
  }
}

const instances = new Map<Locale, I18n>()

/** The server's translator for a locale (e-mails, error messages). */
export function i18nFor(locale: Locale): I18n {
  let i18n = instances.get(locale)
  if (!i18n) {
    i18n = setupI18n({ locale, messages: { [locale]: loadCatalog(locale) as never } })
    instances.set(locale, i18n)
  }
  return i18n
}

/** Translates a catalog id (or a descriptor) into the locale, with ICU values. */
export function translate(locale: Locale, message: string | MessageDescriptor, values?: Record<string, unknown>): string {
  const i18n = i18nFor(locale)
  if (typeof message === 'string') return i18n._(message, values)
  return i18n._(message.id, values ?? message.values, { message: message.message })
}

/** Picks a supported locale from an Accept-Language header. */
export function localeFromHeader(header: string | undefined): Locale | undefined {
  if (!header) return undefined
  for (const part of header.split(',')) {
    const tag = part.split(';')[0]?.trim().toLowerCase().slice(0, 2)
    if (tag === 'da' || tag === 'en') return tag
  }
  return undefined
}
