/**
 * The knowledge bank's search table (docs/decisions/0085): demo-like articles and the Danish queries
 * people type, with the articles each must find (the first where the order matters) and those it
 * must not. One table, run three ways: against the server on SQLite and on PostgreSQL
 * (server/features/articles/search-table.test.ts, `npm run test:pg`) and by the device's offline
 * search (client/features/articles/offline-search.test.ts).
 */

/** Who owns an article: the reader's association, the platform (every signed-in user), or another association. */
export type Owner = 'main' | 'platform' | 'other'

export interface FixtureArticle {
  key: string
  owner: Owner
  language: 'da' | 'en'
  title: string
  tags: string[]
  /** Sanitized HTML, as the server stores it. */
  body: string
}

/** In the order they are written: each later one is newer (the tie-break among equal scores). */
export const searchArticles: FixtureArticle[] = [
  {
    key: 'laundry',
    owner: 'main',
    language: 'da',
    title: 'Vaskeriet',
    tags: ['vaskeri', 'husorden'],
    body: '<p>Vaskeriet ligger i kælderen under opgang 3 og er åbent hver dag kl. 7–21.</p><ul><li>Book en tid på tavlen ved døren.</li><li>Tøm filteret i tørretumbleren efter brug, og tør sæbeskuffen af.</li></ul><p>Er en maskine i stykker, så skriv til bestyrelsen — vi ringer til vores vvs’er.</p>',
  },
  {
    key: 'dryer',
    owner: 'main',
    language: 'da',
    title: 'Tørretumbler ude af drift',
    tags: ['vaskeri'],
    body: '<p>Tørretumbleren i vaskeriet er gået i stykker. En reparatør kommer torsdag; brug tørrerummet imens.</p>',
  },
  {
    key: 'waste',
    owner: 'main',
    language: 'da',
    title: 'Affaldssortering',
    tags: ['affald', 'genbrug'],
    body: '<p>Sorter dit affald i madaffald, papir, pap, glas, metal og plast. Containerne står i gården ved port 2.</p>',
  },
  {
    key: 'yard',
    owner: 'main',
    language: 'da',
    title: 'Regler for gården',
    tags: ['husorden'],
    body: '<p>Gården er fælles. Grill er tilladt på grillpladsen. Cykler parkeres i cykelkælderen, ikke i gården. Der skal være ro efter kl. 22.</p>',
  },
  {
    key: 'bikes',
    owner: 'main',
    language: 'da',
    title: 'Cykelkælderen',
    tags: ['cykler'],
    body: '<p>Cykelkælderen ligger under opgang 5. Efterladte cykler fjernes hvert forår efter varsel. Ladcykler holder i gården.</p>',
  },
  {
    key: 'hall',
    owner: 'main',
    language: 'da',
    title: 'Leje af fælleshuset',
    tags: ['fælleshus', 'udlejning'],
    body: '<p>Fælleshuset kan lejes af beboerne til fester og møder. Prisen er 500 kr. pr. døgn med rengøring. Book i kalenderen.</p>',
  },
  {
    key: 'heating',
    owner: 'main',
    language: 'da',
    title: 'Varmeregnskab og aconto',
    tags: ['varme', 'regnskab'],
    body: '<p>Varmeregnskabet gøres op én gang om året. Fordelingsmålerne på radiatorerne aflæses i juni.</p>',
  },
  {
    key: 'water',
    owner: 'main',
    language: 'da',
    title: 'Vandregnskabet',
    tags: ['vand', 'regnskab'],
    body: '<p>Vandforbruget måles med fjernaflæste målere. Regnskabet kommer i september sammen med varmeregnskabet.</p>',
  },
  {
    key: 'rules',
    owner: 'main',
    language: 'da',
    title: 'Husorden',
    tags: ['husorden'],
    body: '<p>Husordenen gælder for alle beboere. Trappeopgangen holdes fri for barnevogne. Husdyr skal være i snor på fællesarealerne.</p>',
  },
  {
    key: 'keys',
    owner: 'main',
    language: 'da',
    title: 'Nøgler og brikker',
    tags: ['nøgle'],
    body: '<p>Mistet din nøgle eller nøglebrik? Kontakt administrationen; en ny brik koster 150 kr.</p>',
  },
  {
    key: 'windows',
    owner: 'main',
    language: 'da',
    title: 'Vinduespudsning',
    tags: ['vinduer'],
    body: '<p>Vinduerne pudses udvendigt to gange om året, i april og oktober.</p>',
  },
  {
    key: 'parking',
    owner: 'main',
    language: 'da',
    title: 'Parkering og gæstepladser',
    tags: [],
    body: '<p>Gæster parkerer på de afmærkede pladser ved indkørslen. Elbiler lader ved ladestanderne.</p>',
  },
  {
    key: 'bulky',
    owner: 'main',
    language: 'da',
    title: 'Storskrald',
    tags: ['affald'],
    body: '<p>Storskrald stilles ved containeren i gården aftenen før afhentning. Elektronik og farligt affald afleveres i miljøskabet.</p>',
  },
  {
    key: 'vippsEn',
    owner: 'platform',
    language: 'en',
    title: 'How Vipps MobilePay agreements work',
    tags: ['vipps', 'payments'],
    body: '<p>Each member accepts the agreement in the app; charges follow monthly.</p>',
  },
  {
    key: 'vippsDa',
    owner: 'platform',
    language: 'da',
    title: 'Sådan fungerer aftaler med Vipps MobilePay',
    tags: ['vipps', 'betaling'],
    body: '<p>Din forening opkræver boligafgift, aconto varme og vand gennem en aftale med Vipps MobilePay.</p>',
  },
  {
    key: 'harbour',
    owner: 'other',
    language: 'da',
    title: 'Havnehusets vaskeri og tørretumbler',
    tags: ['vaskeri'],
    body: '<p>Havnehusets vaskeri i gården; affaldssortering ved porten.</p>',
  },
]

export interface SearchCase {
  q: string
  /** Articles the query must find (with `exactly`, only these). */
  hits: string[]
  /** The first hit, where the order matters. */
  first?: string
  exactly?: boolean
  /** Articles the query must not find. */
  not?: string[]
  /** An article's language the search is narrowed to (`language=`). */
  language?: 'da' | 'en'
}

/** Read as the main association's resident: another association's articles are never found. */
export const searchCases: SearchCase[] = [
  // The whole word, in the title first.
  { q: 'vaskeri', first: 'laundry', hits: ['laundry', 'dryer'], not: ['harbour', 'parking'] },
  { q: 'vaskeriet', first: 'laundry', hits: ['laundry', 'dryer'], exactly: true },
  { q: 'Husorden', first: 'rules', hits: ['rules', 'laundry', 'yard'], exactly: true },
  { q: 'grill', hits: ['yard'], exactly: true },
  { q: 'agreement', hits: ['vippsEn'], exactly: true },
  { q: 'vipps', hits: ['vippsEn', 'vippsDa'], exactly: true },
  { q: 'vand', first: 'water', hits: ['water', 'vippsDa'], exactly: true, not: ['heating'] },
  // Typos: a letter left out, swapped, wrong (1 edit from 5 letters, 2 from 8).
  { q: 'vaskriet', first: 'laundry', hits: ['laundry', 'dryer'], exactly: true },
  { q: 'vaksreiet', first: 'laundry', hits: ['laundry', 'dryer'] },
  { q: 'tørretumblr', first: 'dryer', hits: ['dryer', 'laundry'], exactly: true },
  { q: 'felleshus', first: 'hall', hits: ['hall'], exactly: true },
  { q: 'storksrald', first: 'bulky', hits: ['bulky'] },
  { q: 'vinduespusning', first: 'windows', hits: ['windows'], exactly: true },
  // ASCII spellings of æ, ø and å, and their letters left out.
  { q: 'tørretumbler', first: 'dryer', hits: ['dryer', 'laundry'], exactly: true },
  { q: 'toerretumbler', first: 'dryer', hits: ['dryer', 'laundry'], exactly: true },
  { q: 'torretumbler', first: 'dryer', hits: ['dryer', 'laundry'], exactly: true },
  { q: 'TØRRETUMBLER', first: 'dryer', hits: ['dryer', 'laundry'], exactly: true },
  { q: 'gården', first: 'yard', hits: ['yard', 'waste', 'bikes', 'bulky'], exactly: true },
  { q: 'gaarden', first: 'yard', hits: ['yard', 'waste', 'bikes', 'bulky'], exactly: true },
  { q: 'garden', first: 'yard', hits: ['yard', 'waste', 'bikes', 'bulky'], exactly: true },
  { q: 'faelleshus', first: 'hall', hits: ['hall'], exactly: true },
  { q: 'cykelkaelder', first: 'bikes', hits: ['bikes', 'yard'], exactly: true },
  { q: 'noegle', first: 'keys', hits: ['keys'], exactly: true },
  { q: 'miljoeskabet', hits: ['bulky'], exactly: true },
  { q: 'reparator', hits: ['dryer'], exactly: true },
  // A word's start, and a word inside a compound.
  { q: 'cykelkælder', first: 'bikes', hits: ['bikes', 'yard'], exactly: true },
  { q: 'sortering', hits: ['waste'], exactly: true, not: ['harbour', 'laundry'] },
  { q: 'pudsning', hits: ['windows'], exactly: true },
  { q: 'kælder', first: 'bikes', hits: ['bikes', 'laundry', 'yard'], exactly: true },
  { q: 'regnskab', hits: ['heating', 'water'], exactly: true },
  { q: 'varmeregnskab', first: 'heating', hits: ['heating', 'water'], exactly: true },
  { q: 'vandregnskab', first: 'water', hits: ['water'], exactly: true, not: ['heating'] },
  { q: 'elbil', hits: ['parking'], exactly: true },
  { q: 'ladestander', hits: ['parking'], exactly: true },
  { q: 'affald', first: 'waste', hits: ['waste', 'bulky'], exactly: true },
  { q: 'fælles', first: 'hall', hits: ['hall', 'yard', 'rules'], exactly: true },
  // Every word must be found.
  { q: 'storskrald gården', hits: ['bulky'], exactly: true, not: ['yard', 'waste'] },
  { q: 'tørretumbler reparatør', hits: ['dryer'], exactly: true },
  { q: 'storskrald maj', hits: [], exactly: true },
  // Nothing like it, a language, a word beside punctuation, and another association's article.
  { q: 'xyzzy', hits: [], exactly: true },
  { q: 'havnehus', hits: [], exactly: true, not: ['harbour'] },
  { q: 'vaskeri', hits: [], exactly: true, language: 'en' },
  { q: 'vipps', hits: ['vippsDa'], exactly: true, language: 'da' },
  { q: 'vvs', hits: ['laundry'], exactly: true },
  { q: 'monthly', hits: ['vippsEn'], exactly: true },
]

/** What is wrong with `found` (the keys of the hits, in order) for the case: nothing when it holds. */
export function caseProblems(c: SearchCase, found: string[]): string[] {
  const problems: string[] = []
  for (const k of c.hits) if (!found.includes(k)) problems.push(`misses ${k}`)
  if (c.exactly) for (const k of found) if (!c.hits.includes(k)) problems.push(`finds ${k}`)
  for (const k of c.not ?? []) if (found.includes(k)) problems.push(`must not find ${k}`)
  if (c.first && found[0] !== c.first) problems.push(`first is ${found[0]}, not ${c.first}`)
  return problems.map((p) => `${JSON.stringify(c.q)}: ${p} (found ${found.join(', ') || 'nothing'})`)
}

/** The fixture's articles the main association's resident reads (and keeps offline), with each one's creation time. */
export const readerArticles = (start = Date.UTC(2026, 0, 1)) =>
  searchArticles.map((a, i) => ({ ...a, createdAt: new Date(start + i * 60_000).toISOString() })).filter((a) => a.owner !== 'other')
