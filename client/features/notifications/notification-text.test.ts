import { describe, expect, it } from 'vitest'
import type { Notification } from '../../../shared/contract/notifications'
import { notificationText } from './use-notifications'

const base: Notification = {
  id: '0e7c2f4e-3c1b-4f0e-9d7a-0f6b2c1d9a11',
  title: 'Welcome to Boligkasse',
  message: 'Here you follow your payments from <strong>Solgården</strong>.',
  type: 'success',
  isRead: false,
  actionUrl: '/user',
  actionText: 'Open profile',
  createdAt: '2026-01-01T10:00:00.000Z',
  version: 1,
}

describe('notificationText', () => {
  it('shows the text of the interface language, whatever language the stored fields are in', () => {
    const n: Notification = {
      ...base,
      localized: {
        en: { title: base.title, message: base.message, actionText: base.actionText },
        da: { title: 'Velkommen til Boligkasse', message: 'Her følger du dine betalinger fra <strong>Solgården</strong>.', actionText: 'Åbn profil' },
      },
    }
    expect(notificationText(n, 'da')).toEqual({
      title: 'Velkommen til Boligkasse',
      message: 'Her følger du dine betalinger fra <strong>Solgården</strong>.',
      actionText: 'Åbn profil',
    })
    expect(notificationText({ ...n, title: 'Velkommen til Boligkasse' }, 'en').title).toBe('Welcome to Boligkasse')
  })

  it('falls back to the stored fields for a notification without its text in each language (older server or row)', () => {
    expect(notificationText(base, 'da')).toEqual({ title: base.title, message: base.message, actionText: 'Open profile' })
    expect(notificationText({ ...base, localized: null }, 'da').title).toBe('Welcome to Boligkasse')
  })
})
