import { describe, expect, it } from 'vitest'
import {
  editDistanceWithin,
  foldSearchText,
  MATCH,
  MAX_FUZZY_TOKEN,
  MAX_QUERY_WORD,
  matchOf,
  matchToken,
  queryTerms,
  rankDocuments,
  searchTokens,
  wordGrams,
} from '.'

describe('the search (docs/decisions/0085)', () => {
  it('folds Danish letters to one spelling: ø, oe and o; å, aa and a; æ and ae', () => {
    for (const w of ['tørretumbler', 'toerretumbler', 'torretumbler', 'TØRRETUMBLER']) expect(foldSearchText(w), w).toBe('torretumbler')
    for (const w of ['gården', 'gaarden', 'garden', 'GÅRDEN', 'ga\u030Arden']) expect(foldSearchText(w), w).toBe('garden')
    expect(foldSearchText('Fælleshus')).toBe(foldSearchText('faelleshus'))
    expect(foldSearchText('Dvořák Łódź Straße')).toBe('dvorak lodz strasse')
  })

  it('takes words of two or more letters or digits from a query, once each, punctuation only a separator', () => {
    expect(queryTerms('"Storskrald*" -i NEAR(a b) 2 og 12 storskrald')).toEqual(['storskrald', 'near', 'og', '12'])
    expect(queryTerms("'; DROP TABLE articles; --")).toEqual(['drop', 'table', 'articles'])
    expect(queryTerms('a b c *')).toEqual([])
    expect(queryTerms(Array.from({ length: 20 }, (_, i) => `ord${i}`).join(' '))).toHaveLength(12)
    expect(searchTokens('vvs’er, 7–21')).toEqual(['vvs', 'er', '21'])
  })

  it('makes trigrams with the word’s edges', () => {
    expect(wordGrams('vask')).toEqual(['^va', 'vas', 'ask', 'sk$'])
    expect(wordGrams('ro')).toEqual(['^ro', 'ro$'])
  })

  it('counts a swap of neighbours as one edit, and stops past the bound', () => {
    expect(editDistanceWithin('vaskeriet', 'vaskriet', 2)).toBe(1)
    expect(editDistanceWithin('vaskeriet', 'vaksreiet', 2)).toBe(2)
    expect(editDistanceWithin('kælder', 'gælder', 1)).toBe(1)
    expect(editDistanceWithin('abcdef', 'uvwxyz', 2)).toBe(3)
    expect(editDistanceWithin('kort', 'meget længere', 1)).toBe(2)
    expect(editDistanceWithin('', 'ab', 2)).toBe(2)
  })

  it('ranks a word as itself over its start over a compound’s part over a typo', () => {
    const tokens = (s: string) => new Set(searchTokens(s))
    expect(matchOf('vask', tokens('vask'))).toBe(MATCH.exact)
    expect(matchOf('vask', tokens('vaskeriet'))).toBe(MATCH.prefix)
    expect(matchOf('sortering', tokens('affaldssortering'))).toBe(MATCH.part)
    expect(matchOf('vaskriet', tokens('vaskeriet'))).toBe(MATCH.fuzzy)
    // No part below 4 letters, no typo below 5, and a typo's first letter must agree.
    expect(matchOf('ost', tokens('frost'))).toBe(MATCH.none)
    expect(matchOf('vsak', tokens('vask'))).toBe(MATCH.none)
    expect(matchOf('kaelder', tokens('gælder'))).toBe(MATCH.none)
  })

  it('needs every word, weighs the title over the tags over the body, and breaks ties by the newest, then the id', () => {
    const doc = (id: string, title: string, text: string, createdAt = '2026-01-01', tags: string[] = []) => ({ id, title, text, tags, createdAt })
    const docs = [
      doc('body', 'Andet', 'Om vaskeriet'),
      doc('title', 'Vaskeriet', ''),
      doc('tags', 'Andet', '', '2026-01-01', ['vaskeriet']),
      doc('older', 'Vaskeriet', '', '2025-01-01'),
      doc('same', 'Vaskeriet', ''),
    ]
    expect(rankDocuments(docs, 'vaskeriet').map((h) => h.doc.id)).toEqual(['title', 'same', 'older', 'tags', 'body'])
    expect(rankDocuments(docs, 'vaskeriet kælder')).toEqual([])
    expect(rankDocuments(docs, '!!!')).toEqual([])
  })
})

describe('a search costs bounded work', () => {
  it('counts at most 32 letters of a query word, and looks for typos in ordinary words only', () => {
    const long = 'v' + 'a'.repeat(199)
    expect([...queryTerms(long)[0]!].length).toBe(MAX_QUERY_WORD)
    expect(matchToken('vaskriet', 'vaskeriet')).toBe(MATCH.fuzzy)
    const planted = 'v' + 'aske'.repeat(20)
    expect(planted.length).toBeGreaterThan(MAX_FUZZY_TOKEN)
    expect(matchToken('vaskriet', planted)).toBe(MATCH.none)
  })
})
