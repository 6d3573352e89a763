import { createFileRoute } from '@tanstack/react-router'
import { ComingSoon } from '../features/shell/ComingSoon'

export const Route = createFileRoute('/register')({ component: () => <ComingSoon page="register" /> })
