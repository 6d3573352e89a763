import { createFileRoute } from '@tanstack/react-router'
import { ComingSoon } from '../../features/shell/ComingSoon'

/** Built by a later issue; until then the shared placeholder keeps the navigation working. */
export const Route = createFileRoute('/_auth/companies')({ component: () => <ComingSoon page="companies" /> })
