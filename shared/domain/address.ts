/**
 * Company addresses (docs/PRODUCT.md §3 "Company address"): one comparable form, so the same address is
 * added to a company once, and the country shown in the reader's language (docs/decisions/0038-companies-members-and-addresses.md).
 */

export interface AddressParts {
  street: string
  number: string
  floor?: string | null
  side?: string | null
  zip: string
}

/** Lower case, no dots ("2." is "2", "st." is "st"), runs of spaces as one, trimmed. */
const text = (v: string | null | undefined) => (v ?? '').normalize('NFC').toLowerCase().replace(/\./g, '').replace(/\s+/g, ' ').trim()
/** House number, floor and side are short tokens: "12 A" is "12a". */
const token = (v: string | null | undefined) => text(v).replace(/ /g, '')

/**
 * The address in one comparable form: postcode, street, number, floor and side ("8000|vestergade|12|2|tv").
 * The city is left out (the postcode decides it), as is the DAWA reference (a typed address has none).
 * Migration 0012 builds the same form in SQL for existing rows (SQLite's lower() folds ASCII only;
 * the service compares with this function, so the stored key is a safety net).
 */
export const addressKey = (a: AddressParts): string => [token(a.zip), text(a.street), token(a.number), token(a.floor), token(a.side)].join('|')

/** Every company address is in Denmark (docs/PRODUCT.md §9); the stored `country` is the English name the API gives. */
export const DENMARK = 'Denmark'
export const isDenmark = (country: string | null | undefined): boolean => ['denmark', 'danmark', 'dk'].includes((country ?? '').trim().toLowerCase())
