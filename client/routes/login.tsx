import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod'
import { redirectSignedIn } from '../features/auth/guards'
import { LoginPage } from '../features/auth/LoginPage'

const Search = z.object({ error: z.string().optional().catch(undefined) })

export const Route = createFileRoute('/login')({
  validateSearch: Search,
  beforeLoad: (ctx) => redirectSignedIn(ctx, '/'),
  component: function LoginRoute() {
    const { error } = Route.useSearch()
    return <LoginPage error={error} />
  },
})
