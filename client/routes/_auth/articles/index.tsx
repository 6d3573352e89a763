import { createFileRoute } from '@tanstack/react-router'
import { z } from 'zod'
import { ArticlesPage } from '../../../features/articles/ArticlesPage'

export const Route = createFileRoute('/_auth/articles/')({
  validateSearch: z.object({ q: z.string().max(200).optional().catch(undefined) }),
  component: function Articles() {
    return <ArticlesPage q={Route.useSearch().q ?? ''} />
  },
})
