import { useEffect, useState } from 'react'
import { OwnHouseholds } from '../households/OwnHouseholds'
import { useNavigate } from '@tanstack/react-router'
import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { profileFieldSchemas, type Profile, type ProfileField } from '../../../shared/contract/account'
import type { Language } from '../../../shared/contract/common'
import { messages } from '../../../shared/i18n-messages'
import { Alert, type AlertVariant } from '../../components/ui/Alert'
import { Badge } from '../../components/ui/Badge'
import { Spinner } from '../../components/ui/Spinner'
import { OfflineReason } from '../../components/sync/OfflineReason'
import { useLocale } from '../../i18n/use-locale'
import { formatRecent } from '../../lib/format'
import { useSync, useSyncStatus } from '../../sync/use-sync'
import { ApiError, createActionKey } from '../../lib/api'
import { translateIssue } from '../../lib/form-issues'
import { usePageTitle } from '../../lib/use-page-title'
import { SignOutButton } from '../auth/SignOutButton'
import { PersonalDataSection } from '../personal-data/PersonalDataSection'
import { ErasureRequestSection } from '../personal-data/ErasureRequestSection'
import { AuthMethodsSection, hasPasswordMethod } from './AuthMethodsSection'
import { PushSection } from './PushSection'
import { CompanySelection } from './CompanySelection'
import { EditableField, type SaveProblem } from './EditableField'
import { updateProfileField } from './profile-mutations'
import { chooseLanguageOffline } from './profile-store'
import { useProfile, type ProfileSource } from './use-profile'
import type { VippsLinkResult } from './vipps-link'

/** A message above the profile; a catalog message is translated when shown, so it follows a language change. */
export interface Notice {
  variant: AlertVariant
  text: string | MessageDescriptor
}

const profileUpdated = msg`Profile updated successfully`
const languageKept = msg`Language changed on this device. Your account gets it when you are online again.`
const saveFailed = msg`Failed to save changes`

const vippsNotices: Record<VippsLinkResult, Notice> = {
  linked: { variant: 'success', text: msg`Vipps MobilePay is linked; you can sign in with it.` },
  vipps_linked_elsewhere: {
    variant: 'error',
    text: msg`This Vipps MobilePay profile already signs in to another Boligkasse account, so it was not linked to yours. Sign in to that account with Vipps MobilePay, or contact your association.`,
  },
  vipps_failed: { variant: 'error', text: msg`Linking Vipps MobilePay did not succeed or was cancelled. Nothing was changed; please try again.` },
}

/** The user's own profile (docs/PRODUCT.md §2 "User profile"); `vipps` is the outcome of linking Vipps MobilePay. */
export function ProfilePage({ vipps }: { vipps?: VippsLinkResult } = {}) {
  const { t, i18n } = useLingui()
  const navigate = useNavigate()
  const { state, update } = useProfile()
  const locale = useLocale()
  const online = useSyncStatus(useSync()).online
  // Changes that need the server wait for it: offline, or while the screen shows the device's copy.
  const connected = online && state.status === 'ready' && state.source.kind === 'server'
  const [notice, setNotice] = useState<Notice | null>(() => (vipps ? vippsNotices[vipps] : null))
  usePageTitle(t`Profile`)

  // The outcome is shown once: a reload or a shared address does not repeat it.
  useEffect(() => {
    if (vipps) void navigate({ to: '/user', search: {}, replace: true })
  }, [vipps, navigate])

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
      {state.status === 'ready' && state.source.kind !== 'server' && <OfflineCopy source={state.source} locale={locale} />}
      {state.status === 'ready' && (
        <>
          <PersonalInformation profile={state.profile} connected={connected} onSaved={(p) => update(() => p)} setNotice={setNotice} />
          <OwnHouseholds userId={state.profile.id} />
          <AuthMethodsSection
            methods={state.profile.authMethods}
            known={state.source.kind !== 'session'}
            connected={connected}
            onChange={(authMethods) => update((p) => ({ ...p, authMethods }))}
            setNotice={setNotice}
          />
          <CompanySelection
            companies={state.profile.companies}
            currentCompanyId={state.profile.currentCompany?.id ?? null}
            connected={connected}
            onSwitched={(info) => update((p) => ({ ...p, currentCompany: info.currentCompany, companies: info.companies }))}
            setNotice={setNotice}
          />
          <PushSection online={online} />
          <PersonalDataSection online={online} />
          <ErasureRequestSection online={online} />
        </>
      )}
      <div className="page-footer-actions">
        <SignOutButton />
      </div>
    </div>
  )
}

/** Offline: where the profile on screen comes from. */
function OfflineCopy({ source, locale }: { source: Exclude<ProfileSource, { kind: 'server' }>; locale: ReturnType<typeof useLocale> }) {
  const when = source.kind === 'device' ? formatRecent(source.savedAt, locale) : ''
  return (
    <Alert variant="info" className="profile-offline">
      {source.kind === 'device' ?
        <Trans>You are offline. This is your profile as this device last saw it ({when}).</Trans>
      : <Trans>You are offline. This is your profile as this device knows it; your sign-in methods show here once you have opened Profile while online.</Trans>}
    </Alert>
  )
}

function PersonalInformation({
  profile,
  connected,
  onSaved,
  setNotice,
}: {
  profile: Profile
  /** False offline: only the language (a preference of this device) can change then. */
  connected: boolean
  onSaved: (profile: Profile) => void
  setNotice: (notice: Notice | null) => void
}) {
  const { t, i18n } = useLingui()
  const [action] = useState(createActionKey)
  const db = useSync()?.db
  const offlineReason = connected ? undefined : 'personal-offline'

  const hasPassword = hasPasswordMethod(profile.authMethods)
  const pendingEmail = profile.pendingEmailAddress

  /**
   * Validates with the shared schema, saves, and returns the messages to show under the field and
   * the current-password input. A new e-mail address needs the current password and changes only
   * when the link mailed to it is clicked.
   */
  const save =
    (field: ProfileField) =>
    async (raw: string, currentPassword: string): Promise<SaveProblem> => {
      const parsed = profileFieldSchemas[field].safeParse(raw)
      if (!parsed.success) return parsed.error.issues[0] ? translateIssue(parsed.error.issues[0], i18n) : i18n._(saveFailed)
      const value = parsed.data as string | null
      // The language works offline: this device switches now, the account follows (profile-store.ts).
      const languageOffline = async () => {
        if (!db) return i18n._(saveFailed)
        await chooseLanguageOffline(db, value as Language)
        onSaved({ ...profile, language: value as Language })
        setNotice({ variant: 'success', text: languageKept })
        return null
      }
      if (field === 'language' && !connected) return languageOffline()
      const newEmail = field === 'emailAddress' && value !== profile.emailAddress
      if (newEmail && hasPassword && !currentPassword) return { confirmation: i18n._(messages.currentPasswordRequired) }
      try {
        const saved = await updateProfileField(field, value, action, newEmail && currentPassword ? currentPassword : undefined)
        onSaved(saved)
        const pending = saved.pendingEmailAddress
        setNotice(
          newEmail && pending ?
            {
              variant: 'success',
              text: msg`We sent a confirmation link to ${pending}. Your e-mail address changes only when you click the link in that e-mail.`,
            }
          : { variant: 'success', text: profileUpdated },
        )
        return null
      } catch (e) {
        if (field === 'language' && e instanceof ApiError && e.status === 0) return languageOffline()
        const text = (e instanceof ApiError && (e.issues[0]?.message || e.message)) || i18n._(saveFailed)
        setNotice({ variant: 'error', text })
        if (!(e instanceof ApiError)) return text
        // The current password's own problems (missing, wrong) go under its input.
        const forPassword = e.issues.find((i) => i.path === 'currentPassword')?.message
        const forValue = e.issues.find((i) => i.path !== 'currentPassword')?.message
        if (forPassword || (e.status === 429 && newEmail)) return { value: forValue ?? null, confirmation: forPassword ?? e.message }
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
      {offlineReason && (
        <OfflineReason id={offlineReason}>
          <Trans>You are offline. Your name, e-mail address and mobile number can be changed when you are online; the language can be changed now.</Trans>
        </OfflineReason>
      )}
      <dl className="editable-list">
        <EditableField
          label={t`Full Name`}
          display={profile.fullName}
          value={profile.fullName}
          input={{ kind: 'text', autoComplete: 'name' }}
          onSave={save('fullName')}
          offlineReasonId={offlineReason}
        />
        <EditableField
          label={t`Email Address`}
          display={profile.emailAddress}
          value={profile.emailAddress}
          input={{ kind: 'email', autoComplete: 'email' }}
          confirmation={
            hasPassword ?
              {
                label: t`Current password`,
                autoComplete: 'current-password',
                hint: t`Needed to change your e-mail address. The new address changes only after you click the link we send to it.`,
              }
            : undefined
          }
          note={pendingEmail && <Trans>Waiting for confirmation: {pendingEmail} — we sent a link to that address.</Trans>}
          onSave={save('emailAddress')}
          offlineReasonId={offlineReason}
        />
        <EditableField
          label={t`Mobile Number`}
          display={profile.mobileNumber}
          value={profile.mobileNumber ?? ''}
          input={{ kind: 'tel', autoComplete: 'tel' }}
          note={
            profile.mobileNumber &&
            !profile.mobileVerified && <Trans>Not confirmed yet. Sign in with Vipps MobilePay, or link it below, to confirm that this number is yours.</Trans>
          }
          onSave={save('mobileNumber')}
          offlineReasonId={offlineReason}
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
