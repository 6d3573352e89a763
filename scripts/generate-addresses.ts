/**
 * Generates server/integrations/addresses/builtin-addresses.json: the sample of Danish addresses
 * behind ADDRESS_PROVIDER=builtin (the default, which works offline and in tests).
 *
 * Real postcodes with their real post town names, and street names that are common all over
 * Denmark; each address combines them with house numbers, floors and sides as Danish addresses
 * are written ("Vestergade 12, 2. tv, 8000 Aarhus C"). They are realistic, not a register extract:
 * a real lookup needs ADDRESS_PROVIDER=dataforsyningen. Deterministic (a seeded generator), so
 * running it again gives the same file.
 *
 *   node --import tsx scripts/generate-addresses.ts
 */
import { createHash } from 'node:crypto'
import { writeFileSync } from 'node:fs'

const postcodes: Array<[string, string]> = [
  ['1050', 'København K'],
  ['1360', 'København K'],
  ['1620', 'København V'],
  ['1800', 'Frederiksberg C'],
  ['2000', 'Frederiksberg'],
  ['2100', 'København Ø'],
  ['2200', 'København N'],
  ['2300', 'København S'],
  ['2400', 'København NV'],
  ['2450', 'København SV'],
  ['2500', 'Valby'],
  ['2600', 'Glostrup'],
  ['2605', 'Brøndby'],
  ['2610', 'Rødovre'],
  ['2620', 'Albertslund'],
  ['2630', 'Taastrup'],
  ['2650', 'Hvidovre'],
  ['2700', 'Brønshøj'],
  ['2720', 'Vanløse'],
  ['2730', 'Herlev'],
  ['2750', 'Ballerup'],
  ['2770', 'Kastrup'],
  ['2800', 'Kongens Lyngby'],
  ['2820', 'Gentofte'],
  ['2860', 'Søborg'],
  ['2900', 'Hellerup'],
  ['2920', 'Charlottenlund'],
  ['2970', 'Hørsholm'],
  ['3000', 'Helsingør'],
  ['3400', 'Hillerød'],
  ['3460', 'Birkerød'],
  ['4000', 'Roskilde'],
  ['4200', 'Slagelse'],
  ['4600', 'Køge'],
  ['4700', 'Næstved'],
  ['4800', 'Nykøbing F'],
  ['5000', 'Odense C'],
  ['5200', 'Odense V'],
  ['5700', 'Svendborg'],
  ['6000', 'Kolding'],
  ['6100', 'Haderslev'],
  ['6400', 'Sønderborg'],
  ['6700', 'Esbjerg'],
  ['7100', 'Vejle'],
  ['7400', 'Herning'],
  ['7500', 'Holstebro'],
  ['8000', 'Aarhus C'],
  ['8200', 'Aarhus N'],
  ['8210', 'Aarhus V'],
  ['8600', 'Silkeborg'],
  ['8700', 'Horsens'],
  ['8800', 'Viborg'],
  ['8900', 'Randers C'],
  ['9000', 'Aalborg'],
  ['9200', 'Aalborg SV'],
  ['9700', 'Brønderslev'],
  ['9800', 'Hjørring'],
]

const streets = [
  'Vestergade',
  'Østergade',
  'Nørregade',
  'Søndergade',
  'Algade',
  'Adelgade',
  'Storegade',
  'Kirkevej',
  'Skolevej',
  'Stationsvej',
  'Møllevej',
  'Bakkevej',
  'Engvej',
  'Birkevej',
  'Egevej',
  'Lindevej',
  'Bøgevej',
  'Ahornvej',
  'Kastanievej',
  'Skovvej',
  'Strandvejen',
  'Havnegade',
  'Jernbanegade',
  'Torvegade',
  'Parkvej',
  'Rosenvænget',
  'Solvænget',
  'Fasanvej',
  'Vibevej',
  'Lærkevej',
  'Granvej',
  'Poppelvej',
  'Kløvervej',
  'Tulipanvej',
  'Vinkelvej',
  'Tværvej',
  'Industrivej',
  'Nyvej',
  'Grønnegade',
  'Slotsgade',
  'Frederiksgade',
  'Christiansgade',
  'Dronningensgade',
  'Kongevejen',
  'H.C. Andersens Vej',
  'Niels Bohrs Vej',
  'Ørstedsvej',
  'Grundtvigsvej',
  'Blegdamsvej',
  'Åboulevarden',
]

const floors = [null, 'st', '1', '2', '3', '4', '5']
const sides = ['tv', 'th', 'mf']

/** mulberry32: a tiny seeded generator, so the file is the same every run. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** A stable UUID-shaped id from the address text (so a reference survives regenerating). */
function uuidOf(text: string): string {
  const h = createHash('sha1').update(`boligkasse-builtin:${text}`).digest('hex')
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16]!, 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`
}

const next = random(2025)
const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!
const seen = new Set<string>()
const rows: Array<{ referenceId: string; street: string; number: string; floor: string | null; side: string | null; zip: string; city: string }> = []

while (rows.length < 420) {
  const [zip, city] = pick(postcodes)
  const street = pick(streets)
  const number = String(1 + Math.floor(next() * 120)) + (next() < 0.08 ? pick(['A', 'B', 'C']) : '')
  const floor = pick(floors)
  const side = floor === null ? null : pick(sides)
  const text = `${street} ${number}${floor ? `, ${floor}. ${side}` : ''}, ${zip} ${city}`
  if (seen.has(text)) continue
  seen.add(text)
  rows.push({ referenceId: uuidOf(text), street, number, floor, side, zip, city })
}

rows.sort((a, b) => a.zip.localeCompare(b.zip) || a.street.localeCompare(b.street, 'da') || a.number.localeCompare(b.number, 'da', { numeric: true }))
writeFileSync(
  new URL('../server/integrations/addresses/builtin-addresses.json', import.meta.url),
  JSON.stringify(rows, null, 0).replace(/\},\{/g, '},\n{') + '\n',
)
console.log(`Wrote ${rows.length} addresses.`)
