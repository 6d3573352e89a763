import { setupI18n } from '@lingui/core'
import { describe, expect, it } from 'vitest'
import { applyOutbox } from '../../sync/optimistic'
import type { Mutation } from '../../sync/local-db'
import { assemblyFormErrors, assemblyFormOf, emptyAssemblyForm, parseReminderDays, requestOf, type AssemblyFormValues } from './assembly-form'
import { ASSEMBLY_CREATE, changedAssemblyFields } from './assembly-mutations'

const i18n = setupI18n({ locale: 'en', messages: { en: {} } })
const NOW = new Date('2026-11-23T09:00:00.000Z').getTime()

const filled = (extra: Partial<AssemblyFormValues> = {}): AssemblyFormValues => ({
  ...emptyAssemblyForm(),
  title: 'Ordinær generalforsamling 2027',
  heldAt: '2027-03-12T19:00',
  place: 'Fælleshuset',
  agenda: ['Valg af dirigent', 'Beretning'],
  proposalDeadline: '2027-03-01T12:00',
  noticeAt: '2027-02-20T10:00',
  ...extra,
})

describe('the general assembly form', () => {
  it('reads the reminders as typed', () => {
    expect(parseReminderDays('14, 2')).toEqual([14, 2])
    expect(parseReminderDays(' 7;1 ')).toEqual([7, 1])
    expect(parseReminderDays('')).toEqual([])
    expect(parseReminderDays('14, two')).toEqual([14, Number.NaN])
  })

  it('is happy with a complete form, and names what is missing or wrong by field', () => {
    expect(assemblyFormErrors(filled(), i18n, { now: NOW })).toEqual({})
    expect(assemblyFormErrors(emptyAssemblyForm(), i18n, { now: NOW })).toEqual({
      title: 'Please enter a title',
      heldAt: 'Please enter the date and time of the meeting',
      place: 'Please enter where the meeting is held',
      'agenda.0': 'Please fill in or remove the empty agenda item',
      proposalDeadline: 'Please enter the deadline for proposals',
      noticeAt: 'Please enter a date and time for the notice',
    })
    expect(assemblyFormErrors(filled({ reminders: '14, 14' }), i18n, { now: NOW }).reminders).toBe('Each number of days can be given only once')
    expect(assemblyFormErrors(filled({ reminders: '14, two' }), i18n, { now: NOW }).reminders).toBe('Reminders are whole days from 1 to 60 before the meeting')
    expect(assemblyFormErrors(filled({ proposalDeadline: '2027-03-13T12:00' }), i18n, { now: NOW }).proposalDeadline).toBe(
      'The deadline for proposals must be before the meeting.',
    )
  })

  it('keeps the user on the form for times that have passed', () => {
    expect(assemblyFormErrors(filled({ heldAt: '2026-11-01T19:00', proposalDeadline: '2026-10-01T12:00', noticeMode: 'now' }), i18n, { now: NOW })).toEqual({
      heldAt: 'The meeting must be in the future.',
      proposalDeadline: 'The deadline for proposals must be in the future.',
    })
    expect(assemblyFormErrors(filled({ noticeAt: '2026-11-20T10:00' }), i18n, { now: NOW }).noticeAt).toMatch(/^The notice time has passed/)
    // A stored meeting time that has passed is not the user's doing: an edit of something else goes.
    expect(
      assemblyFormErrors(filled({ heldAt: '2026-11-01T19:00', proposalDeadline: '2026-10-01T12:00' }), i18n, {
        now: NOW,
        noticeOut: true,
        heldAtChanged: false,
        deadlineChanged: false,
      }),
    ).toEqual({})
  })

  it('wants the notice before the deadline, a new deadline ahead, and a passed deadline left where it is', () => {
    expect(assemblyFormErrors(filled({ noticeAt: '2027-03-02T10:00' }), i18n, { now: NOW })).toEqual({
      noticeAt: 'The notice must go out before the deadline for proposals.',
    })
    expect(assemblyFormErrors(filled({ proposalDeadline: '2026-11-22T12:00', noticeMode: 'now' }), i18n, { now: NOW })).toEqual({
      proposalDeadline: 'The deadline for proposals must be in the future.',
    })
    // A wall time that does not exist in Copenhagen (summer time begins) is no date.
    expect(assemblyFormErrors(filled({ heldAt: '2027-03-28T02:30' }), i18n, { now: NOW }).heldAt).toBe('Please enter a valid date')
    // Editing after the deadline: moving it is refused; leaving it as it was is fine.
    const late = new Date('2027-03-05T09:00:00.000Z').getTime()
    const stored = filled({ heldAt: '2027-03-12T19:00', proposalDeadline: '2027-03-01T12:00' })
    expect(
      assemblyFormErrors({ ...stored, proposalDeadline: '2027-03-08T12:00' }, i18n, {
        now: late,
        noticeOut: true,
        heldAtChanged: false,
        deadlineChanged: true,
        deadlinePassed: true,
      }),
    ).toEqual({ proposalDeadline: 'The deadline for proposals has passed and cannot be moved.' })
    expect(assemblyFormErrors(stored, i18n, { now: late, noticeOut: true, heldAtChanged: false, deadlineChanged: false, deadlinePassed: true })).toEqual({})
  })

  it('sends only what changed against the assembly as it opened', () => {
    const opened = {
      id: 'a',
      _version: 3,
      title: 'Ordinær generalforsamling 2027',
      heldAt: '2027-03-12T18:00:00.000Z',
      place: 'Fælleshuset',
      agenda: ['Valg af dirigent', 'Beretning'],
      proposalDeadline: '2027-03-01T11:00:00.000Z',
      noticeAt: '2027-02-20T09:00:00.000Z',
      reminderDays: [14, 2],
    }
    const form = assemblyFormOf(opened)
    expect(form).toMatchObject({ heldAt: '2027-03-12T19:00', proposalDeadline: '2027-03-01T12:00', noticeAt: '2027-02-20T10:00', reminders: '14, 2' })
    const edit = (values: AssemblyFormValues) => {
      const r = requestOf(values, 'c', 'a')
      return changedAssemblyFields(opened, { ...r, noticeAt: r.noticeAt })
    }
    expect(edit(form)).toBeNull()
    expect(edit({ ...form, place: 'Kælderen', reminders: '7' })).toEqual({ place: 'Kælderen', reminderDays: [7] })
  })

  it('shows a new assembly at once, with the sendouts the server will plan', () => {
    const m = {
      seq: 1,
      mutationId: 'm1',
      kind: ASSEMBLY_CREATE,
      method: 'POST',
      path: '/assemblies',
      entity: 'assembly',
      entityId: 'a',
      body: { ...requestOf(filled(), 'c', 'a'), reminderDays: [14, 2] },
      preview: { companyName: 'Solgården' },
      status: 'queued',
      attempts: 0,
      createdAt: NOW,
    } as unknown as Mutation
    const [row] = applyOutbox([], [m], 'assembly')
    expect(row).toMatchObject({
      id: 'a',
      companyName: 'Solgården',
      heldAt: '2027-03-12T18:00:00.000Z',
      status: 'PLANNED',
      _pending: true,
      sendouts: [
        { kind: 'ASSEMBLY_NOTICE', days: null, dueAt: '2027-02-20T09:00:00.000Z', sentAt: null },
        { kind: 'ASSEMBLY_REMINDER', days: 14, dueAt: '2027-02-26T18:00:00.000Z', sentAt: null },
        { kind: 'ASSEMBLY_REMINDER', days: 2, dueAt: '2027-03-10T18:00:00.000Z', sentAt: null },
      ],
    })
  })
})
