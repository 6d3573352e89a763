import { useEffect, useId, useState, type FormEvent } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { AddAddressRequest, AddressSuggestion } from '../../../shared/contract/companies'
import { addressKey } from '../../../shared/domain/address'
import { messages } from '../../../shared/i18n-messages'
import { Button } from '../../components/ui/Button'
import { SuggestionList } from '../../components/ui/SuggestionList'
import { TextField } from '../../components/ui/TextField'
import { newId } from '../../lib/ids'
import type { SyncHandle } from '../../sync/use-sync'
import { addAddress, searchAddresses } from './company-child-mutations'
import { useCompanyRows } from './use-company-rows'
import { comboboxInputProps, comboboxKeyHandler } from '../../components/ui/combobox-keys'
import { translateIssue } from '../../lib/form-issues'

/** docs/PRODUCT.md §4: address suggestions hide this long after the field loses focus. */
const HIDE_AFTER_BLUR_MS = 150
const SEARCH_DEBOUNCE_MS = 250
const MIN_QUERY = 3

const emptyForm = { referenceId: '', street: '', number: '', floor: '', side: '', zip: '', city: '' }
type FieldName = keyof typeof emptyForm

/** Adds an address to the company: search (server-side lookup) fills the fields, which stay editable. */
export function AddAddressForm({ handle, companyId, onDone }: { handle: SyncHandle; companyId: string; onDone: () => void }) {
  const { t, i18n } = useLingui()
  const listId = useId()
  const [query, setQuery] = useState('')
  const [suggestions, setSuggestions] = useState<AddressSuggestion[]>([])
  const [open, setOpen] = useState(false)
  const [active, setActive] = useState(-1)
  const [form, setForm] = useState(emptyForm)
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({})
  const existing = useCompanyRows(handle, 'address', companyId)

  useEffect(() => {
    if (query.trim().length < MIN_QUERY) return setSuggestions([])
    const controller = new AbortController()
    const timer = setTimeout(() => {
      searchAddresses(query.trim(), controller.signal).then(
        (found) => {
          setSuggestions(found)
          setActive(-1)
        },
        () => setSuggestions([]),
      )
    }, SEARCH_DEBOUNCE_MS)
    return () => {
      clearTimeout(timer)
      controller.abort()
    }
  }, [query])

  const choose = (s: AddressSuggestion) => {
    setForm({ referenceId: s.referenceId, street: s.street, number: s.number, floor: s.floor ?? '', side: s.side ?? '', zip: s.zip, city: s.city })
    setQuery(s.text)
    setOpen(false)
  }

  const onSearchKey = comboboxKeyHandler({ open, suggestions, active, setActive, choose, close: () => setOpen(false) })

  const set = (field: FieldName) => (value: string) => setForm((f) => ({ ...f, [field]: value }))

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    const parsed = AddAddressRequest.safeParse(form)
    if (!parsed.success) {
      const next: Partial<Record<FieldName, string>> = {}
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as FieldName
        next[field] ??= translateIssue(issue, i18n)
      }
      return setErrors(next)
    }
    // One address once per company (decision 0038); the server refuses it too, this says so at once.
    const key = addressKey(parsed.data)
    if (existing?.some((a) => typeof a.street === 'string' && addressKey(a as unknown as Parameters<typeof addressKey>[0]) === key))
      return setErrors({ street: i18n._(messages.addressExists.id) })
    setErrors({})
    await addAddress(handle, companyId, { ...parsed.data, id: newId() })
    onDone()
  }

  const showList = open && suggestions.length > 0
  return (
    <form className="form card" noValidate onSubmit={(e) => void onSubmit(e)} aria-label={t`Add address`}>
      <div className="field autocomplete">
        <label htmlFor={`${listId}-search`} className="field-label">
          <Trans>Search address</Trans>
        </label>
        <input
          id={`${listId}-search`}
          className="input"
          type="search"
          {...comboboxInputProps({ listId, open: showList, active })}
          value={query}
          onChange={(e) => {
            setQuery(e.target.value)
            setOpen(true)
          }}
          onFocus={() => setOpen(true)}
          onBlur={() => setTimeout(() => setOpen(false), HIDE_AFTER_BLUR_MS)}
          onKeyDown={onSearchKey}
        />
        {showList && (
          <SuggestionList
            id={listId}
            label={t`Address suggestions`}
            items={suggestions}
            active={active}
            keyOf={(s) => s.referenceId}
            textOf={(s) => s.text}
            onChoose={choose}
          />
        )}
      </div>
      <TextField label={t`Street`} value={form.street} onChange={(e) => set('street')(e.target.value)} error={errors.street} required />
      <TextField label={t`Number`} value={form.number} onChange={(e) => set('number')(e.target.value)} error={errors.number} required />
      <TextField label={t`Floor`} value={form.floor} onChange={(e) => set('floor')(e.target.value)} error={errors.floor} />
      <TextField label={t`Side`} value={form.side} onChange={(e) => set('side')(e.target.value)} error={errors.side} />
      <TextField label={t`Zip`} value={form.zip} onChange={(e) => set('zip')(e.target.value)} error={errors.zip} required inputMode="numeric" />
      <TextField label={t`City`} value={form.city} onChange={(e) => set('city')(e.target.value)} error={errors.city} required />
      <div className="form-actions">
        <Button variant="secondary" onClick={onDone}>
          <Trans>Cancel</Trans>
        </Button>
        <Button type="submit">
          <Trans>Add address</Trans>
        </Button>
      </div>
    </form>
  )
}
