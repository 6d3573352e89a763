/**
 * Danish folding and the words of a text, as the knowledge bank's search compares them
 * (docs/decisions/0085). One function for the server's index, its ranking and the offline search,
 * so a word is the same word everywhere.
 */

/** Letters that no Unicode decomposition takes apart, spelt as Danes type them without the key. */
const SPELLED: Record<string, string> = { æ: 'ae', ø: 'oe', å: 'aa', ß: 'ss', ł: 'l', đ: 'd', ð: 'd', þ: 'th', œ: 'oe', ı: 'i' }

/**
 * Lower case, accents off (é → e, ü → u), æ → ae, and the two spellings of ø and å made one: ø, oe
 * and o are all "o", å, aa and a are all "a". So "tørretumbler", "toerretumbler" and "torretumbler"
 * fold alike, as do "gården", "gaarden" and "garden". Both the text and the query are folded, so
 * the rule holds whichever spelling either side uses ("Aalborg" and "Ålborg" too); the price is
 * that an English "does" is "dos" to the search, on both sides alike.
 */
export function foldSearchText(s: string): string {
  // toLowerCase: Danish has no casing rules of its own, and a locale's (ICU) is many times slower.
  // Each character beyond printable ASCII is folded once and remembered: normalizing whole texts
  // was most of a search's time.
  return s
    .toLowerCase()
    .replace(/[^ -~]/gu, foldCharacter)
    .replace(/aa/g, 'a')
    .replace(/oe/g, 'o')
}

const folded = new Map<string, string>()
/** A character without its accents (é → e, a combining mark → nothing), or its Danish spelling (ø → oe). */
function foldCharacter(c: string): string {
  let f = folded.get(c)
  if (f === undefined) {
    f = SPELLED[c] ?? c.normalize('NFD').replace(/\p{M}/gu, '')
    if (folded.size < 10_000) folded.set(c, f)
  }
  return f
}

/** Words shorter than this are neither indexed nor searched: one letter would find nearly everything. */
export const MIN_WORD_LENGTH = 2
/** A query's words beyond this many are ignored (each costs a scan of its candidates). */
export const MAX_QUERY_WORDS = 12
/** Letters of a query word that count: no Danish word people type is longer, and typo matching costs the square of it. */
export const MAX_QUERY_WORD = 32

const length = (w: string) => [...w].length

/** The folded words of a text: runs of letters and digits, two characters or more. */
export function searchTokens(text: string): string[] {
  return (foldSearchText(text).match(/[\p{L}\p{N}]{2,}/gu) ?? []).filter((w) => w.length > 2 || length(w) >= MIN_WORD_LENGTH)
}

/**
 * The query's words, folded, each once, at most 12. Anything else in the query (quotes, `*`, `-`,
 * `:`, SQL) is only a separator: nothing of the query but these words reaches a statement.
 */
export function queryTerms(q: string): string[] {
  return [...new Set(searchTokens(q).map((w) => (w.length > MAX_QUERY_WORD ? [...w].slice(0, MAX_QUERY_WORD).join('') : w)))].slice(0, MAX_QUERY_WORDS)
}

/**
 * A word's trigrams, with `^` before and `$` after it: "vask" → ^va, vas, ask, sk$. The index keeps
 * each article's distinct trigrams; a query's are looked up to find candidates. A word inside a
 * compound ("sortering" in "affaldssortering") has all its inner trigrams there, a prefix all but
 * the last, a word with a typo most of them.
 */
export function wordGrams(word: string): string[] {
  const chars = [...`^${word}$`]
  const grams: string[] = []
  for (let i = 0; i + 3 <= chars.length; i++) grams.push(chars.slice(i, i + 3).join(''))
  return grams
}

/** The distinct trigrams of these words (a text's for the index, a query's for the lookup), sorted. */
export function gramsOf(words: Iterable<string>): string[] {
  const all = new Set<string>()
  for (const w of words) for (const g of wordGrams(w)) all.add(g)
  return [...all].sort()
}
