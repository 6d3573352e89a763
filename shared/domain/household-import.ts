/**
 * The household spreadsheet import (docs/PRODUCT.md "Importing households", docs/decisions/0092):
 * the cells of a sheet — already text, one array per row, the header row first — read into
 * households and their residents, with every problem named by its row number (as the spreadsheet
 * numbers it: the header is row 1) and its column. Pure: no database, no file format; the server
 * reads xlsx/CSV into cells (server/features/households/import-sheet.ts) and matches the rows.
 *
 * One row is one resident of one household: a household with two residents is two rows with the
 * same external number or address. Numbers are read as Danes and the English write them ("74,5",
 * "1.234,50", "74.5"), dates as dd-mm-yyyy, dd.mm.yyyy, dd/mm/yyyy or ISO yyyy-mm-dd.
 */
import { addressKey } from './address'
import { ALLOCATION_PLACES, AREA_PLACES, decimalToScaled, type HouseholdType, type ResidentKind } from './household'
import { MAX_PART_PRICE_ORE, type PartType } from './agreement-parts'
import { messages } from '../i18n-messages'

/** The columns the import knows, in the template's order. */
export const importColumns = [
  'externalId',
  'street',
  'number',
  'floor',
  'side',
  'zip',
  'city',
  'type',
  'area',
  'allocation',
  'share',
  'fullName',
  'emailAddress',
  'phone',
  'moveInDate',
  'kind',
  'isPayer',
  'rent',
  'heat',
  'water',
] as const
export type ImportColumn = (typeof importColumns)[number]

/** Each column's header in English and Danish (the template's and the problems' column names). */
export const columnLabels: Record<ImportColumn, { en: string; da: string }> = {
  externalId: { en: 'External id', da: 'Eksternt nr.' },
  street: { en: 'Address', da: 'Adresse' },
  number: { en: 'Number', da: 'Nummer' },
  floor: { en: 'Floor', da: 'Etage' },
  side: { en: 'Side', da: 'Side' },
  zip: { en: 'Zip', da: 'Postnr' },
  city: { en: 'City', da: 'By' },
  type: { en: 'Type', da: 'Type' },
  area: { en: 'Area m2', da: 'Areal m²' },
  allocation: { en: 'Allocation figure', da: 'Fordelingstal' },
  share: { en: 'Share', da: 'Andel' },
  fullName: { en: 'Resident', da: 'Beboer' },
  emailAddress: { en: 'E-mail', da: 'E-mail' },
  phone: { en: 'Phone', da: 'Telefon' },
  moveInDate: { en: 'Move-in date', da: 'Indflytning' },
  kind: { en: 'Owner/tenant', da: 'Ejer/lejer' },
  isPayer: { en: 'Payer', da: 'Betaler' },
  rent: { en: 'Rent', da: 'Boligafgift' },
  heat: { en: 'Heating on account', da: 'Aconto varme' },
  water: { en: 'Water on account', da: 'Aconto vand' },
}

/** Other headers people write for the same column (compared folded: lower case, letters and digits only). */
const aliases: Record<ImportColumn, string[]> = {
  externalId: ['eksterntnr', 'eksterntnummer', 'externalid', 'externalnumber', 'lejemaalsnr', 'lejemålsnr', 'boligid', 'nr'],
  street: ['adresse', 'address', 'vej', 'vejnavn', 'street'],
  number: ['nummer', 'number', 'husnr', 'husnummer', 'housenumber'],
  floor: ['etage', 'floor'],
  side: ['side', 'dør', 'door'],
  zip: ['postnr', 'postnummer', 'zip', 'zipcode', 'postcode', 'postalcode'],
  city: ['by', 'city', 'town', 'postdistrikt'],
  type: ['type', 'boligtype', 'householdtype'],
  area: ['arealm2', 'areal', 'aream2', 'area', 'boligareal'],
  allocation: ['fordelingstal', 'allocationfigure', 'allocation'],
  share: ['andel', 'andelsværdi', 'share', 'sharevalue'],
  fullName: ['beboer', 'navn', 'resident', 'name', 'fullname'],
  emailAddress: ['email', 'emailadresse', 'emailaddress', 'mail'],
  phone: ['telefon', 'telefonnr', 'mobil', 'phone', 'mobile'],
  moveInDate: ['indflytning', 'indflytningsdato', 'moveindate', 'movein'],
  kind: ['ejerlejer', 'ownertenant', 'kind'],
  isPayer: ['betaler', 'payer'],
  rent: ['boligafgift', 'husleje', 'rent', 'fee'],
  heat: ['acontovarme', 'varme', 'heatingonaccount', 'heating', 'heat'],
  water: ['acontovand', 'vand', 'wateronaccount', 'water'],
}

/** The agreement part a money column becomes (docs/PRODUCT.md §3). */
export const partOfColumn: Record<'rent' | 'heat' | 'water', PartType> = { rent: 'FEE', heat: 'HEAT', water: 'HOT_AND_COLD_WATER' }

const fold = (s: string) =>
  s
    .normalize('NFC')
    .toLowerCase()
    .replace(/²/g, '2')
    .replace(/[^a-z0-9æøå]/g, '')

const byFolded = new Map<string, ImportColumn>()
for (const c of importColumns)
  for (const name of [columnLabels[c].en, columnLabels[c].da, ...aliases[c]]) if (!byFolded.has(fold(name))) byFolded.set(fold(name), c)

/** The column a header names, or null for one the import does not know (it is left out). */
export const columnOfHeader = (header: string): ImportColumn | null => byFolded.get(fold(header)) ?? null

/** A message of the import, by its catalog id (English), with its values. */
export interface ImportMessage {
  id: string
  values?: Record<string, string | number>
}

/** A problem of a row (row 1 is the header) in a column (null: the row as a whole). */
export interface ImportProblem {
  row: number
  column: ImportColumn | null
  message: ImportMessage
}

export const importMessages = {
  noRows: /*i18n*/ { id: 'The file has no rows below its header.' },
  missingColumn: /*i18n*/ { id: 'The column is missing.' },
  duplicateColumn: /*i18n*/ { id: 'The column appears twice.' },
  required: /*i18n*/ { id: 'This field is required' },
  zipInvalid: /*i18n*/ { id: 'A postcode is 4 digits.' },
  typeInvalid: /*i18n*/ { id: '“{value}” is not a type: write apartment, house, commercial or other.' },
  areaInvalid: /*i18n*/ { id: '“{value}” is not an area in m² with at most 2 decimals.' },
  allocationInvalid: /*i18n*/ { id: '“{value}” is not an allocation figure with at most 3 decimals.' },
  amountInvalid: /*i18n*/ { id: '“{value}” is not an amount in kroner with at most 2 decimals.' },
  dateInvalid: /*i18n*/ { id: '“{value}” is not a date: write dd-mm-yyyy.' },
  emailInvalid: /*i18n*/ { id: '“{value}” is not an e-mail address.' },
  kindInvalid: /*i18n*/ { id: '“{value}” is neither owner nor tenant.' },
  payerInvalid: /*i18n*/ { id: '“{value}” is neither yes nor no.' },
  residentWithoutEmail: /*i18n*/ { id: 'A resident needs an e-mail address.' },
  residentWithoutName: /*i18n*/ { id: 'A resident needs a name.' },
  tooLong: /*i18n*/ { id: 'At most {max} characters.' },
  householdDiffers: /*i18n*/ { id: 'Differs from row {row} of the same household.' },
  externalIdOtherAddress: /*i18n*/ { id: 'Row {row} gives this external number to another address.' },
  residentTwice: /*i18n*/ { id: 'The same resident is in row {row} too.' },
  twoPayers: /*i18n*/ { id: 'Row {row} names another payer of the same household.' },
  addressNotFound: /*i18n*/ { id: 'The address was not found in the address register.' },
  shareOnlyCoop: /*i18n*/ { id: 'Only a co-op (andelsboligforening) keeps share values.' },
  externalIdTaken: /*i18n*/ { id: 'Another household of the association has this external number.' },
  notImported: /*i18n*/ { id: 'Nothing was imported: correct the rows named, or import only the valid rows.' },
  noProvider: /*i18n*/ {
    id: 'The association has no active payment provider, so the agreements for the amounts in the file cannot be created. Set up Vipps MobilePay first, or leave the amount columns out.',
  },
} as const

/** What a row says about its household. */
export interface ImportHousehold {
  street: string
  number: string
  floor: string | null
  side: string | null
  zip: string
  city: string
  type: HouseholdType | null
  areaCentiM2: number | null
  allocationMilli: number | null
  shareOre: number | null
  externalId: string | null
}

/** The resident of a row. */
export interface ImportResident {
  fullName: string
  emailAddress: string
  phone: string | null
  moveInDate: string
  kind: ResidentKind
  isPayer: boolean
}

/** A row read: its household (matched by `key`), its resident if any, and the agreement parts (øre). */
export interface ImportRow {
  row: number
  /** The household within the file: its address key (rows of one address are one household). */
  key: string
  addressKey: string
  household: ImportHousehold
  resident: ImportResident | null
  parts: { type: PartType; price: number }[]
}

export interface ReadSheet {
  /** The rows that are well-formed (a row with a problem is left out). */
  rows: ImportRow[]
  /** Every problem, by row and column. */
  problems: ImportProblem[]
  /** Row numbers of every non-empty data row. */
  rowNumbers: number[]
  /** Every non-empty data row's address and resident as written (for a report that names rows with problems too). */
  written: Map<number, { address: string; residentName: string | null }>
}

/**
 * A decimal as Danes or the English write it, scaled to `places` decimals: "74,5", "1.234,50",
 * "74.5", "1,234.50". With both separators the last one is the decimal sign; a lone comma is the
 * decimal sign; a lone dot is the decimal sign unless there are several ("1.234.567"). Null when it
 * is no such number (negative, too many decimals).
 */
export function danishDecimal(text: string, places: number): number | null {
  let t = text
    .replace(/\s|\u00a0/g, '')
    .replace(/^(kr\.?|dkk)/i, '')
    .replace(/(kr\.?|dkk|m2|m²)$/i, '')
  const lastDot = t.lastIndexOf('.')
  const lastComma = t.lastIndexOf(',')
  if (lastDot >= 0 && lastComma >= 0) {
    const decimal = lastDot > lastComma ? '.' : ','
    const thousands = decimal === '.' ? ',' : '.'
    t = t.split(thousands).join('').replace(decimal, '.')
  } else if (lastComma >= 0) {
    if (t.indexOf(',') !== lastComma) t = t.split(',').join('')
    else t = t.replace(',', '.')
  } else if (lastDot >= 0 && t.indexOf('.') !== lastDot) t = t.split('.').join('')
  if (!/^\d+(\.\d+)?$/.test(t)) return null
  return decimalToScaled(t, places)
}

const isRealDate = (y: number, m: number, d: number) => {
  const date = new Date(Date.UTC(y, m - 1, d))
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d
}

/** A date written dd-mm-yyyy, dd.mm.yyyy, dd/mm/yyyy or yyyy-mm-dd as `YYYY-MM-DD`; null when it is none. */
export function danishDate(text: string): string | null {
  const t = text.trim()
  let y: number, m: number, d: number
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(t)
  const dk = /^(\d{1,2})[-./](\d{1,2})[-./](\d{4})$/.exec(t)
  if (iso) [y, m, d] = [Number(iso[1]), Number(iso[2]), Number(iso[3])]
  else if (dk) [d, m, y] = [Number(dk[1]), Number(dk[2]), Number(dk[3])]
  else return null
  if (y < 1900 || y > 2100 || !isRealDate(y, m, d)) return null
  return `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`
}

const typeWords: Record<string, HouseholdType> = {
  lejlighed: 'APARTMENT',
  apartment: 'APARTMENT',
  flat: 'APARTMENT',
  hus: 'HOUSE',
  house: 'HOUSE',
  rækkehus: 'HOUSE',
  parcelhus: 'HOUSE',
  erhverv: 'COMMERCIAL',
  commercial: 'COMMERCIAL',
  andet: 'OTHER',
  other: 'OTHER',
}
const kindWords: Record<string, ResidentKind> = {
  ejer: 'OWNER',
  owner: 'OWNER',
  andelshaver: 'OWNER',
  lejer: 'TENANT',
  tenant: 'TENANT',
}
const yes = new Set(['ja', 'yes', 'x', '1', 'true', 'j', 'y'])
const no = new Set(['nej', 'no', '0', 'false', 'n', ''])
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
const MAX_TEXT = 200

/** "Vestergade 12A, 2. tv" in one cell: street, number, floor and side (null when it has no number). */
export function splitAddress(text: string): { street: string; number: string; floor: string | null; side: string | null } | null {
  const m = /^(.*?[^\d\s,])\s+(\d+\s?[A-Za-z]?)\s*(?:,\s*(?:(st|kl|\d{1,2})\.?)?\s*(\S+)?)?$/.exec(text.trim())
  if (!m) return null
  return { street: m[1]!.trim(), number: m[2]!.replace(/\s/g, ''), floor: m[3] ?? null, side: m[4] ?? null }
}

/** The column a household field is read from. */
const columnOfField: Partial<Record<keyof ImportHousehold, ImportColumn>> = {
  zip: 'zip',
  type: 'type',
  areaCentiM2: 'area',
  allocationMilli: 'allocation',
  shareOre: 'share',
  externalId: 'externalId',
}

/** Reads the sheet's cells (header row first) into rows and problems (docs/decisions/0092). */
export function readHouseholdSheet(cells: readonly (readonly string[])[]): ReadSheet {
  const problems: ImportProblem[] = []
  const header = cells[0] ?? []
  const at = new Map<ImportColumn, number>()
  header.forEach((h, i) => {
    const c = columnOfHeader(String(h))
    if (!c) return
    if (at.has(c)) problems.push({ row: 1, column: c, message: importMessages.duplicateColumn })
    else at.set(c, i)
  })
  for (const c of ['street', 'zip', 'city'] as const) if (!at.has(c)) problems.push({ row: 1, column: c, message: importMessages.missingColumn })
  if (problems.length) return { rows: [], problems, rowNumbers: [], written: new Map() }

  const rows: ImportRow[] = []
  const rowNumbers: number[] = []
  const written = new Map<number, { address: string; residentName: string | null }>()
  const firstOf = new Map<string, ImportRow>()
  const externalAddress = new Map<string, ImportRow>()
  const residentsOf = new Map<string, ImportRow[]>()

  for (let i = 1; i < cells.length; i++) {
    const line = cells[i]!
    const rowNo = i + 1
    const get = (c: ImportColumn) => {
      const idx = at.get(c)
      return idx === undefined ? '' : String(line[idx] ?? '').trim()
    }
    if (importColumns.every((c) => get(c) === '')) continue
    rowNumbers.push(rowNo)
    written.set(rowNo, {
      address: [
        [get('street'), get('number')].filter(Boolean).join(' '),
        [get('floor'), get('side')].filter(Boolean).join(' '),
        [get('zip'), get('city')].filter(Boolean).join(' '),
      ]
        .filter(Boolean)
        .join(', '),
      residentName: get('fullName') || null,
    })
    const own: ImportProblem[] = []
    const problem = (column: ImportColumn | null, message: ImportMessage, values?: Record<string, string | number>) =>
      own.push({ row: rowNo, column, message: values ? { id: message.id, values } : { id: message.id } })
    const text = (c: ImportColumn, required = false): string | null => {
      const v = get(c)
      if (!v) {
        if (required) problem(c, importMessages.required)
        return null
      }
      if (v.length > MAX_TEXT) problem(c, importMessages.tooLong, { max: MAX_TEXT })
      return v
    }

    // Address: a number column, or the number written in the address cell.
    let street = text('street', true) ?? ''
    let number = text('number') ?? ''
    let floor = text('floor')
    let side = text('side')
    if (street && !number) {
      const split = splitAddress(street)
      if (split) {
        ;({ street, number } = split)
        floor = floor ?? split.floor
        side = side ?? split.side
      } else problem(at.has('number') ? 'number' : 'street', importMessages.required)
    }
    const zip = text('zip', true) ?? ''
    if (zip && !/^\d{4}$/.test(zip)) problem('zip', importMessages.zipInvalid)
    const city = text('city', true) ?? ''
    floor = floor ? floor.replace(/\.$/, '') : null
    side = side ? side.replace(/\.$/, '') : null

    const typeText = get('type')
    const type = typeText ? (typeWords[typeText.toLowerCase()] ?? null) : null
    if (typeText && !type) problem('type', importMessages.typeInvalid, { value: typeText })
    const scaled = (c: ImportColumn, places: number, message: ImportMessage) => {
      const v = get(c)
      if (!v) return null
      const n = danishDecimal(v, places)
      if (n === null) problem(c, message, { value: v })
      return n
    }
    const areaCentiM2 = scaled('area', AREA_PLACES, importMessages.areaInvalid)
    const allocationMilli = scaled('allocation', ALLOCATION_PLACES, importMessages.allocationInvalid)
    const shareOre = scaled('share', 2, importMessages.amountInvalid)
    const externalId = text('externalId')
    if (externalId && externalId.length > 40) problem('externalId', importMessages.tooLong, { max: 40 })

    // The resident, when the row names one.
    let resident: ImportResident | null = null
    const fullName = get('fullName')
    const email = get('emailAddress').toLowerCase()
    const moveIn = get('moveInDate')
    const kindText = get('kind')
    const payerText = get('isPayer').toLowerCase()
    if (fullName || email || moveIn || kindText) {
      if (!fullName) problem('fullName', importMessages.residentWithoutName)
      else if (fullName.length > MAX_TEXT) problem('fullName', importMessages.tooLong, { max: MAX_TEXT })
      if (!email) problem('emailAddress', importMessages.residentWithoutEmail)
      else if (!EMAIL.test(email) || email.length > 254) problem('emailAddress', importMessages.emailInvalid, { value: email })
      const moveInDate = moveIn ? danishDate(moveIn) : null
      if (!moveIn) problem('moveInDate', importMessages.required)
      else if (!moveInDate) problem('moveInDate', importMessages.dateInvalid, { value: moveIn })
      const kind = kindText ? kindWords[kindText.toLowerCase()] : 'OWNER'
      if (!kind) problem('kind', importMessages.kindInvalid, { value: kindText })
      if (!yes.has(payerText) && !no.has(payerText)) problem('isPayer', importMessages.payerInvalid, { value: get('isPayer') })
      resident = {
        fullName,
        emailAddress: email,
        phone: get('phone') || null,
        moveInDate: moveInDate ?? '',
        kind: kind ?? 'OWNER',
        isPayer: yes.has(payerText),
      }
    }

    const parts: ImportRow['parts'] = []
    for (const c of ['rent', 'heat', 'water'] as const) {
      const v = scaled(c, 2, importMessages.amountInvalid)
      // An agreement part's price is at most DKK 1,000,000, as in the agreement form (shared/contract/agreements.ts).
      if (v !== null && v > MAX_PART_PRICE_ORE) problem(c, messages.amountTooHigh)
      else if (v !== null && v > 0) parts.push({ type: partOfColumn[c], price: v })
    }

    const household: ImportHousehold = { street, number, floor, side, zip, city, type, areaCentiM2, allocationMilli, shareOre, externalId }
    const aKey = addressKey(household)
    const row: ImportRow = { row: rowNo, key: aKey, addressKey: aKey, household, resident, parts }

    // The rows of one household (one address) agree on it; an external number names one address; a resident is named once.
    if (!own.length) {
      const first = firstOf.get(row.key)
      const differs =
        first &&
        (Object.keys(household) as (keyof ImportHousehold)[]).find(
          (k) =>
            !['street', 'number', 'floor', 'side', 'city'].includes(k) &&
            household[k] !== null &&
            first.household[k] !== null &&
            household[k] !== first.household[k],
        )
      const named = externalId ? externalAddress.get(externalId) : undefined
      if (differs) problem(columnOfField[differs] ?? 'street', importMessages.householdDiffers, { row: first.row })
      else if (named && named.addressKey !== aKey) problem('externalId', importMessages.externalIdOtherAddress, { row: named.row })
      const mates = residentsOf.get(row.key) ?? []
      if (resident) {
        const twice = mates.find((r) => r.resident!.emailAddress === resident.emailAddress)
        if (twice) problem('emailAddress', importMessages.residentTwice, { row: twice.row })
        const payer = resident.isPayer && mates.find((r) => r.resident!.isPayer)
        if (payer) problem('isPayer', importMessages.twoPayers, { row: payer.row })
      }
    }
    if (own.length) {
      problems.push(...own)
      continue
    }
    if (!firstOf.has(row.key)) firstOf.set(row.key, row)
    if (externalId && !externalAddress.has(externalId)) externalAddress.set(externalId, row)
    if (resident) residentsOf.set(row.key, [...(residentsOf.get(row.key) ?? []), row])
    rows.push(row)
  }
  if (!rowNumbers.length) problems.push({ row: 1, column: null, message: importMessages.noRows })
  return { rows, problems, rowNumbers, written }
}

/** The template's header row and example row in the locale's language. */
export function templateRows(locale: 'en' | 'da'): string[][] {
  const example: Record<ImportColumn, string> =
    locale === 'da' ?
      {
        externalId: '1001',
        street: 'Vestergade',
        number: '12',
        floor: '2',
        side: 'tv',
        zip: '8000',
        city: 'Aarhus C',
        type: 'Lejlighed',
        area: '74,5',
        allocation: '1,25',
        share: '150.000,00',
        fullName: 'Sofie Jensen',
        emailAddress: 'sofie@example.dk',
        phone: '+45 12 34 56 78',
        moveInDate: '01-02-2024',
        kind: 'Ejer',
        isPayer: 'Ja',
        rent: '4.250,00',
        heat: '600,00',
        water: '250,00',
      }
    : {
        externalId: '1001',
        street: 'Vestergade',
        number: '12',
        floor: '2',
        side: 'tv',
        zip: '8000',
        city: 'Aarhus C',
        type: 'Apartment',
        area: '74.5',
        allocation: '1.25',
        share: '150000.00',
        fullName: 'Sofie Jensen',
        emailAddress: 'sofie@example.dk',
        phone: '+45 12 34 56 78',
        moveInDate: '2024-02-01',
        kind: 'Owner',
        isPayer: 'Yes',
        rent: '4250.00',
        heat: '600.00',
        water: '250.00',
      }
  return [importColumns.map((c) => columnLabels[c][locale]), importColumns.map((c) => example[c])]
}
