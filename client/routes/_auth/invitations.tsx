import { createFileRoute } from '@tanstack/react-router'
import { InvitationsPage } from '../../features/invitations/InvitationsPage'

/** Invitations at scale (docs/PRODUCT.md "Invitations", decision 0091): staff of the association. */
export const Route = createFileRoute('/_auth/invitations')({ component: InvitationsPage })
