import { statisticsCategories, zeroAmounts, type AddressSums, type StatisticsCategory } from '../../../shared/domain/statistics'
import { sortByAddress } from './address-order'

/** Where each category's amount is in an `AddressSums` row, in the order `zeroAmounts` writes the keys. */
const keys = Object.keys(zeroAmounts()) as StatisticsCategory[]
const columns = keys.map((c) => statisticsCategories.indexOf(c) + 1)
/** `{"hot-and-cold-water":`, `,"hot-water":`, …: what precedes each amount of a row's `parts`. */
const prefixes = keys.map((c, i) => `${i ? ',' : '{'}${JSON.stringify(c)}:`)

/**
 * The `statistics` member of the answer (`{"charges":[…],"summary":{…}}`) as JSON text, byte for
 * byte `JSON.stringify(statisticsOfSums(parts.flat()))` (shared/domain/statistics.ts: one row
 * per address with a total, in address order, addresses netting to 0 left out, the summary over
 * the rows), without the objects (docs/decisions/0056-statistics-in-address-order.md). At 16,667
 * addresses an object per row and per `parts`, and serialising them, cost more than writing the
 * text. `parts` are the partial sums as the repository reads them; within one part an address
 * appears once.
 */
export function statisticsJson(parts: readonly (readonly AddressSums[])[]): string {
  const filled = parts.filter((p) => p.length > 0)
  const rows = filled.length === 1 ? filled[0]! : merged(filled)
  const kept = rows.filter((r) => {
    for (let i = 1; i < r.length; i++) if (r[i] !== 0) return true
    return false
  })
  const summary = keys.map(() => 0)
  const charges = sortByAddress(kept, (r) => r[0]).map((r) => {
    let text = `{"consumerAddress":${JSON.stringify(r[0])},"parts":`
    let total = 0
    for (let j = 0; j < columns.length; j++) {
      const x = r[columns[j]!] as number
      text += prefixes[j]! + x
      total += x
      summary[j]! += x
    }
    return `${text}},"total":${total}}`
  })
  const total = summary.reduce((s, x) => s + x, 0)
  return `{"charges":[${charges.join(',')}],"summary":${summary.map((x, j) => prefixes[j]! + x).join('')},"total":${total}}}`
}

/** The partial sums of several parts added up per address (the amounts of the first part an address is in are copied, not changed). */
function merged(parts: readonly (readonly AddressSums[])[]): AddressSums[] {
  const byAddress = new Map<string, number[]>()
  for (const part of parts)
    for (const p of part) {
      const row = byAddress.get(p[0])
      if (!row) byAddress.set(p[0], p.slice(1) as number[])
      else for (let i = 0; i < row.length; i++) row[i]! += p[i + 1] as number
    }
  return Array.from(byAddress, ([address, amounts]) => [address, ...amounts] as const)
}
