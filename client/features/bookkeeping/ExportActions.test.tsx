import { describe, expect, it } from 'vitest'
import { renderToStaticMarkup } from 'react-dom/server'
import { setupI18n } from '@lingui/core'
import { I18nProvider } from '@lingui/react'
import { ExportActions, exportBlocked } from './ExportActions'

const i18n = setupI18n({ locale: 'en', messages: { en: {} } })
const period = { from: '2026-10-01', to: '2026-10-31' }
type Counts = { vouchers: number | null; unexported: number | null; unexportedByFormat?: { CSV: number; XLSX: number } | null }
const render = (counts: Counts, onlyNew: boolean) =>
  renderToStaticMarkup(
    <I18nProvider i18n={i18n}>
      <ExportActions companyId="c" period={period} onlyNew={onlyNew} counts={counts} onExported={() => {}} />
    </I18nProvider>,
  )
const buttons = (html: string) => html.match(/<button[^>]*>/g) ?? []

describe('the bookkeeping export buttons', () => {
  it('are off when nothing is new since the last export, or the period has no entries; unknown counts leave them on', () => {
    expect(exportBlocked({ vouchers: 4, unexported: 0 }, true, 'CSV')).toBe('NOTHING_NEW')
    expect(exportBlocked({ vouchers: 4, unexported: 0 }, false, 'CSV')).toBeNull()
    expect(exportBlocked({ vouchers: 4, unexported: 1 }, true, 'CSV')).toBeNull()
    expect(exportBlocked({ vouchers: 0, unexported: 0 }, true, 'XLSX')).toBe('NO_ENTRIES')
    expect(exportBlocked({ vouchers: 0, unexported: 0 }, false, 'CSV')).toBe('NO_ENTRIES')
    expect(exportBlocked({ vouchers: null, unexported: null }, true, 'CSV')).toBeNull()
  })

  it('say why they are off, and the buttons point at the reason', () => {
    const html = render({ vouchers: 4, unexported: 0 }, true)
    expect(buttons(html)).toHaveLength(2)
    for (const b of buttons(html)) expect(b).toMatch(/ disabled=""/)
    const reason = /<p class="field-hint" id="([^"]+)">([^<]+)<\/p>/.exec(html)!
    expect(reason[2]).toBe('Nothing new to export since the last export: every entry of this period has been exported already.')
    for (const b of buttons(html)) expect(b).toContain(`aria-describedby="${reason[1]}"`)
    expect(render({ vouchers: 0, unexported: 0 }, false)).toContain('Nothing to export: the period has no entries.')
  })

  it('each format keeps its own marks: after the CSV, only the CSV button is off', () => {
    const counts = { vouchers: 4, unexported: 0, unexportedByFormat: { CSV: 0, XLSX: 4 } }
    expect(exportBlocked(counts, true, 'CSV')).toBe('NOTHING_NEW')
    expect(exportBlocked(counts, true, 'XLSX')).toBeNull()
    const [csv, xlsx] = buttons(render(counts, true))
    expect(csv).toMatch(/ disabled=""/)
    expect(xlsx).not.toContain('disabled')
    expect(render(counts, true)).toContain('Nothing new to export as CSV: every entry of this period has been exported as CSV already.')
  })

  it('stay on with something to export, without a reason', () => {
    const html = render({ vouchers: 4, unexported: 2 }, true)
    for (const b of buttons(html)) {
      expect(b).not.toContain('disabled')
      expect(b).not.toContain('aria-describedby')
    }
    expect(html).not.toContain('Nothing new to export')
  })
})
