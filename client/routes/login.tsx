import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod'
import { redirectSignedIn } from '../features/auth/guards'
import { LoginPage } from '../features/auth/LoginPage'

const Search = z.object({
  error: z.string().optional().catch(undefined),
  /** `expired`: the session ended while syncing; the user's unsent changes wait for the sign-in. */
  reason: z.enum(['expired']).optional().catch(undefined),
})

export const Route = createFileRoute('/login')({
  validateSearch: Search,
  beforeLoad: (ctx) => redirectSignedIn(ctx, '/'),
  component: function LoginRoute() {
    const { error, reason } = Route.useSearch()
    return <LoginPage error={error} expired={reason === 'expired'} />
  },
})
