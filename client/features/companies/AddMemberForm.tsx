import { useEffect, useId, useState, type FormEvent } from 'react'
import { Trans, useLingui } from '@lingui/react/macro'
import { UserSearchResult } from '../../../shared/contract/account'
import { AddMemberRequest } from '../../../shared/contract/companies'
import { companyRoles } from '../../../shared/domain/roles'
import { Alert } from '../../components/ui/Alert'
import { Button } from '../../components/ui/Button'
import { SuggestionList } from '../../components/ui/SuggestionList'
import { SelectField, TextField } from '../../components/ui/TextField'
import { ApiError, createActionKey } from '../../lib/api'
import { newId } from '../../lib/ids'
import { requestSync } from '../../sync/use-sync'
import { companyRoleLabels } from '../profile/labels'
import { addMember, searchUsers } from './company-child-mutations'
import { comboboxInputProps, comboboxKeyHandler } from '../../components/ui/combobox-keys'
import { translateIssue } from '../../lib/form-issues'

/** docs/PRODUCT.md §4: e-mail suggestions start at 3 characters and hide 200 ms after the field loses focus. */
const MIN_QUERY = 3
const HIDE_AFTER_BLUR_MS = 200
const SEARCH_DEBOUNCE_MS = 250

type FieldName = 'email' | 'name' | 'phone' | 'role'

/**
 * Adds a user to the company (docs/PRODUCT.md §2 "Company view", §5 "Add user to company"): someone of the
 * caller's associations found by e-mail (name and mobile then read-only), or anyone else by their
 * full e-mail address with a name, who receives an invitation (or, with an account already, an
 * e-mail that they were added; their own name and mobile stay). The search never shows people
 * outside the caller's associations (decision 0033). Sent at once; the list updates with the next sync.
 */
export function AddMemberForm({ companyId, onDone }: { companyId: string; onDone: () => void }) {
  const { t, i18n } = useLingui()
  const listId = useId()
  const [email, setEmail] = useState('')
  const [name, setName] = useState('')
  const [phone, setPhone] = useState('')
  const [role, setRole] = useState('')
  const [existing, setExisting] = useState<UserSearchResult | null>(null)
  const [suggestions, setSuggestions] = useState<UserSearchResult[]>([])
  /** The text the last finished search was for, so "no one matches" is shown only for it. */
  const [searchedFor, setSearchedFor] = useState<string | null>(null)
  const [open, setOpen] = useState(false)
  const [active, setActive] = useState(-1)
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({})
  const [failure, setFailure] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [action] = useState(createActionKey)

  useEffect(() => {
    if (existing || email.trim().length < MIN_QUERY) return setSuggestions([])
    const controller = new AbortController()
    const timer = setTimeout(() => {
      searchUsers(email.trim(), controller.signal).then(
        (found) => {
          setSuggestions(found)
          setSearchedFor(email.trim())
          setActive(-1)
        },
        () => {
          setSuggestions([])
          setSearchedFor(null)
        },
      )
    }, SEARCH_DEBOUNCE_MS)
    return () => {
      clearTimeout(timer)
      controller.abort()
    }
  }, [email, existing])

  const choose = (user: UserSearchResult) => {
    setExisting(user)
    setEmail(user.emailAddress)
    setName(user.fullName)
    setPhone(user.mobileNumber ?? '')
    setOpen(false)
  }

  const onEmailKey = comboboxKeyHandler({ open, suggestions, active, setActive, choose, close: () => setOpen(false) })

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    const request = existing ? { id: newId(), userId: existing.id, role } : { id: newId(), user: { name, email, phone }, role }
    const parsed = AddMemberRequest.safeParse(request)
    if (!parsed.success) {
      const next: Partial<Record<FieldName, string>> = {}
      for (const issue of parsed.error.issues) {
        const [first, second] = issue.path
        const field: FieldName | undefined =
          first === 'role' ? 'role'
          : first === 'user' && (second === 'name' || second === 'email' || second === 'phone') ? second
          : first === 'userId' ? 'email'
          : undefined
        if (field) next[field] ??= translateIssue(issue, i18n)
      }
      return setErrors(next)
    }
    setErrors({})
    setFailure(null)
    setBusy(true)
    try {
      await addMember(companyId, parsed.data, action)
      action.settle()
      requestSync()
      onDone()
    } catch (e) {
      setFailure((e instanceof ApiError && e.status !== 0 && (e.issues[0]?.message || e.message)) || t`Failed to add user`)
    } finally {
      setBusy(false)
    }
  }

  const showList = open && suggestions.length > 0
  const noMatch = !existing && searchedFor !== null && searchedFor === email.trim() && suggestions.length === 0
  const emailHint =
    existing ? null
    : noMatch ? t`No one in your associations matches. To invite someone else, type their full e-mail address and their name.`
    : t`Suggestions show people in your associations. To add anyone else, type their full e-mail address.`
  const describedBy = [emailHint ? `${listId}-email-hint` : '', errors.email ? `${listId}-email-error` : ''].filter(Boolean).join(' ') || undefined
  return (
    <form className="form card" noValidate onSubmit={(e) => void onSubmit(e)} aria-label={t`Add user`}>
      {failure && <Alert variant="error">{failure}</Alert>}
      <div className={`field autocomplete${errors.email ? ' field-invalid' : ''}`}>
        <label htmlFor={`${listId}-email`} className="field-label">
          <Trans>Email</Trans>
        </label>
        <input
          id={`${listId}-email`}
          className="input"
          type="email"
          {...comboboxInputProps({ listId, open: showList, active })}
          aria-invalid={errors.email ? true : undefined}
          aria-describedby={describedBy}
          value={email}
          onChange={(e) => {
            setEmail(e.target.value)
            // Editing the e-mail after choosing a user means someone else (or a new user).
            if (existing) {
              setExisting(null)
              setName('')
              setPhone('')
            }
            setOpen(true)
          }}
          onFocus={() => setOpen(true)}
          onBlur={() => setTimeout(() => setOpen(false), HIDE_AFTER_BLUR_MS)}
          onKeyDown={onEmailKey}
        />
        {showList && (
          <SuggestionList
            id={listId}
            label={t`Matching users`}
            items={suggestions}
            active={active}
            keyOf={(s) => s.id}
            textOf={(s) => `${s.fullName} – ${s.emailAddress}`}
            onChoose={choose}
          />
        )}
        {emailHint && (
          <p id={`${listId}-email-hint`} className="field-hint" aria-live="polite">
            {emailHint}
          </p>
        )}
        {errors.email && (
          <p id={`${listId}-email-error`} className="field-error">
            {errors.email}
          </p>
        )}
      </div>
      <TextField
        label={t`Name`}
        hint={existing ? undefined : t`Someone who already has an account keeps their own name and mobile number.`}
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={errors.name}
        readOnly={existing !== null}
        required
        autoComplete="off"
      />
      <TextField
        label={t`Mobile`}
        type="tel"
        value={phone}
        onChange={(e) => setPhone(e.target.value)}
        error={errors.phone}
        readOnly={existing !== null}
        autoComplete="off"
      />
      <SelectField
        label={t`Role`}
        value={role}
        onChange={(e) => setRole(e.target.value)}
        error={errors.role}
        required
        options={[{ value: '', label: t`Select role` }, ...companyRoles.map((r) => ({ value: r, label: i18n._(companyRoleLabels[r]) }))]}
      />
      <div className="form-actions">
        <Button variant="secondary" onClick={onDone}>
          <Trans>Cancel</Trans>
        </Button>
        <Button type="submit" busy={busy}>
          <Trans>Add user</Trans>
        </Button>
      </div>
    </form>
  )
}
