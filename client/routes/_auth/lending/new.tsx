import { createFileRoute } from '@tanstack/react-router'
import { ItemFormPage } from '../../../features/lending/ItemFormPage'

export const Route = createFileRoute('/_auth/lending/new')({ component: ItemFormPage })
