import { createFileRoute } from '@tanstack/react-router'
import { AssemblyFormPage } from '../../../features/assemblies/AssemblyFormPage'

export const Route = createFileRoute('/_auth/assemblies/new')({ component: () => <AssemblyFormPage /> })
