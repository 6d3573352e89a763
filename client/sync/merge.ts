/**
 * Three-way, field-level merge of an offline edit with what the server has now (docs/OFFLINE.md "Conflicts and refusals").
 *
 * When a versioned edit is answered 412 (someone changed the row after the user opened it), the
 * edit is compared field by field with the row it was made on (`base`, recorded when it was
 * queued) and the server's current row:
 * - a field only the user changed keeps the user's value;
 * - a field only the server changed keeps the server's value (nothing is sent for it);
 * - a field both changed to the same value is no conflict;
 * - a field both changed to different values is a real conflict: the user chooses.
 * Lists of items with an `id` (an agreement's parts) merge by id the same way: items added,
 * removed or edited on one side are taken; an item edited on both sides merges property by
 * property, and only an item whose same property both changed differently (or that one side
 * removed while the other edited it) is a conflict, offered as a whole item.
 *
 * Pure: no database, no network; see outbox.ts for how the result is queued again.
 */

export type Values = Record<string, unknown>

export interface MergeFieldSpec {
  name: string
  /** A list of objects with an `id`, merged item by item. */
  list?: boolean
}

export type Side = 'mine' | 'server'

export interface FieldConflict {
  /** Unique within one merge: the field name, or `field:itemId` for an item of a list. */
  key: string
  field: string
  /** For a list: the item's id. */
  itemId?: string
  /** The value (or item) on each side once everything that does not conflict is merged in; undefined for an item removed on that side. */
  mine: unknown
  server: unknown
  /** What it was when the user started editing (undefined when unknown). */
  base: unknown
}

export interface MergeResult {
  /** Every field of the edit, merged (an unresolved conflict keeps the server's value). */
  values: Values
  /** Real conflicts (both sides changed the same thing differently), with or without a choice. */
  conflicts: FieldConflict[]
  /** Conflicts without a choice in `choices`: the user must still decide these. */
  unresolved: FieldConflict[]
  /** Fields whose merged value differs from the server's: what still has to be sent. */
  changed: string[]
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** Deep equality of JSON values; null and undefined count as the same ("no value"). */
export function same(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (a == null || b == null) return a == null && b == null
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false
    return a.every((v, i) => same(v, b[i]))
  }
  if (isObject(a) && isObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)])
    for (const k of keys) if (!same(a[k], b[k])) return false
    return true
  }
  return false
}

type Pick3 = { kind: 'take'; value: unknown } | { kind: 'conflict' }

/** One value three ways. Without a base every difference is a conflict (an edit queued before bases were recorded). */
function three(hasBase: boolean, base: unknown, mine: unknown, server: unknown): Pick3 {
  if (same(mine, server)) return { kind: 'take', value: server }
  if (hasBase && same(base, server)) return { kind: 'take', value: mine }
  if (hasBase && same(base, mine)) return { kind: 'take', value: server }
  return { kind: 'conflict' }
}

/** An item edited on both sides: property by property; the two candidates differ only where both changed. */
function mergeItem(base: Values, mine: Values, server: Values): { mine: Values; server: Values; conflict: boolean } {
  const keys = [...new Set([...Object.keys(server), ...Object.keys(mine), ...Object.keys(base)])]
  const a: Values = {}
  const b: Values = {}
  let conflict = false
  for (const k of keys) {
    const r = three(true, base[k], mine[k], server[k])
    if (r.kind === 'take') {
      if (r.value !== undefined) a[k] = b[k] = r.value
    } else {
      conflict = true
      if (mine[k] !== undefined) a[k] = mine[k]
      if (server[k] !== undefined) b[k] = server[k]
    }
  }
  return { mine: a, server: b, conflict }
}

type Item = Values & { id?: unknown }
const idOf = (item: unknown): string | undefined => (isObject(item) && typeof item.id === 'string' ? item.id : undefined)
const asList = (v: unknown): Item[] => (Array.isArray(v) ? v.filter(isObject) : [])

function mergeList(
  field: string,
  hasBase: boolean,
  baseList: unknown,
  mineList: unknown,
  serverList: unknown,
  choices: Record<string, Side>,
  conflicts: FieldConflict[],
): unknown[] {
  const base = new Map(asList(baseList).flatMap((i) => (idOf(i) ? [[idOf(i)!, i] as const] : [])))
  const mine = asList(mineList)
  const server = asList(serverList)
  const mineById = new Map(mine.flatMap((i) => (idOf(i) ? [[idOf(i)!, i] as const] : [])))
  const serverById = new Map(server.flatMap((i) => (idOf(i) ? [[idOf(i)!, i] as const] : [])))

  const decide = (id: string): Item | undefined => {
    const b = base.get(id)
    const m = mineById.get(id)
    const s = serverById.get(id)
    // Absent from the base: added by one side (the other cannot have the same new id).
    if (hasBase && b === undefined && (m === undefined || s === undefined)) return m ?? s
    const r = three(hasBase, b, m, s)
    if (r.kind === 'take') return r.value as Item | undefined
    // Both sides still have it: merge its properties, a conflict only where the same one differs.
    const item = m && s && b ? mergeItem(b, m, s) : { mine: m, server: s, conflict: true }
    if (!item.conflict) return item.mine as Item
    const key = `${field}:${id}`
    conflicts.push({ key, field, itemId: id, mine: item.mine, server: item.server, base: b })
    return (choices[key] === 'mine' ? item.mine : item.server) as Item | undefined
  }

  const out: unknown[] = []
  const done = new Set<string>()
  // The server's order, then what only the user added, in the user's order.
  for (const s of server) {
    const id = idOf(s)
    if (!id) {
      out.push(s)
      continue
    }
    done.add(id)
    const item = decide(id)
    if (item !== undefined) out.push(item)
  }
  for (const m of mine) {
    const id = idOf(m)
    if (!id) {
      out.push(m)
      continue
    }
    if (done.has(id)) continue
    done.add(id)
    const item = decide(id)
    if (item !== undefined) out.push(item)
  }
  // Items of the base that neither side still has are gone on both sides: nothing to do.
  return out
}

/**
 * Merges the user's edit (`mine`: only the fields the edit sets) with the server's current values,
 * given the values the edit was made on (`base`; undefined when unknown). `choices` resolves
 * conflicts by key (see FieldConflict.key).
 */
export function mergeEdit(
  fields: readonly MergeFieldSpec[],
  base: Values | undefined,
  mine: Values,
  server: Values,
  choices: Record<string, Side> = {},
): MergeResult {
  const values: Values = {}
  const conflicts: FieldConflict[] = []
  for (const f of fields) {
    if (!(f.name in mine)) continue
    const hasBase = base !== undefined && f.name in base
    const b = base?.[f.name]
    const m = mine[f.name]
    const s = server[f.name]
    if (f.list) {
      values[f.name] = mergeList(f.name, hasBase, b, m, s, choices, conflicts)
      continue
    }
    const r = three(hasBase, b, m, s)
    if (r.kind === 'take') values[f.name] = r.value
    else {
      conflicts.push({ key: f.name, field: f.name, mine: m, server: s, base: b })
      values[f.name] = choices[f.name] === 'mine' ? m : s
    }
  }
  const changed = Object.keys(values).filter((k) => !same(values[k], server[k]))
  return { values, conflicts, unresolved: conflicts.filter((c) => !choices[c.key]), changed }
}
