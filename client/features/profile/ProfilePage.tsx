import { useState } from 'react'
import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { profileFieldSchemas, type Profile, type ProfileField } from '../../../shared/contract/account'
import { Alert, type AlertVariant } from '../../components/ui/Alert'
import { Badge } from '../../components/ui/Badge'
import { Button } from '../../components/ui/Button'
import { Spinner } from '../../components/ui/Spinner'
import { ApiError, createActionKey } from '../../lib/api'
import { usePageTitle } from '../../lib/use-page-title'
import { SignOutButton } from '../auth/SignOutButton'
import { AuthMethodsSection } from './AuthMethodsSection'
import { CompanySelection } from './CompanySelection'
import { EditableField } from './EditableField'
import { updateProfileField } from './profile-mutations'
import { useProfile } from './use-profile'

/** A message above the profile; a catalog message is translated when shown, so it follows a language change. */
export interface Notice {
  variant: AlertVariant
  text: string | MessageDescriptor
}

const profileUpdated = msg`Profile updated successfully`
const saveFailed = msg`Failed to save changes`

/** The user's own profile (spec §2 "User profile"). */
export function ProfilePage() {
  const { t, i18n } = useLingui()
  const { state, update } = useProfile()
  const [notice, setNotice] = useState<Notice | null>(null)
  usePageTitle(t`Profile`)

  return (
    <div className="page">
      <div className="page-header">
        <h1>
          <Trans>Profile</Trans>
        </h1>
        {state.status === 'ready' && state.profile.userRole === 'SUPERADMIN' && (
          <Badge variant="info">
            <Trans>Super Admin</Trans>
          </Badge>
        )}
      </div>
      {notice && <Alert variant={notice.variant}>{typeof notice.text === 'string' ? notice.text : i18n._(notice.text)}</Alert>}
      {state.status === 'loading' && <Spinner label={t`Loading profile`} />}
      {state.status === 'error' && (
        <Alert variant="error">
          <Trans>Failed to load profile information</Trans>
        </Alert>
      )}
      {state.status === 'ready' && (
        <>
          <PersonalInformation profile={state.profile} onSaved={(p) => update(() => p)} setNotice={setNotice} />
          <AuthMethodsSection
            methods={state.profile.authMethods}
            onChange={(authMethods) => update((p) => ({ ...p, authMethods }))}
            setNotice={setNotice}
          />
          <CompanySelection
            companies={state.profile.companies}
            currentCompanyId={state.profile.currentCompany?.id ?? null}
            onSwitched={(info) => update((p) => ({ ...p, currentCompany: info.currentCompany, companies: info.companies }))}
            setNotice={setNotice}
          />
        </>
      )}
      <div className="page-footer-actions">
        <SignOutButton />
      </div>
    </div>
  )
}

function PersonalInformation({
  profile,
  onSaved,
  setNotice,
}: {
  profile: Profile
  onSaved: (profile: Profile) => void
  setNotice: (notice: Notice | null) => void
}) {
  const { t, i18n } = useLingui()
  const [action] = useState(createActionKey)

  /** Validates with the shared schema, saves, and returns the message to show under the field. */
  const save = (field: ProfileField) => async (raw: string) => {
    const parsed = profileFieldSchemas[field].safeParse(raw)
    if (!parsed.success) return i18n._(parsed.error.issues[0]?.message ?? '')
    try {
      onSaved(await updateProfileField(field, parsed.data as string | null, action))
      setNotice({ variant: 'success', text: profileUpdated })
      return null
    } catch (e) {
      const text = (e instanceof ApiError && (e.issues[0]?.message || e.message)) || i18n._(saveFailed)
      setNotice({ variant: 'error', text })
      return text
    }
  }

  const languageOptions = [
    { value: 'EN', label: t`English` },
    { value: 'DA', label: t`Danish` },
  ]

  return (
    <section className="card" aria-labelledby="personal-title">
      <h2 id="personal-title">
        <Trans>Personal information</Trans>
      </h2>
      <dl className="editable-list">
        <EditableField
          label={t`Full Name`}
          display={profile.fullName}
          value={profile.fullName}
          input={{ kind: 'text', autoComplete: 'name' }}
          onSave={save('fullName')}
        />
        <EditableField
          label={t`Email Address`}
          display={profile.emailAddress}
          value={profile.emailAddress}
          input={{ kind: 'email', autoComplete: 'email' }}
          onSave={save('emailAddress')}
        />
        <EditableField
          label={t`Mobile Number`}
          display={profile.mobileNumber}
          value={profile.mobileNumber ?? ''}
          input={{ kind: 'tel', autoComplete: 'tel' }}
          onSave={save('mobileNumber')}
        />
        <EditableField
          label={t`Language`}
          display={languageOptions.find((o) => o.value === profile.language)?.label ?? profile.language}
          value={profile.language}
          input={{ kind: 'select', options: languageOptions }}
          onSave={save('language')}
        />
      </dl>
    </section>
  )
}
