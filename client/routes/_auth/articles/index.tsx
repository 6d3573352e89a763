import { createFileRoute } from '@tanstack/react-router'
import { searchOf, text } from '../../../lib/search-params'
import { ArticlesPage } from '../../../features/articles/ArticlesPage'

export const Route = createFileRoute('/_auth/articles/')({
  validateSearch: searchOf({ q: text(200) }),
  component: function Articles() {
    return <ArticlesPage q={Route.useSearch().q ?? ''} />
  },
})
