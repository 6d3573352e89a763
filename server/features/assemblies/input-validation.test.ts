/**
 * Input the server must refuse (docs/decisions/0034-input-the-server-refuses.md) on the general assembly routes:
 * every bad value is a 4xx that names the field in the caller's language (English and Danish),
 * never a 500.
 */
import { describe, expect, it } from 'vitest'
import { demo, testApp } from '../../test/harness'
import { companyIds } from '../companies/test-helpers'
import { assemblyBody, tickAt } from './test-helpers'

const DA = { 'Accept-Language': 'da' }
/** The demo chairman speaks Danish; English is asked for explicitly. */
const EN = { 'Accept-Language': 'en' }
const issue = (res: { json: any }, path: string): string | undefined => res.json?.issues?.find((i: { path: string }) => i.path === path)?.message

async function setup() {
  const t = await testApp()
  const { main } = await companyIds(t)
  const chairman = await t.login(demo.chairman)
  const create = (extra: Record<string, unknown>, headers: Record<string, string> = EN) =>
    t.call('POST', '/assemblies', { token: chairman, headers, body: assemblyBody(main, extra) })
  return { t, main, chairman, create }
}

describe('general assembly input', () => {
  it.each([
    ['no title', { title: undefined }, 'title', 'Please enter a title', 'Indtast en titel'],
    [
      'a line break in the title',
      { title: 'Generalforsamling\nBcc: alle' },
      'title',
      'Please remove line breaks and control characters',
      'Fjern linjeskift og kontroltegn',
    ],
    ['no place', { place: '  ' }, 'place', 'Please enter where the meeting is held', 'Indtast hvor mødet holdes'],
    ['an empty agenda', { agenda: [] }, 'agenda', 'Please add at least one agenda item', 'Tilføj mindst ét punkt på dagsordenen'],
    ['no agenda', { agenda: 'Valg af dirigent' }, 'agenda', 'Please add at least one agenda item', 'Tilføj mindst ét punkt på dagsordenen'],
    [
      'an empty agenda item',
      { agenda: ['Valg af dirigent', ''] },
      'agenda.1',
      'Please fill in or remove the empty agenda item',
      'Udfyld eller fjern det tomme punkt på dagsordenen',
    ],
    ['a 301-character agenda item', { agenda: ['x'.repeat(301)] }, 'agenda.0', 'Agenda must be at most 300 characters', 'Dagsorden må højst være 300 tegn'],
    [
      '41 agenda items',
      { agenda: Array.from({ length: 41 }, (_, i) => `Punkt ${i}`) },
      'agenda',
      'Agenda can have at most 40 items',
      'Dagsorden må højst have 40 elementer',
    ],
    ['no meeting time', { heldAt: undefined }, 'heldAt', 'Please enter the date and time of the meeting', 'Indtast dato og klokkeslæt for mødet'],
    [
      'a meeting time that is not one',
      { heldAt: 'next Friday' },
      'heldAt',
      'Please enter the date and time of the meeting',
      'Indtast dato og klokkeslæt for mødet',
    ],
    ['30 February', { heldAt: '2027-02-30T19:00' }, 'heldAt', 'Please enter a valid date', 'Indtast en gyldig dato'],
    ['no deadline', { proposalDeadline: null }, 'proposalDeadline', 'Please enter the deadline for proposals', 'Indtast fristen for forslag'],
    [
      'a notice time that is not one',
      { noticeAt: '2027-02-20 10:00' },
      'noticeAt',
      'Please enter a date and time for the notice',
      'Indtast dato og klokkeslæt for indkaldelsen',
    ],
    [
      'a reminder of 0 days',
      { reminderDays: [14, 0] },
      'reminderDays.1',
      'Reminders are whole days from 1 to 60 before the meeting',
      'Påmindelser angives i hele dage fra 1 til 60 før mødet',
    ],
    [
      'a reminder of 61 days',
      { reminderDays: [61] },
      'reminderDays.0',
      'Reminders are whole days from 1 to 60 before the meeting',
      'Påmindelser angives i hele dage fra 1 til 60 før mødet',
    ],
    [
      'half a day',
      { reminderDays: [1.5] },
      'reminderDays.0',
      'Reminders are whole days from 1 to 60 before the meeting',
      'Påmindelser angives i hele dage fra 1 til 60 før mødet',
    ],
    [
      'a reminder in words',
      { reminderDays: ['fourteen'] },
      'reminderDays.0',
      'Reminders are whole days from 1 to 60 before the meeting',
      'Påmindelser angives i hele dage fra 1 til 60 før mødet',
    ],
    ['the same day twice', { reminderDays: [2, 2] }, 'reminderDays', 'Each number of days can be given only once', 'Hvert antal dage kan kun angives én gang'],
    ['seven reminders', { reminderDays: [1, 2, 3, 4, 5, 6, 7] }, 'reminderDays', 'Reminders can have at most 6 items', 'Påmindelser må højst have 6 elementer'],
    ['a company that is not an id', { companyId: 'solgaarden' }, 'companyId', 'Please give a valid id', 'Angiv et gyldigt id'],
  ])('refuses %s, in English and Danish', async (_, extra, path, english, danish) => {
    const { create } = await setup()
    const en = await create(extra)
    expect(en.status).toBe(400)
    expect(issue(en, path)).toBe(english)
    const da = await create(extra, DA)
    expect(da.status).toBe(400)
    expect(issue(da, path)).toBe(danish)
  })

  it('refuses malformed JSON, a bad If-Match and ids that are not ids, never with a 500', async () => {
    const { t, chairman, create } = await setup()
    const created = await create({})
    expect(created.status).toBe(201)
    const malformed = await t.call('POST', '/assemblies', { token: chairman, headers: { ...DA, 'Content-Type': 'application/json' }, body: '{"title": ' })
    expect(malformed.status).toBe(400)
    expect(malformed.json.code).toBe('MALFORMED_JSON')
    const ifMatch = await t.call('PATCH', `/assemblies/${created.json.id}`, {
      token: chairman,
      headers: { ...EN, 'If-Match': 'yesterday' },
      body: { place: 'Kælderen' },
    })
    expect(ifMatch.status).toBe(400)
    expect(ifMatch.json.issues[0]).toEqual({ path: 'If-Match', message: 'If-Match must be a version such as "3".' })
    for (const path of ['/assemblies/solgaarden', '/assemblies/solgaarden/proposals', '/assemblies?companyId=solgaarden'])
      expect((await t.call('GET', path, { token: chairman })).status).toBe(400)
    const badProposalId = await t.call('POST', `/assemblies/${created.json.id}/proposals/nope/withdraw`, { token: chairman })
    expect(badProposalId.status).toBe(400)
    // An edit with a value of the wrong kind.
    const wrongKind = await t.call('PATCH', `/assemblies/${created.json.id}`, {
      token: chairman,
      headers: DA,
      body: { agenda: 'Valg af dirigent', reminderDays: 14 },
    })
    expect(wrongKind.status).toBe(400)
    expect(issue(wrongKind, 'agenda')).toBe('Tilføj mindst ét punkt på dagsordenen')
    expect(issue(wrongKind, 'reminderDays')).toBe('Påmindelser angives i hele dage fra 1 til 60 før mødet')
  })

  it('refuses a proposal without a title or content, with control characters or too long, in English and Danish', async () => {
    const { t, create } = await setup()
    const created = await create({ noticeAt: null })
    await tickAt(t, '2026-11-23T09:00:01.000Z')
    const board = await t.login(demo.boardmember)
    const propose = (body: Record<string, unknown>, headers = EN) => t.call('POST', `/assemblies/${created.json.id}/proposals`, { token: board, headers, body })
    expect(issue(await propose({ body: 'Mere lys i gården.' }), 'title')).toBe('Please enter a title for the proposal')
    expect(issue(await propose({ title: 'Lys', body: '' }, DA), 'body')).toBe('Beskriv forslaget')
    expect(issue(await propose({ title: 'Lys\ni gården', body: 'Ja' }, DA), 'title')).toBe('Fjern linjeskift og kontroltegn')
    expect(issue(await propose({ title: 'Lys', body: 'Mere\u0000lys' }), 'body')).toBe('Please remove control characters')
    expect(issue(await propose({ title: 'L'.repeat(201), body: 'Ja' }), 'title')).toBe('At most 200 characters')
    expect(issue(await propose({ title: 'Lys', body: 'x'.repeat(10_001) }, DA), 'body')).toBe('Indhold må højst være 10000 tegn')
    // Line breaks and tabs in the content are kept.
    const ok = await propose({ title: 'Lys', body: 'Mere lys\n\ti gården' })
    expect(ok.status).toBe(201)
    expect(ok.json.body).toBe('Mere lys\n\ti gården')
  })
})
