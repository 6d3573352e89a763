import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { z } from 'zod'
import { messages } from '../i18n-messages'
import { issueMessage, issueMessages, multiLineText, plainText, SINGLE_LINE_FORBIDDEN } from './text'

const forbiddenSingleLine = [
  ...Array.from({ length: 0x20 }, (_, i) => i),
  ...Array.from({ length: 0x21 }, (_, i) => 0x7f + i),
  0x2028,
  0x2029,
  0x202a,
  0x202b,
  0x202c,
  0x202d,
  0x202e,
  0x2066,
  0x2067,
  0x2068,
  0x2069,
].map((c) => String.fromCharCode(c))

const firstMessage = (schema: z.ZodType, value: unknown) => {
  const r = schema.safeParse(value)
  return r.success ? null : issueMessage(r.error.issues[0]!)
}

describe('plainText', () => {
  it('refuses every control, separator and bidi character inside a value, and accepts text without them', () => {
    const name = plainText(200)
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 20 }),
        fc.constantFrom(...forbiddenSingleLine),
        fc.string({ minLength: 1, maxLength: 20 }),
        (a, bad, b) => {
          const value = `x${a}${bad}${b}x`
          expect(name.safeParse(value).success).toBe(false)
        },
      ),
    )
    fc.assert(
      fc.property(fc.string({ unit: 'binary', minLength: 1, maxLength: 50 }), (text) => {
        const value = `x${text}x`
        expect(name.safeParse(value).success).toBe(!SINGLE_LINE_FORBIDDEN.test(value))
      }),
    )
  })

  it("names the limit and keeps the schema's required message", () => {
    expect(firstMessage(plainText(200), 'x'.repeat(201))).toEqual({ message: messages.tooLong.id, values: { maximum: 200 } })
    expect(firstMessage(plainText(200, messages.companyNameRequired.id), '  ')).toEqual({ message: messages.companyNameRequired.id, values: { minimum: 1 } })
    expect(firstMessage(plainText(200, messages.companyNameRequired.id), undefined)).toEqual({ message: messages.companyNameRequired.id })
    expect(plainText(200).parse('  Søren  ')).toBe('Søren')
  })

  it('multi-line text keeps line breaks and tabs and refuses NUL and bidi overrides', () => {
    expect(multiLineText(100).parse('a\r\n\tb\nc')).toBe('a\r\n\tb\nc')
    expect(firstMessage(multiLineText(100), 'a\u0000b')?.message).toBe(messages.multiLineControlCharacters.id)
    expect(firstMessage(multiLineText(100), 'a\u202Eb')?.message).toBe(messages.multiLineControlCharacters.id)
  })
})

describe("zod's own issues", () => {
  it('get a catalog message naming the limit, and a message the schema chose is kept', () => {
    expect(firstMessage(z.string().max(64), 'x'.repeat(65))).toEqual({ message: messages.tooLong.id, values: { maximum: 64 } })
    expect(firstMessage(z.string().min(3), 'x')).toEqual({ message: messages.tooShort.id, values: { minimum: 3 } })
    expect(firstMessage(z.string(), undefined)).toEqual({ message: messages.required.id })
    expect(firstMessage(z.array(z.string()).max(2), ['a', 'b', 'c'])).toEqual({ message: messages.tooManyItems.id, values: { maximum: 2 } })
    expect(firstMessage(z.number().max(10), 11)).toEqual({ message: messages.numberTooLarge.id, values: { maximum: 10 } })
    expect(firstMessage(z.number().positive(), 0)).toEqual({ message: messages.numberNotAbove.id, values: { minimum: 0 } })
    expect(firstMessage(z.number().int(), 1.5)).toEqual({ message: messages.wholeNumberExpected.id })
    expect(firstMessage(z.number(), 'x')).toEqual({ message: messages.numberExpected.id })
    expect(firstMessage(z.enum(['A', 'B']), 'C')).toEqual({ message: messages.optionInvalid.id })
    expect(firstMessage(z.email(), 'nope')).toEqual({ message: messages.invalidEmail.id })
    expect(firstMessage(z.uuid(), 'nope')).toEqual({ message: issueMessages.uuidInvalid.id })
    expect(firstMessage(z.string().max(3, messages.descriptionTooLong.id), 'abcd')).toEqual({ message: messages.descriptionTooLong.id, values: { maximum: 3 } })
    expect(
      firstMessage(
        z.string().refine(() => false, 'Too big: not ours'),
        'x',
      ),
    ).toEqual({ message: 'Too big: not ours' })
  })
})

describe('issues name the field', () => {
  const first = (schema: z.ZodType, value: unknown) => {
    const r = schema.safeParse(value)
    return r.success ? null : issueMessage(r.error.issues[0]!)
  }

  it('a generic sentence gets the field label from the last named path segment, with the limit', () => {
    const form = z.object({ parts: z.array(z.object({ description: plainText(20) })), user: z.object({ name: plainText(200) }) })
    expect(first(form, { parts: [{ description: 'x'.repeat(21) }], user: { name: 'Bo' } })).toEqual({
      message: issueMessages.tooLongField.id,
      values: { maximum: 20, label: 'Description' },
    })
    expect(first(form, { parts: [{ description: 'ok' }], user: { name: 'N'.repeat(201) } })).toEqual({
      message: issueMessages.tooLongField.id,
      values: { maximum: 200, label: 'Name' },
    })
  })

  it('every zod issue code gets its own sentence, naming the limit where there is one', () => {
    const f = <T extends z.ZodType>(schema: T) => z.object({ amount: schema })
    const cases: [z.ZodType, unknown, string, Record<string, unknown>?][] = [
      [f(z.string().max(20)), { amount: 'x'.repeat(21) }, issueMessages.tooLongField.id, { maximum: 20 }],
      [f(z.string().min(3)), { amount: 'x' }, issueMessages.tooShortField.id, { minimum: 3 }],
      [f(z.number().max(10)), { amount: 11 }, issueMessages.numberTooLargeField.id, { maximum: 10 }],
      [f(z.number().min(2)), { amount: 1 }, issueMessages.numberTooSmallField.id, { minimum: 2 }],
      [f(z.number().positive()), { amount: 0 }, issueMessages.numberNotAboveField.id, { minimum: 0 }],
      [f(z.array(z.string()).max(2)), { amount: ['a', 'b', 'c'] }, issueMessages.tooManyItemsField.id, { maximum: 2 }],
      [f(z.array(z.string()).min(2)), { amount: ['a'] }, issueMessages.tooFewItemsField.id, { minimum: 2 }],
      [f(z.date().max(new Date('2030-01-01'))), { amount: new Date('2031-01-01') }, issueMessages.dateTooLateField.id, { maximum: '2030-01-01' }],
      [f(z.date().min(new Date('2030-01-01'))), { amount: new Date('2029-01-01') }, issueMessages.dateTooEarlyField.id, { minimum: '2030-01-01' }],
      [f(z.number()), { amount: 'x' }, issueMessages.numberExpectedField.id],
      [f(z.number().int()), { amount: 1.5 }, issueMessages.wholeNumberField.id],
      [f(z.number().multipleOf(5)), { amount: 7 }, issueMessages.notMultipleOfField.id, { divisor: 5 }],
      [f(z.email()), { amount: 'nope' }, issueMessages.emailField.id],
      [f(z.url()), { amount: 'nope' }, issueMessages.urlField.id],
      [f(z.uuid()), { amount: 'nope' }, issueMessages.uuidField.id],
      [f(z.string().regex(/^\d+$/)), { amount: 'nope' }, issueMessages.formatField.id],
      [f(z.iso.date()), { amount: 'nope' }, issueMessages.dateInvalidField.id],
      [f(z.enum(['A', 'B'])), { amount: 'C' }, issueMessages.optionField.id],
      [f(z.string()), { amount: 1 }, issueMessages.valueInvalidField.id],
    ]
    for (const [schema, value, message, values] of cases) expect(first(schema, value), message).toEqual({ message, values: { ...values, label: 'Amount' } })
    expect(first(z.object({ a: z.string() }).strict(), { a: 'x', extra: 1, more: 2 })).toEqual({
      message: issueMessages.unrecognizedKeys.id,
      values: { keys: 'extra, more' },
    })
    expect(
      first(
        z.string().refine(() => false, messages.partDescriptionRequired.id),
        'x',
      ),
    ).toEqual({ message: messages.partDescriptionRequired.id })
  })

  it('a message the schema chose from docs/PRODUCT.md §5 is kept, even on a labelled field', () => {
    expect(first(z.object({ email: z.email(messages.invalidEmail.id) }), { email: 'nope' })).toEqual({ message: messages.invalidEmail.id })
    expect(first(z.object({ description: z.string().max(3, messages.descriptionTooLong.id) }), { description: 'abcd' })).toEqual({
      message: messages.descriptionTooLong.id,
      values: { maximum: 3 },
    })
  })
})
