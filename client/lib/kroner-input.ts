/**
 * Prices typed in kroner (docs/PRODUCT.md §5: step 0.01) and turned into integer øre for the stored body.
 * Danish users type a decimal comma ("12,50"), English ones a point ("12.50"); both are accepted
 * here whatever the interface language, since a phone's keyboard may offer either.
 */
import { kronerToOre } from '../../shared/domain/agreement-parts'
import type { Locale } from './format'

/**
 * "1234,56", "1234.56", "1.234,56", "1,234.56", "12", "0,5" → øre (123456, …, 1200, 50).
 * null when it is not an amount with at most two decimals (or is empty).
 *
 * With only one kind of separator, appearing once and followed by 1–2 digits, it is the decimal
 * mark; a single one followed by exactly 3 digits ("1.234") is ambiguous between the languages and
 * refused rather than guessed. With both kinds, the last one is the decimal mark.
 */
export function parseKroner(text: string): number | null {
  const s = text
    .replace(/[\s\u00a0]/g, '')
    .replace(/(kr\.?|dkk)$/i, '')
    .replace(/^(kr\.?|dkk)/i, '')
  if (!/^\d[\d.,]*$/.test(s)) return null
  const lastComma = s.lastIndexOf(',')
  const lastPoint = s.lastIndexOf('.')
  let integer = s
  let decimals = ''
  if (lastComma >= 0 && lastPoint >= 0) {
    const mark = Math.max(lastComma, lastPoint)
    const grouping = lastComma > lastPoint ? '.' : ','
    integer = s.slice(0, mark)
    decimals = s.slice(mark + 1)
    if (integer.includes(s[mark]!) || !isGrouped(integer, grouping)) return null
    integer = integer.split(grouping).join('')
  } else if (lastComma >= 0 || lastPoint >= 0) {
    const sep = lastComma >= 0 ? ',' : '.'
    const pieces = s.split(sep)
    if (pieces.length === 2 && pieces[1]!.length !== 3) {
      integer = pieces[0]!
      decimals = pieces[1]!
    } else if (pieces.length > 2 && isGrouped(s, sep)) {
      integer = pieces.join('')
    } else {
      return null
    }
  }
  if (!/^\d+$/.test(integer) || !/^\d{0,2}$/.test(decimals)) return null
  // At most two decimals: the number is exact enough for kronerToOre's rounding to land on the øre.
  const ore = kronerToOre(Number(`${integer}.${decimals || '0'}`))
  return Number.isSafeInteger(ore) ? ore : null
}

/** "1.234.567" with `sep` "." : groups of three after the first. */
const isGrouped = (s: string, sep: string) => {
  const [first, ...rest] = s.split(sep)
  return /^\d{1,3}$/.test(first ?? '') && rest.every((g) => /^\d{3}$/.test(g))
}

/** øre → the text to put back in a kroner field: 123450 → "1234,50" (da) or "1234.50" (en), no grouping. */
export function oreToKronerInput(ore: number, locale: Locale): string {
  const sign = ore < 0 ? '-' : ''
  const abs = Math.abs(Math.trunc(ore))
  const text = `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`
  return locale === 'da' ? text.replace('.', ',') : text
}
