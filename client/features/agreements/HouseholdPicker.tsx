import { useId, useRef, useState } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { Alert } from '../../components/ui/Alert'
import { Button } from '../../components/ui/Button'
import { SuggestionList } from '../../components/ui/SuggestionList'
import { comboboxInputProps, comboboxKeyHandler } from '../../components/ui/combobox-keys'
import { formatDate } from '../../lib/format'
import { useLocale } from '../../i18n/use-locale'
import { addressLine, searchHouseholds, type HouseholdView } from '../households/use-households'
import './household-picker.css'
import type { CreateAgreementForm } from './agreement-form'
import { isMemberOf, payerCandidates } from './household-prefill'

/** How many matches the list shows at most (type more to narrow it). */
const MAX_MATCHES = 8
/** The list hides this long after the field loses focus, so a click on a match still lands. */
const HIDE_AFTER_BLUR_MS = 150

/** "Solvej 3, 2. th., 2100 København Ø · Sofie Jensen": the address, and who lives there today to tell neighbours apart. */
const optionText = (h: HouseholdView, today: string) => {
  const names = payerCandidates(h, today).map((r) => r.fullName)
  return names.length ? `${addressLine(h)} · ${names.join(', ')}` : addressLine(h)
}

/** Households whose address holds every word first (a search by address), then those found by number or resident. */
export const rankByAddress = (found: readonly HouseholdView[], query: string): HouseholdView[] => {
  const words = query.trim().toLowerCase().split(/\s+/).filter(Boolean)
  const atAddress = (h: HouseholdView) => words.every((w) => addressLine(h).toLowerCase().includes(w))
  return [...found.filter(atAddress), ...found.filter((h) => !atAddress(h))]
}

/**
 * The household picker of the agreement create form (docs/PRODUCT.md "Agreement create",
 * docs/decisions/0090): a search by address among the association's households in the local copy
 * (so it works offline), an ARIA combobox (arrows, Enter, Escape); once one is chosen, its address
 * is linked, its last agreement's parts are proposed, and a payer can be picked among its current
 * (and arriving) residents to fill the member's name and e-mail.
 */
export function HouseholdPicker(p: {
  households: readonly HouseholdView[]
  chosen: HouseholdView | undefined
  today: string
  form: Pick<CreateAgreementForm, 'memberName' | 'emailAddress'>
  /** The chosen household has a last agreement whose parts could be used; `proposed`: they are in the form. */
  proposal: { available: boolean; proposed: boolean }
  onChoose: (h: HouseholdView) => void
  onClear: () => void
  onPayer: (residentId: string) => void
  onUseProposal: () => void
}) {
  const { t } = useLingui()
  const locale = useLocale()
  const id = useId()
  const listId = `${id}-list`
  const input = useRef<HTMLInputElement>(null)
  const [query, setQuery] = useState('')
  const [open, setOpen] = useState(false)
  const [active, setActive] = useState(-1)
  const matches = query.trim() ? rankByAddress(searchHouseholds(p.households, query), query).slice(0, MAX_MATCHES) : []
  const showList = open && matches.length > 0

  const choose = (h: HouseholdView) => {
    p.onChoose(h)
    setQuery('')
    setOpen(false)
    setActive(-1)
  }
  const onKey = comboboxKeyHandler({ open, suggestions: matches, active, setActive, choose, close: () => setOpen(false) })

  if (p.chosen) {
    const h = p.chosen
    const payers = payerCandidates(h, p.today)
    const movesIn = (day: string) => {
      const date = formatDate(day, locale)
      return t`Moves in ${date}`
    }
    return (
      <div className="household-picker">
        <div className="household-picker-chosen">
          <p>
            <strong className="household-picker-line">{addressLine(h)}</strong>
            {h.externalId && (
              <span className="muted cell-sub">
                <Trans>No. {h.externalId}</Trans>
              </span>
            )}
          </p>
          <Button
            variant="secondary"
            size="sm"
            onClick={() => {
              p.onClear()
              setTimeout(() => input.current?.focus())
            }}
          >
            <Trans>Choose another household</Trans>
          </Button>
        </div>
        {payers.length === 0 ?
          <p className="field-hint">
            <Trans>Nobody lives there according to the household. Type the member below.</Trans>
          </p>
        : <fieldset className="radio-group">
            <legend className="field-label">
              <Trans>Payer among the residents</Trans>
            </legend>
            <div className="household-picker-payers">
              {payers.map((r) => (
                <label key={r.id} className="radio-option">
                  <input type="radio" name={`${id}-payer`} checked={isMemberOf(p.form, r)} onChange={() => p.onPayer(r.id)} />
                  <span className="household-picker-payer">
                    {r.fullName}
                    {r.emailAddress && <span className="muted cell-sub">{r.emailAddress}</span>}
                    {r.moveInDate > p.today && <span className="muted cell-sub">{movesIn(r.moveInDate)}</span>}
                  </span>
                </label>
              ))}
            </div>
            <p className="field-hint">
              <Trans>The payer’s name and e-mail fill the member below. Someone else can be typed there instead.</Trans>
            </p>
          </fieldset>
        }
        {p.proposal.proposed ?
          <Alert variant="info">
            <Trans>The parts, payment period and provider of the household’s last agreement are proposed below. Change them as needed.</Trans>
          </Alert>
        : p.proposal.available ?
          <div className="form-actions form-actions-start">
            <Button variant="secondary" onClick={p.onUseProposal}>
              <Trans>Use the parts of the household’s last agreement</Trans>
            </Button>
          </div>
        : null}
      </div>
    )
  }

  return (
    <div className="household-picker">
      <div className="field autocomplete">
        <label htmlFor={`${id}-search`} className="field-label">
          <Trans>Find the household by address</Trans>
        </label>
        <input
          id={`${id}-search`}
          ref={input}
          className="input"
          type="search"
          {...comboboxInputProps({ listId, open: showList, active })}
          aria-describedby={`${id}-hint`}
          value={query}
          onChange={(e) => {
            setQuery(e.target.value)
            setOpen(true)
            setActive(-1)
          }}
          onFocus={() => setOpen(true)}
          onBlur={() => setTimeout(() => setOpen(false), HIDE_AFTER_BLUR_MS)}
          onKeyDown={onKey}
        />
        {showList && (
          <SuggestionList
            id={listId}
            label={t`Households`}
            items={matches}
            active={active}
            keyOf={(h) => h.id}
            textOf={(h) => optionText(h, p.today)}
            onChoose={choose}
          />
        )}
        <p id={`${id}-hint`} className="field-hint">
          <Trans>Optional. Choosing a household links its address, proposes the parts of its last agreement and lets you pick the payer.</Trans>
        </p>
        <div role="status" className="field-hint">
          {query.trim() && matches.length === 0 && <Trans>No household matches. Add the address below instead.</Trans>}
        </div>
      </div>
    </div>
  )
}
