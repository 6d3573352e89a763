/**
 * Mobile numbers in one comparable form: the digits with the country code and no `+`, where 8
 * digits mean a Danish number (`+45 20 11 22 33`, `20112233` and `004520112233` are all
 * `4520112233`). Vipps Login returns numbers in this form already (`4520112233`).
 * drizzle/0009_identity_backfill.sql applies the same rule in SQL to existing rows.
 */
export function mobileKey(number: string): string {
  const digits = number.replace(/[\s+]/g, '')
  if (digits.length === 8) return `45${digits}`
  if (digits.startsWith('00')) return digits.slice(2)
  return digits
}
