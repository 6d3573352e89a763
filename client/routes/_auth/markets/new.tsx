import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod'
import { ListingKind } from '../../../../shared/contract/market'
import { ListingFormPage } from '../../../features/market/ListingFormPage'

export const Route = createFileRoute('/_auth/markets/new')({
  validateSearch: z.object({ kind: ListingKind.optional().catch(undefined) }),
  component: function NewListing() {
    return <ListingFormPage kind={Route.useSearch().kind ?? 'SWAP'} />
  },
})
