const digits = (s: string) => s.replace(/\D/g, '')

/**
 * docs/PRODUCT.md §5: the heating-water date input turns typed digits into dd.mm as the user types
 * ("1503" → "15.03", "150" → "15.0"). A dot the user types splits day and month ("1.3" stays).
 */
export function autoFormatDayMonth(raw: string): string {
  const dot = raw.indexOf('.')
  if (dot >= 0) return `${digits(raw.slice(0, dot)).slice(0, 2)}.${digits(raw.slice(dot + 1)).slice(0, 2)}`
  const d = digits(raw).slice(0, 4)
  return d.length > 2 ? `${d.slice(0, 2)}.${d.slice(2)}` : d
}

/** A d.m date written as dd.mm with leading zeros ("1.3" → "01.03"); anything else unchanged. */
export function normalizeDayMonth(value: string): string {
  const m = /^(\d{1,2})\.(\d{1,2})$/.exec(value.trim())
  return m ? `${m[1]!.padStart(2, '0')}.${m[2]!.padStart(2, '0')}` : value.trim()
}
