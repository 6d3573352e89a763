import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod'
import { ResetPasswordPage } from '../features/auth/ResetPasswordPage'

const Search = z.object({
  token: z.string().optional().catch(undefined),
  email: z.string().optional().catch(undefined),
})

export const Route = createFileRoute('/reset-password')({
  validateSearch: Search,
  component: function ResetPasswordRoute() {
    const { token, email } = Route.useSearch()
    return <ResetPasswordPage token={token} email={email} />
  },
})
