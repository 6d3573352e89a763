import { compareAddresses } from '../../../shared/domain/statistics'

/**
 * The statistics rows' order (`compareAddresses` in shared/domain/statistics.ts: Danish, numbers
 * in numeric order, ties by code unit, no address last) at the cost of a plain string sort
 * (docs/decisions/0056-statistics-in-address-order.md). Sorting 16,667 addresses with the numeric
 * Danish `Intl.Collator` costs ~55 ms (about 230,000 comparisons); sorting strings by code unit
 * costs ~2 ms.
 *
 * So each address gets a hint: a string whose code-unit order is the collator's order for the
 * characters addresses are written with (spaces, punctuation, digits, Latin letters, æ ø å, and
 * "aa", which Danish sorts as å). The rows are sorted by hint, and then sorted again with
 * `compareAddresses` itself. That second sort is what decides the order, so the answer is
 * exactly the old one whatever the hint gets wrong; the hint only makes it cheap: on rows already
 * in order, Array.prototype.sort (TimSort) finds a single run after n − 1 comparisons. Where the
 * hint gets two addresses wrong (a character outside the table, an expansion such as œ = oe), the
 * second sort moves them: a few more comparisons, never a different answer.
 */

/** The collator of `compareAddresses`; the hint's table is read from it. */
const collator = new Intl.Collator('da', { numeric: true, sensitivity: 'base' })

/** Characters below this have their collation rank in the table: ASCII, Latin-1 and Latin Extended-A. */
const TABLE_END = 0x180
/** A character outside the table: after every ranked one. */
const UNKNOWN = 0xff
const isDigit = (c: number) => c >= 0x30 && c <= 0x39

/**
 * Each character's rank among the others at the collator's strength (equal ranks where the
 * collator sees no difference: a/A/á), 0 for those it ignores (controls, soft hyphen). The
 * digits 1–9 are left out: a run of digits is ranked as one number (see `sortedByHint`), at the rank
 * of 0.
 */
const rank = (() => {
  const chars: string[] = []
  for (let c = 0; c < TABLE_END; c++) if (c < 0x31 || c > 0x39) chars.push(String.fromCharCode(c))
  const ranks = new Uint16Array(TABLE_END)
  const ranked = chars.filter((ch) => collator.compare(ch, '') !== 0).sort(collator.compare)
  let r = 1
  ranked.forEach((ch, i) => {
    if (i > 0 && collator.compare(ranked[i - 1]!, ch) !== 0) r++
    ranks[ch.charCodeAt(0)] = r
  })
  return ranks
})()
const NUMBER = rank[0x30]!
const A_RING = rank[0xe5]!
const isA = (c: number) => c === 0x61 || c === 0x41

/**
 * The hints of the addresses, in one Latin-1 text: each character's rank (one byte; every
 * character outside the table is 0xff), a run of digits as one number (the rank of 0, its length
 * without leading zeros, its digits), "aa", "Aa" and "AA" as å; then a 0 byte (lower than any
 * rank, so a hint that is the start of another sorts first) and the address's index in three
 * bytes. Sorting these strings with the default sort (no comparator to call) orders the indexes
 * by hint. One buffer decoded once: a string built per address costs more than the sort it saves.
 */
export function sortedByHint(addresses: readonly string[]): number[] {
  let size = 0
  // At most 3 bytes a character (a one-digit number), and 4 for the end and the index.
  for (const a of addresses) size += 3 * a.length + 4
  const codes = new Uint8Array(size)
  const ends = new Int32Array(addresses.length)
  let k = 0
  for (let index = 0; index < addresses.length; index++) {
    const address = addresses[index]!
    const n = address.length
    for (let i = 0; i < n;) {
      const c = address.charCodeAt(i)
      if (isDigit(c)) {
        let end = i
        while (end < n && isDigit(address.charCodeAt(end))) end++
        while (i < end && address.charCodeAt(i) === 0x30) i++
        codes[k++] = NUMBER
        codes[k++] = Math.min(end - i + 1, 0xff)
        while (i < end) codes[k++] = address.charCodeAt(i++)
      } else if (isA(c) && (address.charCodeAt(i + 1) === 0x61 || (c === 0x41 && address.charCodeAt(i + 1) === 0x41))) {
        codes[k++] = A_RING
        i += 2
      } else {
        const r = c < TABLE_END ? rank[c]! : UNKNOWN
        if (r) codes[k++] = r
        i++
      }
    }
    codes[k++] = 0
    codes[k++] = index >>> 16
    codes[k++] = (index >>> 8) & 0xff
    codes[k++] = index & 0xff
    ends[index] = k
  }
  const text = Buffer.from(codes.buffer, 0, k).toString('latin1')
  const hints = new Array<string>(addresses.length)
  for (let i = 0, start = 0; i < addresses.length; start = ends[i++]!) hints[i] = text.slice(start, ends[i])
  hints.sort()
  return hints.map((h) => (h.charCodeAt(h.length - 3) << 16) | (h.charCodeAt(h.length - 2) << 8) | h.charCodeAt(h.length - 1))
}

/**
 * `items` in the order `compareAddresses` gives their addresses (the rows' order of the
 * statistics), as a new array. `addressOf` picks an item's address; addresses must be distinct
 * (the rows are one per address).
 */
export function sortByAddress<T>(items: readonly T[], addressOf: (item: T) => string): T[] {
  const sorted: T[] = []
  let noAddress: T | undefined
  const addresses: string[] = []
  const withAddress: T[] = []
  for (const item of items) {
    const a = addressOf(item)
    if (a === '') noAddress = item
    else {
      addresses.push(a)
      withAddress.push(item)
    }
  }
  for (const i of sortedByHint(addresses)) sorted.push(withAddress[i]!)
  if (noAddress !== undefined) sorted.push(noAddress)
  // The order that counts: one pass over rows already in order when the hints were right.
  return sorted.sort((a, b) => compareAddresses(addressOf(a), addressOf(b)))
}
