import { describe, expect, it } from 'vitest'
import { PersonalDataExport } from '../../../shared/contract/personal-data'
import { demo, testApp } from '../../test/harness'
import { statementsRun } from '../../test/paging'
import { createArticle, laundryArticle } from '../articles/test-helpers'
import { uploadDocument } from '../documents/test-helpers'
import { personalDataOf, sections } from './personal-data.export'
import { memberWithDataEverywhere } from './test-helpers'

const contractSections = Object.keys(PersonalDataExport.shape).filter((k) => k !== 'format' && k !== 'exportedAt')

describe('the sections of the personal-data download', () => {
  it('lists every section of the contract once, in its order', () => {
    expect(sections.map((s) => s.key)).toEqual(contractSections)
  })

  it('fills every listed section for someone with data there, in one statement per section', async () => {
    const t = await testApp()
    const m = await memberWithDataEverywhere(t)
    const admin = await t.login(demo.admin)
    expect((await uploadDocument(t, admin, { companyId: m.main, title: 'Husorden', category: 'HOUSE_RULES', audience: 'MEMBERS' })).status).toBe(201)
    expect((await createArticle(t, admin, { ...laundryArticle, companyId: m.main })).status).toBe(201)
    const filled = new Set<string>()
    for (const token of [m.member, admin, m.neighbour]) {
      const res = await t.call('GET', '/account/personal-data', { token })
      expect(res.status).toBe(200)
      expect(Object.keys(res.json)).toEqual(['format', 'exportedAt', ...contractSections])
      for (const [key, value] of Object.entries(res.json as Record<string, unknown>))
        if (Array.isArray(value) ? value.length : value && typeof value === 'object' && Object.keys(value).length) filled.add(key)
    }
    expect([...filled].sort()).toEqual([...contractSections].sort())

    // Set-based: the member with data everywhere costs one statement per section (the snapshot's begin and end aside).
    const statements = await statementsRun(t, () => personalDataOf(t.db, t.clock, m.userId))
    expect(statements).toBeGreaterThanOrEqual(sections.length)
    expect(statements).toBeLessThanOrEqual(sections.length + 2)
  })
})
