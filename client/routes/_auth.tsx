import { createFileRoute, Outlet } from '@tanstack/react-router'
import { requireSignedIn } from '../features/auth/guards'

/** Pathless layout of the routes marked (auth) in docs/PRODUCT.md §2: guests are sent to /login. */
export const Route = createFileRoute('/_auth')({
  beforeLoad: requireSignedIn,
  component: Outlet,
})
