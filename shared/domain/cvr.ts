/** Danish CVR number: 8 digits, weights 2,7,6,5,4,3,2,1, weighted sum divisible by 11. */
const weights = [2, 7, 6, 5, 4, 3, 2, 1] as const

/**
 * 00000000: its weighted sum (0) passes the modulus-11 check, but the register numbers its
 * companies from a running counter, so it is nobody's number, only a placeholder typed to get past
 * a form (docs/decisions/0034-input-the-server-refuses.md).
 */
export const isPlaceholderCvr = (value: string): boolean => /^0{8}$/.test(value)

export function isValidCvr(value: string): boolean {
  if (!/^\d{8}$/.test(value) || isPlaceholderCvr(value)) return false
  const sum = weights.reduce((acc, w, i) => acc + w * Number(value[i]), 0)
  return sum % 11 === 0
}
