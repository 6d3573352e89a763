import { createFileRoute } from '@tanstack/react-router'
import { searchOf, text } from '../lib/search-params'
import { ConfirmEmailPage } from '../features/auth/ConfirmEmailPage'

/** The link mailed to confirm an e-mail address (an added e-mail sign-in or an e-mail change). */
const Search = searchOf({ token: text() })

export const Route = createFileRoute('/confirm-email')({
  validateSearch: Search,
  component: function ConfirmEmailRoute() {
    const { token } = Route.useSearch()
    return <ConfirmEmailPage token={token} />
  },
})
