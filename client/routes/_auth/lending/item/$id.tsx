import { createFileRoute } from '@tanstack/react-router'
import { ItemPage } from '../../../../features/lending/ItemPage'

export const Route = createFileRoute('/_auth/lending/item/$id')({
  component: function Item() {
    return <ItemPage id={Route.useParams().id} />
  },
})
