import { createFileRoute } from '@tanstack/react-router'
import { searchOf, text } from '../lib/search-params'
import { ResetPasswordPage } from '../features/auth/ResetPasswordPage'

const Search = searchOf({ token: text(), email: text() })

export const Route = createFileRoute('/reset-password')({
  validateSearch: Search,
  component: function ResetPasswordRoute() {
    const { token, email } = Route.useSearch()
    return <ResetPasswordPage token={token} email={email} />
  },
})
