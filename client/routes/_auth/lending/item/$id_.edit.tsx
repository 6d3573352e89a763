import { createFileRoute } from '@tanstack/react-router'
import { ItemEditPage } from '../../../../features/lending/ItemEditPage'

export const Route = createFileRoute('/_auth/lending/item/$id_/edit')({
  component: function EditItem() {
    return <ItemEditPage id={Route.useParams().id} />
  },
})
