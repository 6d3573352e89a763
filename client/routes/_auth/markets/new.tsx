import { createFileRoute } from '@tanstack/react-router'
import { oneOf, searchOf } from '../../../lib/search-params'
import { listingKinds } from '../../../../shared/contract/values'
import { ListingFormPage } from '../../../features/market/ListingFormPage'

export const Route = createFileRoute('/_auth/markets/new')({
  validateSearch: searchOf({ kind: oneOf(listingKinds) }),
  component: function NewListing() {
    return <ListingFormPage kind={Route.useSearch().kind ?? 'SWAP'} />
  },
})
