import { describe, expect, it, vi } from 'vitest'
import { renderToStaticMarkup } from 'react-dom/server'
import { setupI18n } from '@lingui/core'
import { I18nProvider } from '@lingui/react'
import { Trans } from './plain-trans'

const i18n = setupI18n({
  locale: 'da',
  messages: { da: { footer: 'Sendt af {sender} den {date}.', bold: 'Sendt af <0>{sender}</0>.', count: '{n, plural, one {# besked} other {# beskeder}}' } },
})
const render = (node: React.ReactNode) => renderToStaticMarkup(<I18nProvider i18n={i18n}>{node}</I18nProvider>)

describe('Trans keeps interpolated text as text', () => {
  it.each(['<b>Bo</b>', '<script>alert(1)</script>', '<0>x</0>', '<1/> and </0>', '{name}'])('a name %s shows literally, with no console error', (name) => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const escaped = name.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
    expect(render(<Trans id="footer" values={{ sender: name, date: '1. marts' }} />)).toBe(`Sendt af ${escaped} den 1. marts.`)
    expect(render(<Trans id="bold" values={{ sender: name }} components={{ 0: <strong /> }} />)).toBe(`Sendt af <strong>${escaped}</strong>.`)
    expect(error).not.toHaveBeenCalled()
    error.mockRestore()
  })

  it('numbers and plain strings pass through (plurals still work)', () => {
    expect(render(<Trans id="count" values={{ n: 3 }} />)).toBe('3 beskeder')
    expect(render(<Trans id="footer" values={{ sender: 'Jonas Berg', date: '1. marts' }} />)).toBe('Sendt af Jonas Berg den 1. marts.')
  })
})
