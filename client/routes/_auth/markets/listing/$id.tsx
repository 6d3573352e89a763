import { createFileRoute } from '@tanstack/react-router'
import { ListingPage } from '../../../../features/market/ListingPage'

export const Route = createFileRoute('/_auth/markets/listing/$id')({
  component: function Listing() {
    return <ListingPage id={Route.useParams().id} />
  },
})
