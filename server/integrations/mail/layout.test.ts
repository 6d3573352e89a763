import { describe, expect, it } from 'vitest'
import { renderMessageEmail } from '../../features/messages/message-email'
import { renderEmail } from './layout'

const names = ['<b>Bo</b>', '<script>alert(1)</script>', '{name}', '<0>x</0>']

describe('e-mails keep names with markup as text', () => {
  it.each(names)('a name %s is escaped in the HTML part and literal in the text part', (name) => {
    const escaped = name.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
    const plain = renderEmail('da', { subject: `Hej ${name}`, paragraphs: [`Hej ${name},`], action: { label: 'Åbn', url: 'https://example.dk/x' } })
    expect(plain.html).toContain(`<p>Hej ${escaped},</p>`)
    if (name.includes('<')) expect(plain.html).not.toContain(name)
    expect(plain.text).toContain(`Hej ${name},`)

    const message = renderMessageEmail('da', {
      recipientName: name,
      title: /*i18n*/ { id: 'New notice: {subject}' },
      intro: /*i18n*/ { id: '{sender} from {association} sent you a notice.' },
      values: { subject: 'Møde', association: 'Solgården', sender: name },
      body: '<p>Kære beboere</p>',
      url: 'https://example.dk/messages/1',
    })
    expect(message.html).toContain(`Hej ${escaped},`)
    expect(message.html).toContain(`${escaped} fra Solgården`)
    if (name.includes('<')) expect(message.html).not.toContain(name)
    expect(message.text).toContain(`Hej ${name},`)
    expect(message.text).toContain(`${name} fra Solgården`)
  })
})
