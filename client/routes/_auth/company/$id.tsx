import { createFileRoute } from '@tanstack/react-router'
import { ComingSoon } from '../../../features/shell/ComingSoon'

/** The company view is built next; until then the shared placeholder keeps the list's links working. */
export const Route = createFileRoute('/_auth/company/$id')({ component: () => <ComingSoon page="companies" /> })
