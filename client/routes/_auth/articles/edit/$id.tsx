import { createFileRoute } from '@tanstack/react-router'
import { EditArticlePage } from '../../../../features/articles/ArticleFormPage'

export const Route = createFileRoute('/_auth/articles/edit/$id')({
  component: function EditArticle() {
    return <EditArticlePage id={Route.useParams().id} />
  },
})
