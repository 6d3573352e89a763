import { createFileRoute } from '@tanstack/react-router'
import { AssemblyPage } from '../../../features/assemblies/AssemblyPage'

export const Route = createFileRoute('/_auth/assemblies/$id')({
  component: function Assembly() {
    return <AssemblyPage id={Route.useParams().id} />
  },
})
