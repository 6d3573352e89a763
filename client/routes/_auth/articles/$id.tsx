import { createFileRoute } from '@tanstack/react-router'
import { ArticlePage } from '../../../features/articles/ArticlePage'

export const Route = createFileRoute('/_auth/articles/$id')({
  component: function Article() {
    return <ArticlePage id={Route.useParams().id} />
  },
})
