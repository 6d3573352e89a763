import { describe, expect, it } from 'vitest'
import { renderMessageEmail } from './message-email'

describe('renderMessageEmail', () => {
  it('puts a body with dollar signs in as written ($ is text, not a replacement pattern)', () => {
    const body = "<p>Pris $$5, se $` og $&amp; $'</p>"
    const mail = renderMessageEmail('da', {
      recipientName: 'Emma',
      title: { id: 'New message: {subject}' },
      intro: { id: '{sender} sent you a message.' },
      values: { subject: 'Pris', sender: 'Bestyrelsen' },
      body,
      url: 'http://localhost/messages/1',
    })
    expect(mail.html).toContain(body)
    expect(mail.text).toContain("Pris $$5, se $` og $& $'")
  })
})
