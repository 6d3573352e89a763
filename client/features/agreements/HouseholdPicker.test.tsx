import { describe, expect, it, vi } from 'vitest'
import { renderToStaticMarkup } from 'react-dom/server'
import { setupI18n } from '@lingui/core'
import { I18nProvider } from '@lingui/react'
import type { HouseholdView } from '../households/use-households'
import { HouseholdPicker, rankByAddress } from './HouseholdPicker'

const i18n = setupI18n({ locale: 'en', messages: { en: {} } })
const resident = (id: string, fullName: string, emailAddress: string, extra: object = {}) => ({
  id,
  householdId: 'h1',
  userId: `u-${id}`,
  fullName,
  emailAddress,
  moveInDate: '2020-01-01',
  moveOutDate: null,
  kind: 'OWNER' as const,
  isPayer: false,
  ...extra,
})
const home = {
  id: 'h1',
  street: 'Solvej',
  number: '3',
  floor: '2',
  side: 'th',
  zip: '2100',
  city: 'København Ø',
  externalId: 'A-17',
  residents: [resident('r1', 'Sofie Jensen', 'sofie@example.dk', { isPayer: true }), resident('r2', 'Mads Jensen', 'mads@example.dk')],
} as unknown as HouseholdView

const render = (chosen: HouseholdView | undefined, proposal = { available: false, proposed: false }) =>
  renderToStaticMarkup(
    <I18nProvider i18n={i18n}>
      <HouseholdPicker
        households={[home]}
        chosen={chosen}
        today="2026-12-03"
        form={{ memberName: 'Sofie Jensen', emailAddress: 'sofie@example.dk' }}
        proposal={proposal}
        onChoose={vi.fn()}
        onClear={vi.fn()}
        onPayer={vi.fn()}
        onUseProposal={vi.fn()}
      />
    </I18nProvider>,
  )

describe('the household picker (decision 0090)', () => {
  it('is a labelled combobox over the households while none is chosen', () => {
    const html = render(undefined)
    expect(html).toMatch(/<label for="([^"]+)-search"[^>]*>Find the household by address<\/label>/)
    expect(html).toContain('role="combobox"')
    expect(html).toContain('aria-expanded="false"')
    expect(html).toContain('role="status"')
  })

  it('shows the chosen household with its residents as payers, the member’s one checked, and offers the last agreement’s parts', () => {
    const html = render(home, { available: true, proposed: false })
    expect(html).toContain('Solvej 3, 2. th, 2100 København Ø')
    expect(html).toContain('No. A-17')
    expect(html).toContain('Payer among the residents')
    expect(html).toMatch(/<input type="radio"[^>]*checked=""[^>]*\/><span class="household-picker-payer">Sofie Jensen/)
    expect(html).not.toMatch(/checked=""[^>]*\/><span class="household-picker-payer">Mads Jensen/)
    expect(html).toContain('Use the parts of the household’s last agreement')
    expect(render(home, { available: true, proposed: true })).toContain('are proposed below')
  })
})

describe('the household search (decision 0090)', () => {
  it('puts the households whose address holds every word before those found by external number or resident', () => {
    const byNumber = { ...home, id: 'h2', number: '15', externalId: 'SOL-017', residents: [] } as unknown as HouseholdView
    const at17 = { ...home, id: 'h3', number: '17', externalId: 'SOL-019', residents: [] } as unknown as HouseholdView
    expect(rankByAddress([byNumber, at17], 'Solvej 17').map((h) => h.id)).toEqual(['h3', 'h2'])
  })
})
