/**
 * The emulator's own page texts in English and Danish. These pages stand in for Vipps
 * MobilePay's UI (the landing page and the login page), not ours, so they keep a small
 * dictionary here instead of the product's Lingui catalogs.
 */
export type Lang = 'en' | 'da'

const en = {
  brand: 'Vipps MobilePay',
  emulatorNote: 'Built-in Vipps MobilePay emulator: no money moves and no real account is used.',
  switchLanguage: 'Dansk',
  confirmTitle: 'Approve agreement',
  confirmLead: 'You are asked to approve recurring payments for this agreement.',
  product: 'Product',
  price: 'Price',
  priceLine: '{amount} {interval}',
  variablePriceLine: 'Up to {amount} {interval}',
  phoneLabel: 'Mobile number',
  phoneHint: 'With country code, for example 4512345678.',
  invalidPhone: 'Enter a mobile number with country code, for example 4512345678.',
  approve: 'Approve',
  reject: 'Reject',
  notFoundTitle: 'Agreement not found',
  notFoundText: 'There is no agreement at this address.',
  expiredTitle: 'The agreement has expired',
  expiredText: 'It was not approved within 10 minutes. Go back and start again.',
  handledTitle: 'Already handled',
  handledText: 'This agreement is already {status}.',
  statusActive: 'approved',
  statusStopped: 'stopped',
  backToMerchant: 'Back to the shop',
  loginTitle: 'Log in with Vipps MobilePay',
  loginLead: 'Choose a demo user, or enter any mobile number.',
  demoUsers: 'Demo users',
  otherNumber: 'Another number',
  continue: 'Continue',
  cancel: 'Cancel',
  loginErrorTitle: 'The login cannot start',
  loginExpired: 'This login has expired. Go back and start again.',
} as const

export type MessageKey = keyof typeof en

const da: Record<MessageKey, string> = {
  brand: 'Vipps MobilePay',
  emulatorNote: 'Indbygget Vipps MobilePay-emulator: der flyttes ingen penge, og ingen rigtig konto bruges.',
  switchLanguage: 'English',
  confirmTitle: 'Godkend aftale',
  confirmLead: 'Du bliver bedt om at godkende faste betalinger for denne aftale.',
  product: 'Produkt',
  price: 'Pris',
  priceLine: '{amount} {interval}',
  variablePriceLine: 'Op til {amount} {interval}',
  phoneLabel: 'Mobilnummer',
  phoneHint: 'Med landekode, for eksempel 4512345678.',
  invalidPhone: 'Indtast et mobilnummer med landekode, for eksempel 4512345678.',
  approve: 'Godkend',
  reject: 'Afvis',
  notFoundTitle: 'Aftalen findes ikke',
  notFoundText: 'Der er ingen aftale på denne adresse.',
  expiredTitle: 'Aftalen er udløbet',
  expiredText: 'Den blev ikke godkendt inden for 10 minutter. Gå tilbage og start forfra.',
  handledTitle: 'Allerede behandlet',
  handledText: 'Denne aftale er allerede {status}.',
  statusActive: 'godkendt',
  statusStopped: 'stoppet',
  backToMerchant: 'Tilbage til butikken',
  loginTitle: 'Log ind med Vipps MobilePay',
  loginLead: 'Vælg en demobruger, eller indtast et vilkårligt mobilnummer.',
  demoUsers: 'Demobrugere',
  otherNumber: 'Et andet nummer',
  continue: 'Fortsæt',
  cancel: 'Annullér',
  loginErrorTitle: 'Log ind kan ikke starte',
  loginExpired: 'Dette log ind er udløbet. Gå tilbage og start forfra.',
}

const messages: Record<Lang, Record<MessageKey, string>> = { en, da }

/** A message with its `{placeholders}` filled in (values are plain text; pages escape them). */
export function t(lang: Lang, key: MessageKey, values: Record<string, string> = {}): string {
  return messages[lang][key].replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole)
}

type Unit = 'DAY' | 'WEEK' | 'MONTH' | 'YEAR'
const intervals: Record<Lang, Record<Unit, [one: string, many: string]>> = {
  en: {
    DAY: ['per day', 'every {n} days'],
    WEEK: ['per week', 'every {n} weeks'],
    MONTH: ['per month', 'every {n} months'],
    YEAR: ['per year', 'every {n} years'],
  },
  da: { DAY: ['pr. dag', 'hver {n}. dag'], WEEK: ['pr. uge', 'hver {n}. uge'], MONTH: ['pr. måned', 'hver {n}. måned'], YEAR: ['pr. år', 'hvert {n}. år'] },
}

/** "per month", "every 3 months" / "pr. måned", "hver 3. måned". */
export function intervalPhrase(lang: Lang, unit: Unit, count: number): string {
  const [one, many] = intervals[lang][unit]
  return count === 1 ? one : many.replace('{n}', String(count))
}

/** Minor units as money: `1.234,50 kr.` in Danish, `DKK 1,234.50` in English (docs/DOMAIN.md). */
export function formatMoney(lang: Lang, minorUnits: number, currency: string): string {
  return new Intl.NumberFormat(lang === 'da' ? 'da-DK' : 'en', { style: 'currency', currency }).format(minorUnits / 100)
}

/** `?lang=` wins; otherwise the first of Danish or English the browser prefers; English by default. */
export function pickLang(query: string | undefined, acceptLanguage: string | undefined): Lang {
  if (query === 'da' || query === 'en') return query
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().toLowerCase().split(';')
      const q = Number(
        params
          .find((p) => p.trim().startsWith('q='))
          ?.trim()
          .slice(2) ?? '1',
      )
      return { tag, q: Number.isFinite(q) ? q : 0, index }
    })
    .filter((l) => l.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
  for (const { tag } of ranked) {
    if (tag === 'da' || tag.startsWith('da-')) return 'da'
    if (tag === 'en' || tag.startsWith('en-')) return 'en'
  }
  return 'en'
}
