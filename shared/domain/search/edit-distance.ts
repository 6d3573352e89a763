/**
 * The Damerau–Levenshtein distance in its optimal-string-alignment form (an insertion, a deletion,
 * a substitution or two neighbours swapped each cost 1), bounded: the answer is exact up to `max`,
 * and `max + 1` means "more". Counted in code points. Written here rather than taken from a package
 * (docs/decisions/0085): the maintained ones count a swap as two (leven, fastest-levenshtein) or
 * have no bound to stop early.
 */
export function editDistanceWithin(a: string, b: string, max: number): number {
  const s = [...a]
  const t = [...b]
  if (Math.abs(s.length - t.length) > max) return max + 1
  if (s.length === 0 || t.length === 0) return Math.max(s.length, t.length)
  let before: number[] = []
  let previous = Array.from({ length: t.length + 1 }, (_, j) => j)
  for (let i = 1; i <= s.length; i++) {
    const row = [i]
    let best = i
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1
      let d = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + cost)
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) d = Math.min(d, before[j - 2]! + 1)
      row.push(d)
      if (d < best) best = d
    }
    if (best > max) return max + 1
    before = previous
    previous = row
  }
  return Math.min(previous[t.length]!, max + 1)
}
