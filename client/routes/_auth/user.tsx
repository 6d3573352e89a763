import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod'
import { ProfilePage } from '../../features/profile/ProfilePage'
import { vippsLinkResults } from '../../features/profile/vipps-link'

/** `?vipps=` is where Vipps MobilePay returns the browser after linking it from the profile. */
const Search = z.object({
  vipps: z.enum(vippsLinkResults).optional().catch(undefined),
})

export const Route = createFileRoute('/_auth/user')({
  validateSearch: Search,
  component: function UserRoute() {
    const { vipps } = Route.useSearch()
    return <ProfilePage vipps={vipps} />
  },
})
