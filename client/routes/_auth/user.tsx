import { createFileRoute } from '@tanstack/react-router'
import { oneOf, searchOf } from '../../lib/search-params'
import { ProfilePage } from '../../features/profile/ProfilePage'
import { vippsLinkResults } from '../../features/profile/vipps-link'

/** `?vipps=` is where Vipps MobilePay returns the browser after linking it from the profile. */
const Search = searchOf({
  vipps: oneOf(vippsLinkResults),
})

export const Route = createFileRoute('/_auth/user')({
  validateSearch: Search,
  component: function UserRoute() {
    const { vipps } = Route.useSearch()
    return <ProfilePage vipps={vipps} />
  },
})
