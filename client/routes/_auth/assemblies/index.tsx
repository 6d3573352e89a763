import { createFileRoute } from '@tanstack/react-router'
import { AssembliesPage } from '../../../features/assemblies/AssembliesPage'

export const Route = createFileRoute('/_auth/assemblies/')({ component: () => <AssembliesPage /> })
