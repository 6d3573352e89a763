/**
 * Schema messages in the user's language (docs/decisions/0008-translations-with-the-english-text-as-the-id.md,
 * docs/decisions/0034-input-the-server-refuses.md): every zod issue code has a sentence
 * in English and Danish that names the field and the limit, and the server's 400 answers a Danish
 * caller in Danish.
 */
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { issueMessage, localizeIssueValues, plainText } from '../../shared/contract/text'
import { createPayload, agreementFixtures } from '../features/agreements/test-helpers'
import { demo, testApp } from '../test/harness'
import { translate, type Locale } from './i18n'

const say = (locale: Locale, issue: z.core.$ZodIssue) => {
  const { message, values } = issueMessage(issue)
  return translate(
    locale,
    message,
    localizeIssueValues(values, (id) => translate(locale, id)),
  )
}
const firstIssue = (schema: z.ZodType, value: unknown) => {
  const r = schema.safeParse(value)
  if (r.success) throw new Error('expected a failed parse')
  return r.error.issues[0]!
}

/** Words of an English sentence that no Danish sentence here uses. */
const english =
  /\b(the|must|be|at|most|least|can|items|characters|a|an|is|not|valid|number|whole|multiple|of|date|latest|earliest|address|web|expected|one|offered|options|too|big|small|string|invalid|input|received|please|enter|these|fields|known|here)\b/i

describe('zod issues in Danish and English', () => {
  const on = <T extends z.ZodType>(schema: T) => z.object({ description: schema })
  const cases: { code: string; schema: z.ZodType; value: unknown; limit?: string; da: string; en: string }[] = [
    {
      code: 'too_big string',
      schema: on(z.string().max(20)),
      value: 'x'.repeat(21),
      limit: '20',
      da: 'Beskrivelse må højst være 20 tegn',
      en: 'Description must be at most 20 characters',
    },
    {
      code: 'too_small string',
      schema: on(z.string().min(3)),
      value: 'x',
      limit: '3',
      da: 'Beskrivelse skal være mindst 3 tegn',
      en: 'Description must be at least 3 characters',
    },
    { code: 'too_big number', schema: on(z.number().max(10)), value: 11, limit: '10', da: 'Beskrivelse må højst være 10', en: 'Description can be at most 10' },
    {
      code: 'too_small number',
      schema: on(z.number().min(2)),
      value: 1,
      limit: '2',
      da: 'Beskrivelse skal være mindst 2',
      en: 'Description must be at least 2',
    },
    {
      code: 'too_small number (exclusive)',
      schema: on(z.number().gt(5)),
      value: 5,
      limit: '5',
      da: 'Beskrivelse skal være større end 5',
      en: 'Description must be greater than 5',
    },
    {
      code: 'too_big array',
      schema: on(z.array(z.string()).max(2)),
      value: ['a', 'b', 'c'],
      limit: '2',
      da: 'Beskrivelse må højst have 2 elementer',
      en: 'Description can have at most 2 items',
    },
    {
      code: 'too_small array',
      schema: on(z.array(z.string()).min(2)),
      value: ['a'],
      limit: '2',
      da: 'Beskrivelse skal have mindst 2 elementer',
      en: 'Description needs at least 2 items',
    },
    {
      code: 'too_big date',
      schema: on(z.date().max(new Date('2030-01-01'))),
      value: new Date('2031-01-01'),
      limit: '2030-01-01',
      da: 'Beskrivelse må senest være 2030-01-01',
      en: 'Description can be 2030-01-01 at the latest',
    },
    {
      code: 'too_small date',
      schema: on(z.date().min(new Date('2030-01-01'))),
      value: new Date('2029-01-01'),
      limit: '2030-01-01',
      da: 'Beskrivelse må tidligst være 2030-01-01',
      en: 'Description can be 2030-01-01 at the earliest',
    },
    { code: 'invalid_type number', schema: on(z.number()), value: 'x', da: 'Beskrivelse skal være et tal', en: 'Description must be a number' },
    { code: 'invalid_type string', schema: on(z.string()), value: 5, da: 'Beskrivelse er ikke gyldig', en: 'Description is not valid' },
    { code: 'invalid_type missing', schema: on(z.string()), value: undefined, da: 'Dette felt er påkrævet', en: 'This field is required' },
    { code: 'not an integer', schema: on(z.number().int()), value: 1.5, da: 'Beskrivelse skal være et helt tal', en: 'Description must be a whole number' },
    {
      code: 'not_multiple_of',
      schema: on(z.number().multipleOf(5)),
      value: 7,
      limit: '5',
      da: 'Beskrivelse skal være et multiplum af 5',
      en: 'Description must be a multiple of 5',
    },
    {
      code: 'invalid_format email',
      schema: on(z.email()),
      value: 'nope',
      da: 'Beskrivelse skal være en gyldig e-mailadresse',
      en: 'Description must be a valid e-mail address',
    },
    {
      code: 'invalid_format url',
      schema: on(z.url()),
      value: 'nope',
      da: 'Beskrivelse skal være en gyldig webadresse (URL)',
      en: 'Description must be a valid web address (URL)',
    },
    { code: 'invalid_format uuid', schema: on(z.uuid()), value: 'nope', da: 'Beskrivelse skal være et gyldigt id', en: 'Description must be a valid id' },
    {
      code: 'invalid_format regex',
      schema: on(z.string().regex(/^\d+$/)),
      value: 'nope',
      da: 'Beskrivelse har ikke det forventede format',
      en: 'Description is not in the expected format',
    },
    {
      code: 'invalid_format date',
      schema: on(z.iso.date()),
      value: 'nope',
      da: 'Beskrivelse skal være en gyldig dato',
      en: 'Description must be a valid date',
    },
    {
      code: 'invalid_value enum',
      schema: on(z.enum(['A', 'B'])),
      value: 'C',
      da: 'Beskrivelse skal være en af de viste muligheder',
      en: 'Description must be one of the offered options',
    },
    {
      code: 'invalid_value literal',
      schema: on(z.literal('A')),
      value: 'C',
      da: 'Beskrivelse skal være en af de viste muligheder',
      en: 'Description must be one of the offered options',
    },
    { code: 'invalid_union', schema: on(z.union([z.number(), z.boolean()])), value: 'x', da: 'Beskrivelse er ikke gyldig', en: 'Description is not valid' },
    {
      code: 'plainText limit (the schema names "At most")',
      schema: on(plainText(20)),
      value: 'x'.repeat(21),
      limit: '20',
      da: 'Beskrivelse må højst være 20 tegn',
      en: 'Description must be at most 20 characters',
    },
  ]

  it.each(cases)('$code: Danish names the field and the limit, with no English sentence', ({ schema, value, limit, da, en }) => {
    const issue = firstIssue(schema, { description: value })
    expect(say('da', issue)).toBe(da)
    expect(say('en', issue)).toBe(en)
    expect(say('da', issue)).not.toMatch(english)
    if (limit) expect(say('da', issue)).toContain(limit)
  })

  it('custom messages with a catalog id, unknown keys and a value without a field are Danish too', () => {
    const custom = firstIssue(z.object({ description: z.string().refine(() => false, 'Please enter a description') }), { description: 'x' })
    expect(say('da', custom)).toBe('Indtast en beskrivelse')
    const keys = firstIssue(z.object({ a: z.string() }).strict(), { a: 'x', extra: 1 })
    expect(say('en', keys)).toBe('These fields are not known here: extra')
    expect(say('da', keys)).toBe('Disse felter kendes ikke her: extra')
    const bare = firstIssue(z.string().max(20), 'x'.repeat(21))
    expect(say('da', bare)).toBe('Højst 20 tegn')
    expect(say('da', firstIssue(z.number().multipleOf(5), 7))).toBe('Tallet skal være et multiplum af 5')
    expect(say('da', firstIssue(z.url(), 'x'))).toBe('Indtast en gyldig webadresse (URL)')
  })
})

describe('the server answers a Danish caller in Danish', () => {
  it('a too-long part description and a malformed sending time give Danish 400 messages naming the field and the limit', async () => {
    const t = await testApp()
    const f = await agreementFixtures(t)
    const admin = await t.login(demo.admin)
    const body = createPayload(f, { parts: [{ type: 'FEE', description: 'B'.repeat(201), price: 100 }] })
    const da = await t.call('POST', '/agreement', { token: admin, body, headers: { 'Accept-Language': 'da' } })
    expect(da.status).toBe(400)
    expect(da.json.code).toBe('VALIDATION_FAILED')
    expect(da.json.message).not.toMatch(english)
    expect(da.json.issues).toContainEqual({ path: 'parts.0.description', message: 'Beskrivelse må højst være 200 tegn' })
    const en = await t.call('POST', '/agreement', { token: admin, body })
    expect(en.json.issues).toContainEqual({ path: 'parts.0.description', message: 'Description must be at most 200 characters' })

    const draft = await t.call('POST', '/messages', {
      token: admin,
      body: { companyId: f.main, type: 'NOTICE', subject: 'Møde', body: 'Hej', recipient: { kind: 'ALL_MEMBERS' } },
    })
    expect(draft.status, JSON.stringify(draft.json)).toBe(201)
    const send = await t.call('POST', `/messages/${draft.json.id}/send`, {
      token: admin,
      body: { scheduledAt: 'i morgen' },
      headers: { 'Accept-Language': 'da' },
    })
    expect(send.status).toBe(400)
    expect(send.json.issues).toEqual([{ path: 'scheduledAt', message: 'Angiv dato og klokkeslæt for afsendelse.' }])
    const unknown = await t.call('POST', `/messages/${draft.json.id}/send`, {
      token: admin,
      body: { scheduledAt: null, extra: 1 },
      headers: { 'Accept-Language': 'da' },
    })
    expect(unknown.status).not.toBe(500)
  })
})
