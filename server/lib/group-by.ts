/**
 * Rows grouped by a key, each group in the rows' order: a page's views read their details in
 * one statement for the whole page, then take each row's share from here (not rows × details).
 */
export function groupBy<T, K>(rows: readonly T[], keyOf: (row: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>()
  for (const row of rows) {
    const key = keyOf(row)
    const group = groups.get(key)
    if (group) group.push(row)
    else groups.set(key, [row])
  }
  return groups
}
