/**
 * Households (docs/PRODUCT.md "Households", docs/decisions/0090): the association's dwellings and
 * who lived in them when. Figures are kept exactly as integers — an area in hundredths of a square
 * metre, an allocation figure (fordelingstal) in thousandths — and written as decimal text in
 * the API ("74.5", "1.250"), so no binary fraction ever touches them. Dates are Copenhagen
 * calendar dates (`YYYY-MM-DD`).
 */
export const householdTypes = ['APARTMENT', 'HOUSE', 'COMMERCIAL', 'OTHER'] as const
export type HouseholdType = (typeof householdTypes)[number]

/** An owner (ejer/andelshaver) or a tenant (lejer). */
export const residentKinds = ['OWNER', 'TENANT'] as const
export type ResidentKind = (typeof residentKinds)[number]

/**
 * A decimal text with at most `places` decimals as an integer of that many places ("74.5" with 2 is
 * 7450); null when it is not such a number. A comma is read as the decimal sign too ("74,5").
 */
export function decimalToScaled(text: string, places: number): number | null {
  const m = /^(\d{1,9})(?:[.,](\d+))?$/.exec(text.trim())
  if (!m) return null
  const fraction = m[2] ?? ''
  if (fraction.length > places) return null
  const scaled = Number(m[1]) * 10 ** places + Number(fraction.padEnd(places, '0') || '0')
  return Number.isSafeInteger(scaled) ? scaled : null
}

/** The scaled integer as decimal text, without trailing zeros ("7450" with 2 is "74.5"). */
export function scaledToDecimal(value: number, places: number): string {
  const whole = Math.floor(value / 10 ** places)
  const fraction = String(value % 10 ** places)
    .padStart(places, '0')
    .replace(/0+$/, '')
  return fraction ? `${whole}.${fraction}` : String(whole)
}

/** Area: hundredths of a square metre. */
export const AREA_PLACES = 2
/** Allocation figure (fordelingstal): thousandths. */
export const ALLOCATION_PLACES = 3

/** A resident's stay, as the rule below reads it. */
export interface Stay {
  moveInDate: string
  moveOutDate: string | null
}

/**
 * Whether someone lives in the household on `today` (docs/decisions/0090): moved in on or before
 * it, and not yet moved out (the move-out date is the first day they no longer live there).
 */
export const livesThereOn = (stay: Stay, today: string): boolean => stay.moveInDate <= today && (stay.moveOutDate === null || stay.moveOutDate > today)

/** A stay's dates in order: a move-out after the move-in. */
export const stayProblem = (stay: Stay): 'moveOutBeforeMoveIn' | null =>
  stay.moveOutDate !== null && stay.moveOutDate <= stay.moveInDate ? 'moveOutBeforeMoveIn' : null
