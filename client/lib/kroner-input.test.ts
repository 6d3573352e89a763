import { describe, expect, it } from 'vitest'
import { oreToKronerInput, parseKroner } from './kroner-input'

describe('parseKroner', () => {
  it.each([
    ['1234,56', 123456],
    ['1234.56', 123456],
    ['12,5', 1250],
    ['12.50', 1250],
    ['12', 1200],
    ['0,01', 1],
    ['0.1', 10],
    ['1.234,56', 123456],
    ['1,234.56', 123456],
    ['1.234.567', 123456700],
    [' 99,95 kr.', 9995],
    ['1 234,50', 123450],
    ['4.35', 435],
    ['12,', 1200],
  ])('reads %j as %j øre', (text, ore) => {
    expect(parseKroner(text)).toBe(ore)
  })

  it.each(['', '  ', 'abc', '-5', '1,234,5', '12,345', '1.2.3', '1,2.3,4', '1.005', ',5', '1.23456'])('refuses %j', (text) => {
    expect(parseKroner(text)).toBeNull()
  })

  it('adds up exactly: 0.1 + 0.2 is 30 øre', () => {
    expect(parseKroner('0.1')! + parseKroner('0,2')!).toBe(30)
  })

  it('gives whole øre for every two-decimal amount (no floating-point drift)', () => {
    for (let ore = 0; ore < 20_000; ore += 7) {
      const text = `${Math.floor(ore / 100)},${String(ore % 100).padStart(2, '0')}`
      expect(parseKroner(text)).toBe(ore)
    }
  })
})

describe('oreToKronerInput', () => {
  it('writes øre back as kroner with the locale decimal mark, and reads back the same', () => {
    expect(oreToKronerInput(123450, 'da')).toBe('1234,50')
    expect(oreToKronerInput(123450, 'en')).toBe('1234.50')
    expect(oreToKronerInput(5, 'da')).toBe('0,05')
    expect(parseKroner(oreToKronerInput(987654, 'da'))).toBe(987654)
  })
})
