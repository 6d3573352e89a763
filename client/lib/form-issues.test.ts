import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { setupI18n } from '@lingui/core'
import { z } from 'zod'
import { AgreementPartInput } from '../../shared/contract/agreements'
import { plainText } from '../../shared/contract/text'
import { errorsOf } from '../features/agreements/agreement-form'
import { issuesByField, translateIssue, translateIssueMessage } from './form-issues'

const catalog = (locale: string) => JSON.parse(readFileSync(resolve(import.meta.dirname, `../locales/${locale}.json`), 'utf8')).messages
const da = setupI18n({ locale: 'da', messages: { da: catalog('da') } })
const en = setupI18n({ locale: 'en', messages: { en: catalog('en') } })

describe('form messages from the shared schemas', () => {
  const form = z.object({ description: plainText(20), city: plainText(100), amount: z.number().max(10) })
  const issues = form.safeParse({ description: 'x'.repeat(21), city: 'C'.repeat(101), amount: 11 }).error!.issues

  it("name the field and the limit in Danish and English, never zod's English", () => {
    expect(issuesByField(issues, da)).toEqual({
      description: 'Beskrivelse må højst være 20 tegn',
      city: 'By må højst være 100 tegn',
      amount: 'Beløb må højst være 10',
    })
    expect(issuesByField(issues, en)).toEqual({
      description: 'Description must be at most 20 characters',
      city: 'City must be at most 100 characters',
      amount: 'Amount can be at most 10',
    })
    expect(translateIssue(z.string().max(20).safeParse('x'.repeat(21)).error!.issues[0]!, da)).toBe('Højst 20 tegn')
  })

  it("the agreement forms' descriptors translate the same way (a part description over its limit)", () => {
    const parsed = AgreementPartInput.safeParse({ type: 'FEE', description: 'D'.repeat(201), price: 100 })
    const errors = errorsOf(
      parsed.error!.issues.map((i) => ({ ...i, path: ['parts', 0, ...i.path] })),
      [],
    )
    expect(translateIssueMessage(errors['parts.0.description']!, da)).toBe('Beskrivelse må højst være 200 tegn')
    expect(translateIssueMessage(errors['parts.0.description']!, en)).toBe('Description must be at most 200 characters')
  })
})
