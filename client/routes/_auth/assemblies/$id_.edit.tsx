import { createFileRoute } from '@tanstack/react-router'
import { AssemblyFormPage } from '../../../features/assemblies/AssemblyFormPage'

export const Route = createFileRoute('/_auth/assemblies/$id_/edit')({
  component: function EditAssembly() {
    return <AssemblyFormPage id={Route.useParams().id} />
  },
})
