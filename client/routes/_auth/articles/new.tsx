import { createFileRoute } from '@tanstack/react-router'
import { NewArticlePage } from '../../../features/articles/ArticleFormPage'

export const Route = createFileRoute('/_auth/articles/new')({ component: NewArticlePage })
