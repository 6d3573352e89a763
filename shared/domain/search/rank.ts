/**
 * The knowledge bank's ranking (docs/decisions/0085): which articles a query finds and in which
 * order, the same function on the server (over the candidates its index proposes) and on the device
 * (over the synced articles), so online and offline answer the same hits in the same order.
 */
import { editDistanceWithin } from './edit-distance'
import { gramsOf, queryTerms, searchTokens } from './fold'

/** What a field adds per matched word: the title most, then the tags, then the body's text. */
export const FIELD_WEIGHTS = { title: 10, tags: 5, body: 1 } as const

/** How well a query word matches a field's best word: the whole word, its start, inside a compound, with a typo. */
export const MATCH = { exact: 4, prefix: 3, part: 2, fuzzy: 1, none: 0 } as const

/** A query word matches inside a longer word ("sortering" in "affaldssortering") from this many letters. */
export const MIN_PART_LENGTH = 4

/** Longest text word in which a typo is looked for (the longest Danish compounds people write stay under it). */
export const MAX_FUZZY_TOKEN = 40

const length = (w: string) => [...w].length

/** Typos forgiven in a query word: none below 5 letters, 1 from 5, 2 from 8. */
export const maxEdits = (word: string): number => {
  const n = length(word)
  return (
    n >= 8 ? 2
    : n >= 5 ? 1
    : 0
  )
}

/**
 * Whether `word` is within `k` edits of `token` or of a start of it ("vaskriet" → "vaskeriets"). The
 * first letter must agree, as in most fuzzy search: typos seldom hit it, and without the rule
 * "kælder" would find "gælder".
 */
function nearly(word: string, token: string, k: number): boolean {
  if (token.codePointAt(0) !== word.codePointAt(0)) return false
  const n = length(word)
  const chars = [...token]
  if (chars.length < n - k) return false
  for (let l = Math.max(1, n - k); l <= Math.min(chars.length, n + k); l++)
    if (editDistanceWithin(word, l === chars.length ? token : chars.slice(0, l).join(''), k) <= k) return true
  return false
}

/** How well the folded query word matches one folded word of a text (a `MATCH` value). */
export function matchToken(word: string, token: string): number {
  if (token === word) return MATCH.exact
  if (token.startsWith(word)) return MATCH.prefix
  if (length(word) >= MIN_PART_LENGTH && token.includes(word)) return MATCH.part
  const k = maxEdits(word)
  // A typo is looked for in words of ordinary length only: an edit-distance table per long token
  // (a planted 200-letter "word") would cost a search its time budget (docs/decisions/0085).
  return k > 0 && token.length <= MAX_FUZZY_TOKEN && nearly(word, token, k) ? MATCH.fuzzy : MATCH.none
}

/** How well the folded query word matches the best of a field's folded words (a `MATCH` value). */
export function matchOf(word: string, tokens: Iterable<string>, match: (token: string) => number = (t) => matchToken(word, t)): number {
  let best: number = MATCH.none
  for (const token of tokens) {
    const m = match(token)
    if (m > best && (best = m) === MATCH.exact) break
  }
  return best
}

/** `matchToken` for each query word, remembered per distinct word of the texts: a ranking meets the same words in many articles. */
function matchers(words: readonly string[]): ((token: string) => number)[] {
  return words.map((word) => {
    const seen = new Map<string, number>()
    return (token) => {
      let m = seen.get(token)
      if (m === undefined) seen.set(token, (m = matchToken(word, token)))
      return m
    }
  })
}

/** What the ranking reads of an article: the same on the server (its row) and offline (the synced copy). */
export interface SearchDocument {
  id: string
  title: string
  tags: readonly string[]
  /** The body's text (`htmlText` of the sanitized body), never its markup. */
  text: string
  createdAt: string
}

/**
 * The article's score for these folded query words: for each word, in each field, the field's
 * weight times how well it matches there, summed. 0 when a word matches in no field: every word
 * must be found (as itself, its start, inside a compound or with a typo).
 */
export function scoreDocument(words: readonly string[], doc: SearchDocument, match = matchers(words)): number {
  if (words.length === 0) return 0
  const fields = [
    [FIELD_WEIGHTS.title, new Set(searchTokens(doc.title))],
    [FIELD_WEIGHTS.tags, new Set(searchTokens(doc.tags.join(' ')))],
    [FIELD_WEIGHTS.body, new Set(searchTokens(doc.text))],
  ] as const
  let score = 0
  for (let i = 0; i < words.length; i++) {
    let found = 0
    for (const [weight, tokens] of fields) found += weight * matchOf(words[i]!, tokens, match[i])
    if (found === 0) return 0
    score += found
  }
  return score
}

export interface Ranked<T> {
  doc: T
  /** A small integer, higher is better (the server's page key). */
  score: number
}

/** The order of hits: the score, then the newest, then the id (descending), so no two tie. */
export const compareRanked = <T extends SearchDocument>(a: Ranked<T>, b: Ranked<T>): number =>
  b.score - a.score ||
  (a.doc.createdAt < b.doc.createdAt ? 1
  : a.doc.createdAt > b.doc.createdAt ? -1
  : a.doc.id < b.doc.id ? 1
  : a.doc.id > b.doc.id ? -1
  : 0)

/** The documents the query finds, best first (a query without words finds none). */
export function rankDocuments<T extends SearchDocument>(docs: readonly T[], q: string): Ranked<T>[] {
  const words = queryTerms(q)
  if (words.length === 0) return []
  const hits: Ranked<T>[] = []
  const match = matchers(words)
  for (const doc of docs) {
    const score = scoreDocument(words, doc, match)
    if (score > 0) hits.push({ doc, score })
  }
  return hits.sort(compareRanked)
}

/**
 * Marks an article whose grams were written with this folding: a change of `foldSearchText` or
 * `wordGrams` bumps it, and the server's index job writes every article's grams again.
 */
export const GRAMS_MARK = '#1'

/** What the server's index keeps of an article: the distinct trigrams of its words, and the mark. */
export function documentGrams(doc: Pick<SearchDocument, 'title' | 'tags' | 'text'>): string[] {
  return [GRAMS_MARK, ...gramsOf([...searchTokens(doc.title), ...searchTokens(doc.tags.join(' ')), ...searchTokens(doc.text)])]
}

/** The grams a query looks up: those of its words. */
export const queryGrams = (q: string): string[] => gramsOf(queryTerms(q))
