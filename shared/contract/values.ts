/**
 * The contract's plain values that the client's first route needs (route search parameters, the
 * language), apart from their zod schemas so the first route does not load zod
 * (docs/decisions/0072-no-zod-before-the-first-route.md). The schema modules re-export them.
 */

export const languages = ['EN', 'DA'] as const
export type Language = (typeof languages)[number]
export const isLanguage = (value: unknown): value is Language => value === 'EN' || value === 'DA'
export const localeOf = (language: Language | null | undefined): 'en' | 'da' => (language === 'DA' ? 'da' : 'en')

export const messageStatuses = ['DRAFT', 'SENT', 'DELIVERED', 'READ'] as const
export const documentCategories = ['BYLAWS', 'MINUTES', 'BUDGET', 'ANNUAL_REPORT', 'HOUSE_RULES', 'OTHER'] as const
export const listingKinds = ['BUY', 'SHARE', 'SWAP'] as const
