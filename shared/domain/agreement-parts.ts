/**
 * Agreement parts (docs/PRODUCT.md §3): each part is a line of the recurring charge and later an invoice
 * article. Prices are integer øre; the agreement's price is the sum of its parts.
 */
export const partTypes = ['FEE', 'ADDITION', 'HEAT', 'COLD_WATER', 'HOT_WATER', 'HOT_AND_COLD_WATER', 'COMMON_EXPENSES', 'OTHER'] as const
export type PartType = (typeof partTypes)[number]

export const paymentPeriods = ['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'] as const
export type PaymentPeriod = (typeof paymentPeriods)[number]

/**
 * VAT rates in percent (docs/DOMAIN.md "Danish specifics"): housing charges collected by an
 * association are normally exempt (0 %, the default); 25 % for e.g. parking or laundry.
 */
export const vatRates = [0, 25] as const
export type VatRate = (typeof vatRates)[number]
export const DEFAULT_VAT_RATE: VatRate = 0

/** The agreement's price: the sum of its parts' prices, in øre. */
export const priceOfParts = (parts: readonly { price: number }[]): number => parts.reduce((sum, p) => sum + p.price, 0)

/** The VAT included in a gross price in øre at `rate` %, rounded half up to whole øre (the one rounding rule). */
export const vatIncluded = (grossOre: number, rate: VatRate): number => (rate === 0 ? 0 : Math.round((grossOre * rate) / (100 + rate)))

/** Kroner typed in a form (step 0.01) → øre, without floating-point drift (12.34 → 1234). */
export const kronerToOre = (kroner: number): number => Math.round(kroner * 100)

/** The member's initials for the list's avatar (docs/PRODUCT.md §3 "title"): "Sofie Jensen" → "SJ". */
export const initialsOf = (fullName: string): string =>
  fullName
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase())
    .filter((_, i, all) => i === 0 || i === all.length - 1)
    .join('')

/** Days before the termination date on which the final payment is due (docs/PRODUCT.md §9). */
export const FINAL_PAYMENT_DAYS_BEFORE = 3
/** Default termination date offset in days (docs/PRODUCT.md §9). */
export const DEFAULT_TERMINATION_DAYS = 30

/** The highest price of a part: 1,000,000 kr. in øre (the agreement form and the household import, docs/decisions/0093). */
export const MAX_PART_PRICE_ORE = 100_000_000
