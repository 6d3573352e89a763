import { createFileRoute } from '@tanstack/react-router'
import { ImportPage } from '../../../features/households/ImportPage'

export const Route = createFileRoute('/_auth/households/import')({ component: ImportPage })
