/** The knowledge bank's search, one owner for the server and the device (docs/decisions/0085). */
export { foldSearchText, gramsOf, queryTerms, searchTokens, wordGrams, MAX_QUERY_WORD, MAX_QUERY_WORDS, MIN_WORD_LENGTH } from './fold'
export { editDistanceWithin } from './edit-distance'
export {
  FIELD_WEIGHTS,
  GRAMS_MARK,
  MATCH,
  MAX_FUZZY_TOKEN,
  MIN_PART_LENGTH,
  compareRanked,
  documentGrams,
  matchOf,
  matchToken,
  maxEdits,
  queryGrams,
  rankDocuments,
  scoreDocument,
  type Ranked,
  type SearchDocument,
} from './rank'
