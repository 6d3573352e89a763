import { describe, expect, it } from 'vitest'
import { renderToStaticMarkup } from 'react-dom/server'
import { setupI18n } from '@lingui/core'
import { I18nProvider } from '@lingui/react'
import { MonthChart } from './MonthChart'

const i18n = setupI18n({ locale: 'en', messages: { en: {} } })
const MONTHS = ['2025-12', '2026-01', '2026-02', '2026-03', '2026-04', '2026-05', '2026-06', '2026-07', '2026-08', '2026-09', '2026-10', '2026-11']
const values = MONTHS.map((_, i) =>
  i === 11 ? 390_000
  : i === 10 ? -12_345
  : 0,
)

/** The markup with Intl's no-break and thin spaces as plain ones. */
const render = (band: Parameters<typeof MonthChart>[0]['band'], locale: 'en' | 'da' = 'en') =>
  renderToStaticMarkup(
    <I18nProvider i18n={i18n}>
      <MonthChart title="Heating: net collected per month" months={MONTHS} values={values} band={band} locale={locale} />
    </I18nProvider>,
  ).replace(/[\u00a0\u2009\u202f]/g, ' ')

describe('MonthChart', () => {
  it('is one image named by its title and described in words', () => {
    const html = render(null)
    const svg = /<svg[^>]*>/.exec(html)![0]
    expect(svg).toContain('role="img"')
    const title = /aria-labelledby="([^"]+)"/.exec(svg)![1]!
    const desc = /aria-describedby="([^"]+)"/.exec(svg)![1]!
    expect(html).toContain(`<title id="${title}">Heating: net collected per month</title>`)
    expect(html).toContain(
      `<desc id="${desc}">Net collected per month from December 2025 to November 2026: DKK 3,776.55 in all; the highest month is November 2026 with DKK 3,900.00.</desc>`,
    )
    expect(html).not.toContain('month-chart-band')
  })

  it('draws a bar for each month with money, negative ones apart, and every month on the axis', () => {
    const html = render(null)
    expect(html.match(/class="month-chart-bar[^"]*"/g)).toEqual(['class="month-chart-bar month-chart-bar-negative"', 'class="month-chart-bar"'])
    expect(html).toContain('data-month="2026-11" data-value="390000"')
    expect(html).toContain('data-month="2026-10" data-value="-12345"')
    for (const m of ['Dec', 'Jan', 'Jun', 'Nov']) expect(html).toContain(`>${m}</text>`)
    // The year under January (not under December right before it, where they would collide).
    expect(html.match(/month-chart-year[^>]*>(\d{4})</g)?.map((s) => s.slice(-5, -1))).toEqual(['2026'])
  })

  it('shades the heating and water period and says so', () => {
    const html = render({ shown: { startDate: '2026-06-01', endDate: '2026-11-30' }, period: { startDate: '2026-06-01', endDate: '2027-05-31' } })
    expect(html).toContain('class="month-chart-band"')
    expect(html).toContain('The heating and water period (1 Jun 2026 – 31 May 2027) is shaded.')
  })

  it('writes months and amounts in Danish in a Danish interface', () => {
    const html = render(null, 'da')
    expect(html).toContain('>maj</text>')
    expect(html).toContain('december 2025')
    expect(html).toContain('3.900,00 kr.')
  })
})
