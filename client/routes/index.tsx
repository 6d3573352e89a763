import { createFileRoute } from '@tanstack/react-router'
import { redirectSignedIn } from '../features/auth/guards'
import { LandingPage } from '../features/landing/LandingPage'

export const Route = createFileRoute('/')({
  beforeLoad: (ctx) => redirectSignedIn(ctx, '/agreements'),
  component: LandingPage,
})
