/** Danish CVR number: 8 digits, weights 2,7,6,5,4,3,2,1, weighted sum divisible by 11. */
const weights = [2, 7, 6, 5, 4, 3, 2, 1] as const

export function isValidCvr(value: string): boolean {
  if (!/^\d{8}$/.test(value)) return false
  const sum = weights.reduce((acc, w, i) => acc + w * Number(value[i]), 0)
  return sum % 11 === 0
}
