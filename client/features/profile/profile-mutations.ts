/**
 * Profile reads and writes (docs/PRODUCT.md §7 "Account and authentication"). Each write also updates the
 * signed-in user where the sidebar or the interface language depend on it.
 */
import type { AccountInfo, AddAuthMethodRequest, Profile, ProfileField } from '../../../shared/contract/account'
import { localeOf } from '../../../shared/contract/values'
import { api, type ActionKey } from '../../lib/api'
import { lazySchema } from '../../lib/schemas'
import { activateLocale } from '../../i18n/i18n'
import { requestSync } from '../../sync/use-sync'
import { patchUser, setUser } from '../auth/session'

export const loadProfile = (signal?: AbortSignal) => api('GET', '/account/profile', { schema: lazySchema('Profile'), signal })

const userPartOf = (p: Profile): Partial<AccountInfo> => ({
  fullName: p.fullName,
  emailAddress: p.emailAddress,
  mobileNumber: p.mobileNumber,
  language: p.language,
  companies: p.companies,
  currentCompany: p.currentCompany,
  version: p.version,
})

/**
 * PATCH /account/profile/{field}; a new language takes effect in the interface at once. A new
 * e-mail address needs `currentPassword` and waits for its link (`pendingEmailAddress`).
 */
export async function updateProfileField(field: ProfileField, value: string | null, action?: ActionKey, currentPassword?: string): Promise<Profile> {
  const profile = await api('PATCH', `/account/profile/${field}`, { body: { value, currentPassword }, schema: lazySchema('Profile'), action })
  patchUser(userPartOf(profile))
  if (field === 'language') await activateLocale(localeOf(profile.language))
  return profile
}

/** The server notifies the user of a new sign-in method: pull it so the badge shows it soon. */
export async function addAuthMethod(request: AddAuthMethodRequest, action?: ActionKey) {
  const { data } = await api('POST', '/account/auth-methods', { body: request, schema: lazySchema('AddAuthMethodResponse'), action })
  requestSync()
  return data
}

/** Where to send the browser to link Vipps MobilePay to this account; Vipps returns it to /user?vipps=…. */
export async function startVippsLink(currentPassword: string | undefined, action?: ActionKey): Promise<string> {
  return (await api('POST', '/auth/vipps/link', { body: { currentPassword }, schema: lazySchema('VippsLinkResponse'), action })).url
}

/** Removing a sign-in method confirms the owner with the current password (README "Security"). */
export async function deleteAuthMethod(id: string, currentPassword: string | undefined, action?: ActionKey): Promise<void> {
  await api('DELETE', `/account/auth-methods/${encodeURIComponent(id)}`, { body: { currentPassword }, action })
}

/** Makes another of the user's companies the current one; the sidebar follows. */
export async function switchCompany(companyId: string, action?: ActionKey): Promise<AccountInfo> {
  const info = await api('POST', '/account/current-company', { body: { companyId }, schema: lazySchema('AccountInfo'), action })
  setUser(info)
  return info
}
