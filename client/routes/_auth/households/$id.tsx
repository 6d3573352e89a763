import { createFileRoute } from '@tanstack/react-router'
import { HouseholdPage } from '../../../features/households/HouseholdPage'

export const Route = createFileRoute('/_auth/households/$id')({
  component: function Household() {
    return <HouseholdPage id={Route.useParams().id} />
  },
})
