import { describe, expect, it } from 'vitest'
import { columnOfHeader, danishDate, danishDecimal, readHouseholdSheet, splitAddress, templateRows } from './household-import'
import { DANISH } from './household-import.test-fixtures'

/** The sample sheet's Danish header row. */
const DA = DANISH[0]!

describe('household import: reading a sheet (docs/decisions/0092)', () => {
  it('reads Danish and English headers, whatever their case and punctuation', () => {
    expect(columnOfHeader('Areal m²')).toBe('area')
    expect(columnOfHeader('AREA M2')).toBe('area')
    expect(columnOfHeader('Eksternt nr.')).toBe('externalId')
    expect(columnOfHeader('Postnr')).toBe('zip')
    expect(columnOfHeader('Zip')).toBe('zip')
    expect(columnOfHeader('Ejer/lejer')).toBe('kind')
    expect(columnOfHeader('Aconto vand')).toBe('water')
    expect(columnOfHeader('Noter')).toBeNull()
  })

  it('reads decimals as Danes and the English write them', () => {
    expect(danishDecimal('74,5', 2)).toBe(7450)
    expect(danishDecimal('1.234,50', 2)).toBe(123450)
    expect(danishDecimal('1,234.50', 2)).toBe(123450)
    expect(danishDecimal('74.5', 2)).toBe(7450)
    expect(danishDecimal('1.234.567', 2)).toBe(123456700)
    expect(danishDecimal('4.250,00 kr.', 2)).toBe(425000)
    expect(danishDecimal('1,2345', 3)).toBeNull()
    expect(danishDecimal('-5', 2)).toBeNull()
    expect(danishDecimal('abc', 2)).toBeNull()
  })

  it('reads Danish and ISO dates, and refuses dates that do not exist', () => {
    expect(danishDate('01-02-2024')).toBe('2024-02-01')
    expect(danishDate('1.2.2024')).toBe('2024-02-01')
    expect(danishDate('2024-02-01')).toBe('2024-02-01')
    expect(danishDate('31-02-2024')).toBeNull()
    expect(danishDate('02/30/2024')).toBeNull()
  })

  it('splits an address written in one cell', () => {
    expect(splitAddress('Vestergade 12A, 2. tv')).toEqual({ street: 'Vestergade', number: '12A', floor: '2', side: 'tv' })
    expect(splitAddress('Store Kongensgade 5')).toEqual({ street: 'Store Kongensgade', number: '5', floor: null, side: null })
    expect(splitAddress('Vestergade')).toBeNull()
  })

  it('reads a household of two residents from two rows, with Danish decimals and dates', () => {
    const read = readHouseholdSheet([
      DA,
      [
        '1001',
        'Vestergade',
        '12',
        '2',
        'tv',
        '8000',
        'Aarhus C',
        'Lejlighed',
        '74,5',
        '1,25',
        'Sofie Jensen',
        'Sofie@Example.dk',
        '01-02-2024',
        'Ejer',
        'Ja',
        '4.250,00',
        '600',
      ],
      ['1001', 'Vestergade', '12', '2', 'tv', '8000', 'Aarhus C', '', '', '', 'Bo Jensen', 'bo@example.dk', '01.02.2024', 'Ejer', 'Nej', '', ''],
    ])
    expect(read.problems).toEqual([])
    expect(read.rows).toHaveLength(2)
    expect(read.rows[0]!.household).toMatchObject({ externalId: '1001', type: 'APARTMENT', areaCentiM2: 7450, allocationMilli: 1250, zip: '8000' })
    expect(read.rows[0]!.resident).toEqual({
      fullName: 'Sofie Jensen',
      emailAddress: 'sofie@example.dk',
      phone: null,
      moveInDate: '2024-02-01',
      kind: 'OWNER',
      isPayer: true,
    })
    expect(read.rows[0]!.parts).toEqual([
      { type: 'FEE', price: 425000 },
      { type: 'HEAT', price: 60000 },
    ])
    expect(read.rows[1]!.key).toBe(read.rows[0]!.key)
    expect(read.rows[1]!.resident!.isPayer).toBe(false)
  })

  it('reports every problem by row number (the header is row 1) and column', () => {
    const read = readHouseholdSheet([
      DA,
      ['', 'Vestergade', '12', '', '', '800', 'Aarhus C', 'Slot', '74,555', '', 'Sofie', 'ikke-en-mail', '31-02-2024', 'Gæst', 'Måske', 'mange', ''],
      ['', 'Vestergade', '14', '', '', '8000', '', '', '', '', '', '', '', '', '', '', ''],
      ['', '', '', '', '', '', '', '', '', '', '', '', '', '', '', '', ''],
      ['', 'Vestergade', '16', '', '', '8000', 'Aarhus C', '', '', '', 'Bo', '', '2024-01-01', '', '', '', ''],
    ])
    expect(read.rows).toEqual([])
    expect(read.rowNumbers).toEqual([2, 3, 5])
    expect(read.problems.map((p) => `${p.row} ${p.column} ${p.message.id}`)).toEqual([
      '2 zip A postcode is 4 digits.',
      '2 type “{value}” is not a type: write apartment, house, commercial or other.',
      '2 area “{value}” is not an area in m² with at most 2 decimals.',
      '2 emailAddress “{value}” is not an e-mail address.',
      '2 moveInDate “{value}” is not a date: write dd-mm-yyyy.',
      '2 kind “{value}” is neither owner nor tenant.',
      '2 isPayer “{value}” is neither yes nor no.',
      '2 rent “{value}” is not an amount in kroner with at most 2 decimals.',
      '3 city This field is required',
      '5 emailAddress A resident needs an e-mail address.',
    ])
    expect(read.problems[1]!.message.values).toEqual({ value: 'Slot' })
  })

  it('reports rows of one household that disagree, two payers, a resident twice and an external number on two addresses', () => {
    const read = readHouseholdSheet([
      DA,
      ['1', 'Vestergade', '12', '', '', '8000', 'Aarhus C', '', '74,5', '', 'Sofie', 'sofie@example.dk', '2024-01-01', '', 'ja', '', ''],
      ['1', 'Vestergade', '12', '', '', '8000', 'Aarhus C', '', '80', '', 'Bo', 'bo@example.dk', '2024-01-01', '', '', '', ''],
      ['', 'Vestergade', '12', '', '', '8000', 'Aarhus C', '', '', '', 'Sofie', 'sofie@example.dk', '2024-01-01', '', '', '', ''],
      ['', 'Vestergade', '12', '', '', '8000', 'Aarhus C', '', '', '', 'Ida', 'ida@example.dk', '2024-01-01', '', 'x', '', ''],
      ['1', 'Vestergade', '14', '', '', '8000', 'Aarhus C', '', '', '', '', '', '', '', '', '', ''],
    ])
    expect(read.problems.map((p) => `${p.row} ${p.column} ${p.message.id} ${JSON.stringify(p.message.values)}`)).toEqual([
      '3 area Differs from row {row} of the same household. {"row":2}',
      '4 emailAddress The same resident is in row {row} too. {"row":2}',
      '5 isPayer Row {row} names another payer of the same household. {"row":2}',
      '6 externalId Row {row} gives this external number to another address. {"row":2}',
    ])
  })

  it('names a missing column and a sheet without rows', () => {
    expect(readHouseholdSheet([['Adresse', 'By']]).problems).toEqual([{ row: 1, column: 'zip', message: { id: 'The column is missing.' } }])
    expect(readHouseholdSheet([['Adresse', 'Postnr', 'By']]).problems).toEqual([
      { row: 1, column: null, message: { id: 'The file has no rows below its header.' } },
    ])
  })

  it('reads its own template in both languages', () => {
    for (const locale of ['en', 'da'] as const) {
      const read = readHouseholdSheet(templateRows(locale))
      expect(read.problems).toEqual([])
      expect(read.rows[0]!.household).toMatchObject({ areaCentiM2: 7450, allocationMilli: 1250, shareOre: 15000000 })
      expect(read.rows[0]!.parts.map((p) => p.price)).toEqual([425000, 60000, 25000])
    }
  })
})
