import { createFileRoute } from '@tanstack/react-router'
import { oneOf, searchOf, text } from '../lib/search-params'
import { redirectSignedIn } from '../features/auth/guards'
import { LoginPage } from '../features/auth/LoginPage'

const Search = searchOf({
  error: text(),
  /** `expired`: the session ended while syncing; the user's unsent changes wait for the sign-in. */
  reason: oneOf(['expired']),
})

export const Route = createFileRoute('/login')({
  validateSearch: Search,
  beforeLoad: (ctx) => redirectSignedIn(ctx, '/'),
  component: function LoginRoute() {
    const { error, reason } = Route.useSearch()
    return <LoginPage error={error} expired={reason === 'expired'} />
  },
})
